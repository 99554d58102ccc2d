"""`companion history import` and `export`: standard input, what an import says, a file
imported twice, a game never played, the state folder, and the date and names kept."""

from __future__ import annotations

import io
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import simulate
from test_history import record
from test_history_cli import history

from companion.cli import main
from companion.cli.replay import replay_command
from companion.errors import where
from companion.storage import StateDir
from companion.storage.history import History

THEN = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)


def stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def games(folder) -> list:
    store = History(folder)
    try:
        return list(store.games())
    finally:
        store.close()


def test_import_dash_reads_standard_input_and_says_what_it_added(tmp_path, monkeypatch):
    stdin(monkeypatch, record().to_json() + "\n")
    code, out, err = history("--state-dir", str(tmp_path), "import", "-")
    assert (code, out, err) == (0, "1 game added from standard input\n", "")
    # A record without an id is the game its contents make: imported twice, it is once.
    assert [g.record for g in games(tmp_path)] == [record().identified()]


def test_a_bad_line_on_standard_input_is_named_as_stdin(tmp_path, monkeypatch):
    stdin(monkeypatch, "{}\n")
    code, out, err = history("--state-dir", str(tmp_path), "import", "-")
    assert code == 2 and out == "0 games added from standard input\n"
    assert err.startswith("companion history: <stdin>: line 1: ")
    assert err.splitlines()[1] == (
        "companion history: 1 bad line in <stdin> skipped; the good ones are added"
    )


