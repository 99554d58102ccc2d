"""The sounds as data (data/sounds.toml), and the Beeper playing them on gpiozero's mock
pins: a passive buzzer's PWM pin sees each note's pitch and duty cycle in order, an
active buzzer's pin the rhythm. No test sleeps: the player's waits are handed in."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from companion.hw.buttons import PASSIVE_DUTY, Beeper, WiringError
from companion.hw.sounds import (
    CLICK_MS,
    LONGEST_MS,
    NAMES,
    SoundsError,
    load_sounds,
    packaged_sounds,
)
from companion.table.effects import Sound

PIN = 18


class LoggingPin(MockPWMPin):
    """A mock PWM pin that logs each frequency and duty cycle it is set to, in order."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.log: list[tuple[str, float | None]] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.log.append(("hz", value))

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            self.log.append(("duty", value))
        return changed


class Waits:
    """The player's waits, recorded and returned from at once (not stopped)."""

    def __init__(self):
        self.seconds: list[float] = []

    def __call__(self, stop: threading.Event, seconds: float) -> bool:
        self.seconds.append(seconds)
        return stop.is_set()


@pytest.fixture
def factory():
    made = MockFactory(pin_class=LoggingPin)
    yield made
    made.reset()


def passive(factory, volume: int = 5, **options) -> tuple[Beeper, LoggingPin, Waits]:
    waits = Waits()
    beeper = Beeper(PIN, kind="passive", volume=volume, pin_factory=factory, wait=waits, **options)
    pin = factory.pin(PIN)
    pin.log.clear()  # what setting the device up did
    return beeper, pin, waits


def played(beeper: Beeper, name: str) -> None:
    beeper.beep(name)
    assert beeper.wait_quiet(timeout=10)


# --- the packaged sounds ---------------------------------------------------------------


def test_every_sound_the_table_makes_is_there_short_and_distinct():
    sounds = packaged_sounds()
    assert set(sounds.notes) == set(NAMES)
    assert {sound.value for sound in Sound} <= set(NAMES)
    lengths = {name: sum(note.ms for note in notes) for name, notes in sounds.notes.items()}
    assert lengths["click"] < CLICK_MS and max(lengths.values()) < LONGEST_MS
    assert len(set(sounds.notes.values())) == len(NAMES)  # as notes, on a passive buzzer
    assert len({sounds.rhythm(name) for name in NAMES}) == len(NAMES)  # as rhythms


SOUNDS = """[sounds]
click = [["E7", 12]]
locked = [["C7", 40], ["rest", 20], ["G7", 60]]
refused = [[1046.5, 90], ["rest", 50], ["C6", 90]]
reveal = [["C7", 45], ["C8", 120]]
trade = [["G7", 60], ["rest", 40], ["E7", 120]]
"""


def test_a_note_is_a_name_or_hertz():
    sounds = load_sounds(SOUNDS)
    assert sounds.notes["refused"][0].hz == 1046.5
    assert sounds.notes["refused"][2].hz == pytest.approx(Tone("C6").frequency)
    assert sounds.notes["locked"][1].hz is None
    assert sounds.rhythm("locked") == ((True, 40), (False, 20), (True, 60))
    assert sounds.rhythm("reveal") == ((True, 165),)  # no rest: one beep when active


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("trade =", "clack =", "[sounds] clack: not a sound the table makes (click, locked"),
        ('trade = [["G7", 60], ["rest", 40], ["E7", 120]]', "", "[sounds] trade: missing"),
        ('"E7", 12', '"E7", 30', "[sounds] click: 30 ms long, not under 30 ms"),
        ('["E7", 120]', '["E7", 300]', "[sounds] trade: 400 ms long, not under 400 ms"),
        ('"C7", 40', '"H7", 40', "[sounds] locked[0]: 'H7' is no pitch: a note name"),
        ('"C7", 40', '"C7x", 40', "[sounds] locked[0]: 'C7x' is no pitch"),
        ('"C7", 40', "5, 40", "[sounds] locked[0]: 5 is no pitch"),
        ('["C7", 40]', '["C7"]', "[sounds] locked[0]: not a note [pitch, ms]"),
        ('"C7", 40', '"C7", 4.5', "[sounds] locked[0]: the length is not a whole number"),
        ('[["C7", 45], ["C8", 120]]', "[]", "[sounds] reveal: not a list of notes"),
        ('[["E7", 12]]', '[["rest", 12], ["E7", 5]]', "[sounds] click: begins or ends with"),
        ("[sounds]", "[volume]\nduty = 0.5\n[sounds]", "[volume]: unknown section (known: sounds)"),
        ("[sounds]", "[sounds", "not valid TOML"),
    ],
)
def test_a_bad_sounds_file_is_one_line_naming_the_key(old, new, words):
    assert old in SOUNDS
    with pytest.raises(SoundsError) as caught:
        load_sounds(SOUNDS.replace(old, new, 1), "mine.toml")
    message = str(caught.value)
    assert message.startswith("mine.toml: ") and words in message and "\n" not in message


