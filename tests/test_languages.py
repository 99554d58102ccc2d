"""Every language says everything English says, with the rulebooks' own words.

The catalogs are checked as files (a missing key would otherwise fall back to English
unnoticed), then the narration of whole games in each language, then the command line.
The card names below are the printed rulebooks' words: docs/languages.md lists where.
"""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import model_game, simulate

from companion.cli import main
from companion.cli.replay import replay_command
from companion.game.boards import profile
from companion.game.narrate import narrate_game
from companion.game.record import GameRecord
from companion.ui import catalog as catalogs
from companion.ui.catalog import catalog, language_names, languages

LOCALE = Path(catalogs.__file__).parent / "locale"
DEMO = Path(catalogs.__file__).parent.parent / "examples" / "demo-game.json"
OTHERS = [lang for lang in languages() if lang != "en"]

CARDS = {
    "en": ["Captain", "Admiral", "Governor", "Frigate", "Galleon", "Customs", "Trader", "Beggar"],
    "nl": [
        "Kapitein",
        "Admiraal",
        "Gouverneur",
        "Fregat",
        "Galjoen",
        "Douane",
        "Handelaar",
        "Bedelaar",
    ],
    "fr": [
        "Capitaine",
        "Amiral",
        "Gouverneur",
        "Frégate",
        "Galion",
        "Douanier",
        "Marchand",
        "Mendiant",
    ],
}
ROWS = {
    "nl": ["overwinningspuntenrij", "goederenrij", "handelarenrij"],
    "fr": ["piste des points de victoire", "piste des marchandises", "piste des échanges"],
}
# Words of the English narration that no other language's narration may contain.
ENGLISH = [
    "VP",
    "goods",
    "Round",
    "Supply",
    "Reveal",
    "Discard",
    "Ranking",
    "cards",
    "row",
    "Winner",
]


def raw(lang: str) -> dict[str, str]:
    """The catalog file itself, without the English fallback ``catalog()`` merges in."""
    return json.loads((LOCALE / f"{lang}.json").read_text("utf-8"))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_three_rulebook_languages_are_shipped():
    assert {"en", "nl", "fr"} <= set(languages())


@pytest.mark.parametrize("lang", OTHERS)
def test_a_language_has_exactly_the_english_keys(lang):
    english, words = set(raw("en")), set(raw(lang))
    assert not english - words, f"{lang}.json lacks {sorted(english - words)}"
    assert not words - english, f"{lang}.json has keys English lacks: {sorted(words - english)}"


@pytest.mark.parametrize("lang", languages())
def test_every_value_is_a_filled_string(lang):
    empty = [k for k, v in raw(lang).items() if not isinstance(v, str) or not v.strip()]
    assert not empty, f"{lang}.json: empty {empty}"


@pytest.mark.parametrize("lang", OTHERS)
def test_each_message_keeps_the_english_placeholders(lang):
    english = raw("en")
    wrong = {
        key: (sorted(placeholders(english[key])), sorted(placeholders(text)))
        for key, text in raw(lang).items()
        if key in english and placeholders(text) != placeholders(english[key])
    }
    assert not wrong, f"{lang}.json: {wrong}"


@pytest.mark.parametrize("lang", OTHERS)
def test_screens_get_no_glyph_beyond_latin_1_that_english_does_not_use(lang):
    """The panel's font has Latin-1 glyphs: a translation may use é or ë, but a sign
    outside Latin-1 (a typographic apostrophe, an ellipsis) only where English has it."""
    english = raw("en")
    odd = {
        key: sorted(c for c in set(text) if ord(c) > 0xFF and c not in english[key])
        for key, text in raw(lang).items()
    }
    assert not {k: v for k, v in odd.items() if v}, lang


@pytest.mark.parametrize("lang", ["nl", "fr"])
def test_cards_are_named_as_in_the_rulebook(lang):
    words = catalog(lang)
    assert [words.card(c) for c in range(1, 9)] == CARDS[lang]
    assert [words.t(f"row.{r}") for r in ("vp", "goods", "trader")] == ROWS[lang]


def narration(lang: str, record: GameRecord) -> str:
    return "\n".join(narrate_game(record, catalog(lang)))


def whole_games() -> list[GameRecord]:
    demo = GameRecord.from_dict(json.loads(DEMO.read_text()))
    rng = random.Random(7)
    played = [model_game(rng, n, profile("winter"), 30)[0] for n in (2, 4, 6)]
    return [demo, *played]


GAMES = whole_games()


@pytest.mark.parametrize("lang", ["nl", "fr"])
def test_a_whole_game_is_narrated_in_the_rulebooks_words(lang):
    text = "\n".join(narration(lang, record) for record in GAMES)
    for name in CARDS[lang] + ROWS[lang]:
        assert name in text, f"{lang}: {name!r} never named"
    for word in CARDS["en"] + ENGLISH:
        found = re.search(rf"\b{word}\b", text)
        assert not found, (
            f"{lang}: English {word!r} in {text[found.start() - 40 : found.end() + 40]!r}"
        )


