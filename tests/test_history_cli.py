"""`companion history`: the list, export (replayed to the same results), import, stats."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import pytest
from test_history import play, record

from companion.cli import build_parser
from companion.cli.replay import replay_command
from companion.errors import where
from companion.storage.history import History, Kept


def history(*argv: str) -> tuple[int, str, str]:
    args = build_parser().parse_args(["history", *argv])
    from companion.cli.history import history_command

    out, err = io.StringIO(), io.StringIO()
    code = history_command(
        args.verb, args.config, args.state_dir, as_json=args.json, file=args.file, out=out, err=err
    )
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_the_simulated_games_are_listed_newest_first_and_export_replays_to_them(tmp_path):
    first = play(tmp_path, 1)
    second = play(tmp_path, 2, players=2)
    code, out, err = history("--state-dir", str(tmp_path / "s"), "--json")
    assert code == 0 and err == ""
    games = json.loads(out)
    assert [g["result"] for g in games] == [second["result"], first["result"]]
    assert all(g["finished"] and g["date"] for g in games)
    assert [g["winners"] for g in games] == [
        second["result"]["winners"],
        first["result"]["winners"],
    ]
    code, exported, _ = history("export", "--state-dir", str(tmp_path / "s"))
    assert code == 0 and exported.count("\n") == 2
    (tmp_path / "games.jsonl").write_text(exported)
    replayed, err = io.StringIO(), io.StringIO()
    assert replay_command(str(tmp_path / "games.jsonl"), as_json=True, out=replayed, err=err) == 0
    # Exported oldest first, as they were played: an import adds them in that order.
    assert [json.loads(line)["result"] for line in replayed.getvalue().splitlines()] == [
        g["result"] for g in games[::-1]
    ]
    assert [json.loads(line)["id"] for line in exported.splitlines()] == [
        g["id"] for g in games[::-1]
    ]


def test_the_table_names_seats_winners_and_an_abandoned_game(tmp_path):
    store = History(tmp_path)
    store.put(record(), names=("Ann", "Bo", None))
    store.put(record(target=30, ended=True))
    store.close()
    code, out, _ = history("--state-dir", str(tmp_path))
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["date", "seats", "winners", "rounds", "board"]
    assert lines[1].endswith("P1, P2, P3   P2       2       standard  abandoned")
    assert lines[2].endswith("Ann, Bo, P3  Bo       2       standard")


def test_import_adds_every_good_line_and_names_each_bad_one(tmp_path):
    good, other = record().to_json(), record(target=7).to_json()
    (tmp_path / "in.jsonl").write_text(f"{good}\n{other}\n")
    (tmp_path / "s").mkdir()
    assert history("--state-dir", str(tmp_path / "s"), "import", str(tmp_path / "in.jsonl"))[0] == 0
    bad = '{"players": 3, "rounds": [{"plays": [[1, 3], [2, 5], [4, 9]]}]}'
    third = record(target=8).to_json()
    (tmp_path / "bad.jsonl").write_text(f"{good}\n{bad}\n{third}\n")
    code, out, err = history(
        "import", str(tmp_path / "bad.jsonl"), "--state-dir", str(tmp_path / "s")
    )
    path = where(tmp_path / "bad.jsonl")
    assert code == 2
    assert out == f"1 game added from {tmp_path / 'bad.jsonl'}; 1 already in the history, skipped\n"
    assert err == (
        f"companion history: {path}: line 2: round 1, seat P3: "
        "card 9 does not exist (cards are 1..8)\n"
        f"companion history: 1 bad line in {path} skipped; the good ones are added\n"
    )
    assert sorted(g.record.target for g in History(tmp_path / "s").games()) == [6, 7, 8]


def test_an_import_names_the_first_bad_lines_and_counts_the_rest(tmp_path):
    (tmp_path / "bad.jsonl").write_text("nonsense\n" * 25 + record().to_json() + "\n")
    (tmp_path / "s").mkdir()
    code, out, err = history(
        "import", str(tmp_path / "bad.jsonl"), "--state-dir", str(tmp_path / "s")
    )
    lines = err.splitlines()
    assert code == 2 and out.startswith("1 game added") and len(lines) == 11
    assert ": line 10: " in lines[9] and ": line 11: " not in err
    assert lines[10].endswith(
        f"25 bad lines in {where(tmp_path / 'bad.jsonl')} skipped (15 more not shown); "
        "the good ones are added"
    )


def test_a_missing_import_file_is_one_line(tmp_path):
    code, _, err = history("--state-dir", str(tmp_path), "import", str(tmp_path / "none"))
    assert code == 2 and err.count("\n") == 1 and "none" in err


def dated(day: int):
    return lambda: datetime(2025, 3, day, 20, 15, tzinfo=UTC)


def test_stats_per_name(tmp_path):
    store = History(tmp_path, clock=dated(1))
    store.put(record(), names=("Ann", "Bo", None))
    store.put(record(), names=("Bo", "Ann", None), date="2025-03-02T20:15:00+00:00")
    store.put(record(target=30), names=("Ann", "Bo", None))  # unfinished: abandoned
    store.close()
    code, out, _ = history("stats", "--state-dir", str(tmp_path), "--json")
    stats = json.loads(out)
    p3 = ["P3 (2025-03-01 20:15)", "P3 (2025-03-01 20:15) #2", "P3 (2025-03-02 20:15)"]
    assert code == 0 and sorted(stats) == ["Ann", "Bo", *p3]
    assert stats["Ann"]["games"] == 2 and stats["Ann"]["wins"] == 1
    assert stats["Ann"]["abandoned"] == 1 and stats["Ann"]["kind"] == "name"
    assert stats["Ann"]["win_rate"] == 0.5 and stats["Ann"]["average_vp"] == 7.5
    third = stats[p3[2]]
    assert third["kind"] == "seat" and third["games"] == 1 and third["rounds_per_game"] == 2
    assert {c: f["played"] for c, f in third["cards"].items()} == dict.fromkeys("3458", 1)
    same_minute = sorted((stats[p]["games"], stats[p]["abandoned"]) for p in p3[:2])
    assert same_minute == [(0, 1), (1, 0)]  # one finished, one abandoned: two people
    assert min(stats[p]["win_rate"] or 0 for p in p3[:2]) == 0
    assert any(stats[p]["win_rate"] is None for p in p3[:2])
    assert third["cards"]["3"]["name"] == "Governor"
    # The VP each card's steps paid add up to the VP on the track (before the goods
    # are converted at the end): P1 6 and P2 8 after these two rounds, in each game.
    assert {c: f["vp"] for c, f in stats["Bo"]["cards"].items()} == {
        "1": 4,
        "2": 4,
        "3": 0,
        "5": 0,
        "6": 1,
        "7": 5,
    }
    assert sum(f["vp"] for f in stats["Ann"]["cards"].values()) == 6 + 8


def test_unnamed_seats_of_two_games_are_two_people(tmp_path):
    """P3 of one game is nobody known: not the P3 of another game."""
    store = History(tmp_path)
    store.put(record(), date="2025-03-01T20:15:00+00:00")
    store.put(record(), date="2025-03-02T21:30:00+00:00")
    store.close()
    stats = json.loads(history("stats", "--state-dir", str(tmp_path), "--json")[1])
    assert len(stats) == 6 and all(s["games"] == 1 for s in stats.values())
    assert "P1 (2025-03-02 21:30)" in stats and "P1" not in stats


def test_many_games_of_one_minute_are_each_their_own_people_in_the_text_and_json(tmp_path):
    """Games imported without a date share the minute they were imported in: each of
    their unnamed seats is still a person of its own (numbered #2, #3 ...), in one pass."""
    store = History(tmp_path)
    store.add_all(
        (record(id=f"g{n}"), Kept("2025-03-01T20:15:00+00:00", ("ANN", None, None)))
        for n in range(300)
    )
    store.close()
    stats = json.loads(history("stats", "--state-dir", str(tmp_path), "--json")[1])
    assert stats["ANN"]["games"] == 300 and len(stats) == 1 + 2 * 300
    assert "P3 (2025-03-01 20:15) #300" in stats and "P3 (2025-03-01 20:15) #301" not in stats
    code, out, _ = history("stats", "--state-dir", str(tmp_path))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + len(stats)
    assert [line.split("  ")[0].rstrip() for line in lines[1:]] == list(stats)  # sorted alike
    width = max(map(len, stats))  # the first column padded to its widest, on every line
    assert all(line[width : width + 2] == "  " and line[width + 2] != " " for line in lines)


def test_unnamed_seats_of_one_minute_between_named_ones_are_each_their_own(tmp_path):
    store = History(tmp_path)
    minute = "2025-03-01T20:15:00+00:00"
    seats = [(None, "BOB", "CY"), ("ANN", None, "CY"), (None, "BOB", "CY")]
    store.add_all((record(id=f"g{n}"), Kept(minute, names)) for n, names in enumerate(seats))
    store.close()
    code, out, err = history("stats", "--state-dir", str(tmp_path), "--json")
    stats = json.loads(out)
    assert code == 0 and err == ""
    assert {"P1 (2025-03-01 20:15)", "P1 (2025-03-01 20:15) #2", "P2 (2025-03-01 20:15)"} < set(
        stats
    )


def test_an_abandoned_game_is_shown_and_never_a_win(tmp_path):
    """A game ended from the menu has a ranking, but nobody won it: the stats count it
    apart, in the games abandoned."""
    store = History(tmp_path)
    store.put(record(target=30, ended=True), names=("Ann", "Bo", "Cy"))
    store.close()
    stats = json.loads(history("stats", "--state-dir", str(tmp_path), "--json")[1])
    assert sorted(stats) == ["Ann", "Bo", "Cy"]
    assert all(s["wins"] == 0 and s["games"] == 0 and s["abandoned"] == 1 for s in stats.values())
    code, out, _ = history("stats", "--state-dir", str(tmp_path))
    head, first = out.splitlines()[:2]
    assert code == 0 and "abandoned" in head.split()
    assert first.split() == ["Ann", "0", "0", "-", "-", "-", "1"]


@pytest.mark.parametrize(
    ("lang", "governor"), [("en", "Governor 1 (+0)"), ("nl", "Gouverneur 1 (+0)")]
)
def test_stats_name_the_cards_in_the_language(tmp_path, lang, governor):
    (tmp_path / "companion.toml").write_text(f'[game]\nlanguage = "{lang}"\n')
    store = History(tmp_path)
    store.put(record(), names=("Ann", "Bo", "Cy"))
    store.close()
    code, out, _ = history(
        "--config", str(tmp_path / "companion.toml"), "stats", "--state-dir", str(tmp_path)
    )
    cy = next(line for line in out.splitlines() if line.startswith("Cy"))
    assert code == 0 and governor in cy and ":" not in cy


def test_a_newer_history_is_refused_with_one_line(tmp_path):
    import sqlite3

    db = sqlite3.connect(tmp_path / "history.sqlite")
    db.execute("PRAGMA user_version = 8")
    db.close()
    code, out, err = history("--state-dir", str(tmp_path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "version 8" in err


def test_a_folder_as_the_import_file_is_one_line(tmp_path):
    (tmp_path / "games").mkdir()
    code, out, err = history("--state-dir", str(tmp_path), "import", str(tmp_path / "games"))
    assert code == 2 and out == ""
    assert err == f"companion history: {tmp_path / 'games'}: cannot read: a folder, not a file\n"


def test_an_import_line_longer_than_the_cap_is_refused_by_its_number(tmp_path):
    good = record().to_json()
    long = '{"players": 3, "note": "' + "x" * (2 * 1024 * 1024) + '"}'
    (tmp_path / "in.jsonl").write_text(f"{good}\n{long}\n{good}\n")
    code, out, err = history("--state-dir", str(tmp_path), "import", str(tmp_path / "in.jsonl"))
    assert code == 2 and out.startswith("1 game added") and "1 already in the history" in out
    first, last = err.splitlines()
    assert first.endswith(": line 2: longer than 1 MB (1048576 bytes), not read")
    assert last.endswith(
        "1 bad line in " + where(tmp_path / "in.jsonl") + " skipped; the good ones are added"
    )


def test_import_into_a_history_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    """A read-only folder: SQLite opens the history but refuses the write. (Root writes
    anywhere, so the refusal is made as SQLite makes it when the tests run as root.)"""
    import os
    import sqlite3

    good = record().to_json()
    (tmp_path / "in.jsonl").write_text(f"{good}\n")
    folder = tmp_path / "s"
    folder.mkdir()
    assert history("--state-dir", str(folder), "import", str(tmp_path / "in.jsonl"))[0] == 0
    (tmp_path / "more.jsonl").write_text(f"{record(target=7).to_json()}\n")
    if os.geteuid() != 0:
        (folder / "history.sqlite").chmod(0o444)
        folder.chmod(0o555)
    else:

        def read_only(self, games):
            raise sqlite3.OperationalError("attempt to write a readonly database")

        monkeypatch.setattr(History, "_add_batch", read_only)
    try:
        code, out, err = history("--state-dir", str(folder), "import", str(tmp_path / "more.jsonl"))
    finally:
        folder.chmod(0o755)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"companion history: history {where(folder / 'history.sqlite')}: ")
    assert "readonly" in err or "read-only" in err or "unable to open" in err


def test_a_state_folder_with_control_characters_is_named_escaped(tmp_path):
    code, out, err = history("--state-dir", str(tmp_path / "no\x1b[2Jwhere"), "import", "-")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err[:-1].isprintable() and "\x1b" not in err and "no\\x1b[2Jwhere" in err


def test_stats_from_the_vp_kept_per_card_are_those_of_a_replay(tmp_path):
    """Each row keeps the cards each seat played and the VP they paid it (found when it
    was written); a row from before either was kept is replayed: the figures are the
    same."""
    store = History(tmp_path, clock=dated(1))
    store.put(record(), names=("Ann", "Bo", None))
    store.put(record(target=7), names=("Bo", "Ann", None))
    kept = history("stats", "--state-dir", str(tmp_path), "--json")[1]
    written = store.connect().execute("SELECT earned, played, game_id FROM games").fetchall()
    # Gone, or not a seat's figures (another program's: no card 9, nor 1.0 or true, which
    # equal 1): the record is read.
    for column, value in [
        ("earned", None),
        ("played", None),
        ("played", "[[[9,1]],[],[]]"),
        ("played", "[[[1.0,2]],[],[]]"),
        ("earned", "[[[true,2]],[],[]]"),
        ("earned", "[[[1,2.5]],[],[]]"),
    ]:
        db = store.connect()
        db.executemany("UPDATE games SET earned = ?, played = ? WHERE game_id = ?", written)
        db.execute(f"UPDATE games SET {column} = ?", (value,))
        store.close()
        code, out, err = history("stats", "--state-dir", str(tmp_path), "--json")
        assert (code, out, err) == (0, kept, ""), (column, value)
    assert json.loads(kept)["Ann"]["cards"]  # figures there to compare
    assert json.loads(kept)["P3 (2025-03-01 20:15)"]["cards"]


def test_a_table_that_kept_nothing_yet_says_so_and_how_to_keep_games(tmp_path):
    """Right after the install (its folder not made yet), `history` is no error: no games
    kept yet, where they will be, how to keep a simulated one; exit 0."""
    folder = tmp_path / "not-made-yet"
    (tmp_path / "companion.toml").write_text(f'[paths]\nstate_dir = "{folder}"\n')
    config = ("--config", str(tmp_path / "companion.toml"))
    for verb in ((), ("stats",)):
        code, out, err = history(*config, *verb)
        assert code == 0 and err == ""
        assert f"No games kept yet in {where(folder)}" in out and "--state-dir" in out
    assert history(*config, "--json")[:2] == (0, "[]\n")
    assert not folder.exists()  # a read command makes nothing
    code, _, err = history("--state-dir", str(tmp_path / "typo"))  # a folder named: a typo
    assert code == 2 and "no such folder" in err


def test_a_game_going_on_is_said_kept_though_the_history_is_empty(tmp_path):
    """A simulated game stopped mid-way is kept in the folder: `history` must not say
    nothing is kept there, only that the game joins the history at its end."""
    from companion.storage.state import StateDir

    StateDir(tmp_path).save(record())
    code, out, err = history("--state-dir", str(tmp_path))
    assert code == 0 and err == ""
    assert out.startswith(f"No games in the history yet: the game kept in {where(tmp_path)}")