# --- a passive buzzer: pitches at half duty, and no volume that would do nothing --------


def test_a_passive_buzzer_plays_the_notes_in_order(factory):
    beeper, pin, waits = passive(factory, volume=7)
    played(beeper, "locked")
    loud = PASSIVE_DUTY
    c7, g7 = Tone("C7").frequency, Tone("G7").frequency
    assert pin.log == [
        ("hz", c7),
        ("duty", loud),
        ("duty", 0.0),  # the rest
        ("hz", g7),
        ("duty", loud),
        ("duty", 0.0),  # and silent after
    ]
    assert waits.seconds == [0.04, 0.02, 0.06]
    beeper.close()


def test_a_passive_buzzer_plays_at_half_duty_whatever_the_volume(factory):
    """Its volume steps were PWM pulses of 2.5 to 40 µs, which lgpio's software-timed PWM
    cannot hold: they did nothing. It plays each pitch at half duty, and offers no volume."""
    beeper, pin, _ = passive(factory)
    duties = []
    for level in (1, 4, 10):
        beeper.set_volume(level)
        pin.log.clear()
        played(beeper, "click")
        duties.append(pin.log[1])
    assert duties == [("duty", 0.5)] * 3 and PASSIVE_DUTY == 0.5
    assert not beeper.has_volume
    for wrong in (0, 11, 2.5, None):
        with pytest.raises(ValueError, match=r"^volume is 1\.\.10, not "):
            beeper.set_volume(wrong)
    beeper.close()


# --- an active buzzer: the rhythm ---------------------------------------------------------


def test_an_active_buzzer_plays_the_rhythm(factory):
    waits = Waits()
    beeper = Beeper(PIN, kind="active", volume=5, pin_factory=factory, wait=waits)
    pin = factory.pin(PIN)
    pin.clear_states()
    played(beeper, "refused")
    assert [state.state for state in pin.states] == [False, True, False, True, False]
    assert waits.seconds == [0.09, 0.05, 0.09]
    assert not beeper.has_volume
    beeper.close()


# --- on, off, and playing without holding up the table --------------------------------------


def test_sound_off_is_silent_and_on_again_plays(factory):
    beeper, pin, waits = passive(factory)
    beeper.set_on(False)
    beeper.beep("reveal")
    assert beeper.wait_quiet(timeout=10)
    assert pin.log == [] and waits.seconds == [] and beeper.count == 1
    beeper.set_on(True)
    played(beeper, "click")
    assert pin.log[0] == ("hz", Tone("E7").frequency)
    beeper.close()


def test_a_new_sound_cuts_the_one_playing(factory):
    """The first sound waits for as long as it is let: until the next one stops it."""
    started, waits = threading.Event(), Waits()

    def first_waits_forever(stop: threading.Event, seconds: float) -> bool:
        if not started.is_set():  # the first note: no clock, only a stop ends it
            started.set()
            return stop.wait()
        return waits(stop, seconds)

    beeper = Beeper(PIN, kind="passive", volume=5, pin_factory=factory, wait=first_waits_forever)
    pin = factory.pin(PIN)
    pin.log.clear()
    beeper.beep("reveal")
    assert started.wait(timeout=10)
    played(beeper, "click")
    hz = [value for what, value in pin.log if what == "hz"]
    assert hz == [Tone("C7").frequency, Tone("E7").frequency]  # reveal's first note, then click
    assert pin.log[-1] == ("duty", 0.0)
    assert waits.seconds == [note.ms / 1000 for note in beeper.sounds.notes["click"]]
    beeper.close()


def test_no_thread_is_left_once_a_sound_ends(factory):
    before = set(threading.enumerate())
    beeper, _, _ = passive(factory)
    played(beeper, "trade")
    assert set(threading.enumerate()) - before == set()
    beeper.close()
    beeper.close()


def test_an_unknown_sound_or_kind_is_refused(factory):
    beeper, pin, _ = passive(factory)
    with pytest.raises(ValueError, match=r"^no sound 'klaxon' \(known: click, "):
        beeper.beep("klaxon")
    assert beeper.count == 0 and pin.log == []
    beeper.close()
    with pytest.raises(WiringError, match=r"^buzzer: no kind 'loud' \(known: active, passive\)$"):
        Beeper(PIN, kind="loud", volume=5, pin_factory=factory)