def test_a_file_imported_twice_adds_its_games_once(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(f"{record().to_json()}\n{record(target=7).to_json()}\n")
    assert history("--state-dir", str(tmp_path), "import", str(path)) == (
        0,
        f"2 games added from {path}\n",
        "",
    )
    code, out, _ = history("--state-dir", str(tmp_path), "import", str(path))
    assert code == 0 and out == f"0 games added from {path}; 2 already in the history, skipped\n"
    assert len(games(tmp_path)) == 2


def test_an_import_says_its_count_in_the_configs_language(tmp_path):
    (tmp_path / "c.toml").write_text('[game]\nlanguage = "fr"\n')
    path = tmp_path / "in.jsonl"
    path.write_text(record().to_json() + "\n")
    argv = ("--config", str(tmp_path / "c.toml"), "--state-dir", str(tmp_path))
    assert history(*argv, "import", str(path))[1] == f"1 partie ajoutée depuis {path}\n"
    assert history(*argv, "import", str(path))[1] == (
        f"0 partie ajoutée depuis {path} ; 1 déjà dans l'historique, ignorée\n"
    )


def test_a_game_of_no_rounds_is_taken_as_an_older_history_exported_it(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(f'{record().to_json()}\n{{"players": 3, "ended": true}}\n')
    code, out, err = history("--state-dir", str(tmp_path), "import", str(path))
    assert (code, out, err) == (0, f"2 games added from {path}\n", "")
    assert sorted(len(g.record.rounds) for g in games(tmp_path)) == [0, 2]


@pytest.mark.parametrize("verb", [(), ("export",), ("stats",), ("import", "-")])
def test_a_state_folder_that_is_not_there_is_refused(tmp_path, verb):
    code, out, err = history("--state-dir", str(tmp_path / "typo"), *verb)
    assert code == 2 and out == ""
    assert err == f"companion history: --state-dir {tmp_path / 'typo'}: no such folder\n"
    assert not (tmp_path / "typo").exists()


def test_a_state_folder_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("")
    code, _, err = history("--state-dir", str(tmp_path / "f"))
    assert code == 2 and err.endswith(": not a folder\n")


def test_an_empty_state_folder_lists_no_games(tmp_path):
    code, out, err = history("--state-dir", str(tmp_path))
    assert code == 0 and err == "" and out.startswith(f"No games kept yet in {where(tmp_path)}")
    assert not (tmp_path / "history.sqlite").exists()


def test_export_then_import_elsewhere_keeps_the_dates_and_names(tmp_path):
    store = History(tmp_path / "a", clock=lambda: THEN)
    store.put(record(), names=("ANN", None, "CY"))
    store.put(record(target=7))
    store.close()
    code, exported, _ = history("export", "--state-dir", str(tmp_path / "a"))
    assert code == 0
    first = json.loads(exported.splitlines()[0])  # oldest first
    assert first["history"] == {"date": "2026-03-14T09:30:00+00:00", "names": ["ANN", None, "CY"]}
    (tmp_path / "b").mkdir()
    (tmp_path / "games.jsonl").write_text(exported)
    assert (
        history("import", str(tmp_path / "games.jsonl"), "--state-dir", str(tmp_path / "b"))[0] == 0
    )
    before, after = games(tmp_path / "a"), games(tmp_path / "b")
    assert [(g.date, g.names, g.record, g.result) for g in after] == [
        (g.date, g.names, g.record, g.result) for g in before
    ]
    # The same lines are what replay takes: the history key is ignored there.
    replayed, err = io.StringIO(), io.StringIO()
    assert replay_command(str(tmp_path / "games.jsonl"), as_json=True, out=replayed, err=err) == 0
    assert [json.loads(line).get("result") for line in replayed.getvalue().splitlines()] == [
        g.result for g in before
    ]


def test_an_exported_date_is_kept_in_utc_and_no_names_is_none(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(
        json.dumps({**record().to_dict(), "history": {"date": "2026-01-02T03:04:05+01:00"}})
    )
    assert history("--state-dir", str(tmp_path), "import", str(path))[0] == 0
    (game,) = games(tmp_path)
    assert game.date == "2026-01-02T02:04:05+00:00" and game.names is None


@pytest.mark.parametrize(
    ("history_key", "why"),
    [
        ('"x"', "'history' must be an object with 'date' and 'names'"),
        ('{"date": "yesterday"}', "'history': 'date' must be a date and time with its zone"),
        ('{"date": "2026-01-02T03:04:05"}', "'history': 'date' must be a date and time with"),
        ('{"names": ["ANN"]}', "'history': 'names' must be a list of 3 entries (null or a name)"),
        ('{"names": ["ANN", 7, null]}', "'history': 'names', seat P2: a name is text, got 7"),
    ],
)
def test_a_bad_history_key_is_refused_naming_the_line(tmp_path, history_key, why):
    path = tmp_path / "in.jsonl"
    line = record().to_json()[:-1] + f', "history": {history_key}}}'
    path.write_text(f"{record(target=7).to_json()}\n{line}\n")
    code, out, err = history("--state-dir", str(tmp_path), "import", str(path))
    assert code == 2 and out == f"1 game added from {path}\n" and err.count("\n") == 2
    assert err.startswith(f"companion history: {where(path)}: line 2: {why}")
    assert [g.record.target for g in games(tmp_path)] == [7]  # the good line is kept


def test_import_from_the_command_line_reads_standard_input(tmp_path, monkeypatch, capsys):
    stdin(monkeypatch, record().to_json() + "\n")
    assert main(["history", "import", "-", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "1 game added from standard input\n"


def test_export_then_import_is_the_same_history_for_every_kind_of_game(tmp_path):
    """Every kind of game the table keeps (finished, ended from the menu, set aside,
    resumed and finished, named, with bots) moves to another companion as it was, and
    moving it again adds nothing."""
    demo = Path(__file__).parent.parent / "companion" / "examples" / "demo-script.txt"
    lines = demo.read_text().splitlines(keepends=True)
    split = next(i for i, line in enumerate(lines) if line.startswith("# round 4"))
    (tmp_path / "first.txt").write_text("name P1 anna\n" + "".join(lines[:split]))
    (tmp_path / "rest.txt").write_text("".join(lines[split:]))
    one = next(i for i, line in enumerate(lines) if line.startswith("# round 2"))
    menu_end = "hold OK\n" + "press RIGHT\n" * 3 + "press OK\npress OK\n"
    (tmp_path / "end.txt").write_text("".join(lines[:one]) + menu_end)
    a = tmp_path / "a"
    game = ("--fast", "--state-dir", str(a), "--script")
    steps = [
        ("--players", "3", *game, str(tmp_path / "first.txt")),  # named, three rounds
        ("--players", "0", "--bots", "easy,strong", "--new", *game, "/dev/null"),  # bots
        ("--players", "3", "--new", *game, str(tmp_path / "end.txt")),  # ended from the menu
        ("--players", "3", "--new", *game, str(tmp_path / "first.txt")),  # set aside
    ]
    for argv in steps:
        code, _, err = simulate(*argv)
        assert code == 0, err
    ((kept, _),) = StateDir(a).unfinished_kept(10)  # the named game, set aside
    code, _, err = simulate("--resume", kept.name, *game, str(tmp_path / "rest.txt"))
    assert code == 0, err  # resumed and finished
    exported = history("export", "--state-dir", str(a))[1]
    (tmp_path / "games.jsonl").write_text(exported)
    (tmp_path / "b").mkdir()
    for added in (len(exported.splitlines()), 0):
        code, out, err = history(
            "import", str(tmp_path / "games.jsonl"), "--state-dir", str(tmp_path / "b")
        )
        assert code == 0 and err == "" and out.startswith(f"{added} game")
    rows = [
        [(g.game_id, g.date, g.finished, g.names, g.record, g.result) for g in games(folder)]
        for folder in (a, tmp_path / "b")
    ]
    assert rows[0] == rows[1]
    kinds = {(g[2], bool(g[3]), bool(g[4].bots)) for g in rows[0]}
    assert (True, True, False) in kinds  # named, resumed, finished
    assert (True, False, True) in kinds  # bots, finished
    assert any(not g[2] and g[4].ended for g in rows[0])  # ended from the menu
    assert any(not g[2] and not g[4].ended for g in rows[0])  # set aside