@pytest.mark.parametrize("lang", ["nl", "fr"])
def test_seats_are_labelled_for_the_table(lang):
    label = {"nl": "S", "fr": "J"}[lang]  # speler, joueur
    words = catalog(lang)
    assert [words.seat(s) for s in range(6)] == [f"{label}{n}" for n in range(1, 7)]
    assert not re.search(r"\bP[1-6]\b", narration(lang, GAMES[0]))


def test_the_narration_changes_language_and_the_json_does_not():
    outputs = {}
    for lang in languages():
        for as_json in (False, True):
            out, err = _replay_text(as_json, lang)
            assert not err
            outputs[lang, as_json] = out
    assert len({outputs[lang, True] for lang in languages()}) == 1
    assert len({outputs[lang, False] for lang in languages()}) == len(languages())


def _replay_text(as_json: bool, lang: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert replay_command(str(DEMO), as_json=as_json, out=out, err=err, jobs=1, lang=lang) == 0
    return out.getvalue(), err.getvalue()


def test_replay_lang_fr_from_the_command_line():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(DEMO), "--lang", "fr"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("Santo Domingo : 3 joueurs, version Standard")
    assert "\nManche 1\n" in proc.stdout and "J1 Capitaine, Marchand" in proc.stdout
    assert "Classement :" in proc.stdout


def test_a_json_lines_batch_is_narrated_in_the_language_too(tmp_path):
    batch = tmp_path / "games.jsonl"
    batch.write_text("\n".join(record.to_json() for record in GAMES) + "\n")
    assert main(["replay", str(batch), "--lang", "nl", "--jobs", "1"]) == 0


@pytest.mark.parametrize("command", [["replay", str(DEMO)], ["simulate", "--players", "3"]])
def test_an_unknown_language_exits_2_with_one_line(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--lang", "xx"])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "no language 'xx' (known: " + ", ".join(languages()) + ")" in err


@pytest.mark.slow
def test_simulate_narrates_the_ending_in_its_language():
    script = DEMO.with_name("demo-script.txt")
    code, out, err = simulate("--players", "3", "--fast", "--script", str(script), "--lang", "fr")
    assert code == 0, err
    assert "Fin de la partie après la manche 9" in out and "Classement :" in out
    assert "Vainqueur : J1" in out and "Winner" not in out


def test_each_language_is_named_in_itself():
    names = language_names()
    assert names["en"] == "English" and names["nl"] == "Nederlands" and names["fr"] == "Français"
    assert list(names) == languages()


def test_a_language_is_one_catalog_file(tmp_path, monkeypatch, capsys):
    """A new file in the locale folder is a new language everywhere: listed, loaded, and
    accepted by --lang; the words it lacks fall back to English."""
    folder = tmp_path / "locale"
    shutil.copytree(LOCALE, folder)
    (folder / "eo.json").write_text(
        json.dumps({"language": "Esperanto", "narrate.round": "Rondo {n}"}), "utf-8"
    )
    monkeypatch.setattr(catalogs, "LOCALE", folder)
    catalog.cache_clear()
    try:
        assert languages() == sorted([*[p.stem for p in LOCALE.glob("*.json")], "eo"])
        assert language_names()["eo"] == "Esperanto"
        assert main(["replay", str(DEMO), "--lang", "eo"]) == 0
        out = capsys.readouterr().out
        assert "\nRondo 1\n" in out and "Captain" in out
    finally:
        catalog.cache_clear()


@pytest.mark.parametrize("lang", languages())
def test_every_message_fills_in_with_any_count(lang):
    words = catalog(lang)
    for key, text in raw(lang).items():
        for n in (0, 1, 2, 15):
            words.t(key, **dict.fromkeys(placeholders(text), n))  # a bad form spec raises


@pytest.mark.parametrize(
    ("lang", "wrong"),
    [
        ("nl", r"\b1 (goederen|kaarten|handkaarten)\b"),
        ("fr", r"\b[01] (marchandises|cartes)\b"),  # French counts 0 and 1 in the singular
    ],
)
def test_counts_take_the_languages_singular(lang, wrong):
    text = "\n".join(narration(lang, record) for record in GAMES)
    singular = {"nl": "1 goed,", "fr": "1 marchandise,"}[lang]
    assert singular in text and not re.search(wrong, text), re.search(wrong, text)
    assert (
        catalog(lang).t("screen.resume_game", players=4, n=1)
        == {"nl": "4 spelers, 1 ronde", "fr": "4 joueurs, 1 manche"}[lang]
    )
