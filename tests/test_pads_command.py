"""``companion pads``: the pads and host buttons of the config, on its pin factory, every
key event printed as it comes. Here the factory is "mock" from the config file, and the
keys are pressed through a simulated diode matrix wired on that same factory."""

from __future__ import annotations

import errno
import io
import sys
import threading

import pytest
import serial
from devices import NoPwm

from companion.app.config import shipped_pins
from companion.cli import main, pads
from companion.cli.pads import pads_command
from companion.errors import where
from companion.hw import hub
from companion.sim.matrix import SimulatedMatrix

WAIT = 10  # seconds: only a hang takes this long


class Lines(io.StringIO):
    """Output that can be waited on, line by line, as the command writes it."""

    def __init__(self):
        super().__init__()
        self._changed = threading.Condition()

    def write(self, text: str) -> int:
        with self._changed:
            written = super().write(text)
            self._changed.notify_all()
        return written

    def wait_for(self, line: str) -> None:
        with self._changed:
            found = self._changed.wait_for(lambda: line in self.getvalue().splitlines(), WAIT)
        assert found, f"never printed {line!r}: {self.getvalue()!r}"


class Bench:
    """The command on a thread, and hands on the same pins."""

    def __init__(self, config, count: int):
        self.out, self.err = Lines(), io.StringIO()
        self.pins = shipped_pins()
        self.wired = threading.Event()
        self.code: int | None = None
        self._thread = threading.Thread(target=self._run, args=(config, count), daemon=True)
        self._thread.start()

    def _run(self, config, count: int) -> None:
        self.code = pads_command(
            str(config), count=count, out=self.out, err=self.err, wire=self._wire
        )

    def _wire(self, factory) -> None:
        """The pads' diode matrix and the buzzer's pin, on the factory the config made."""
        self.factory = factory
        self.matrix = SimulatedMatrix(factory, self.pins.rows, self.pins.columns)
        self.buzzer = factory.pin(self.pins.buzzer)
        self.wired.set()

    def button(self, name: str):
        return self.factory.pin(self.pins.buttons[name])

    def finish(self) -> int | None:
        self._thread.join(WAIT)
        assert not self._thread.is_alive(), "the command did not end after its count"
        return self.code


@pytest.fixture
def mock_config(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\npin_factory = "mock"\n[paths]\nstate_dir = "."\n')
    return path


def test_every_key_event_is_one_line_and_each_press_beeps(mock_config):
    bench = Bench(mock_config, count=6)
    bench.out.wait_for(
        "Press each key of every pad, then ◀ OK ▶: every press and release shows here. Ctrl-C ends."
    )
    bench.matrix.press(1, 5)
    bench.out.wait_for("P2 card 5 (Galleon) down")
    bench.matrix.release(1, 5)
    bench.out.wait_for("P2 card 5 (Galleon) up")
    bench.button("ok").drive_low()
    bench.out.wait_for("OK down")
    bench.button("ok").drive_high()
    bench.matrix.press(5, 8)  # the last seat's last card: the whole matrix is scanned
    bench.out.wait_for("P6 card 8 (Beggar) down")
    bench.matrix.release(5, 8)
    assert bench.finish() == 0
    assert bench.out.getvalue().splitlines()[1:] == [
        "P2 card 5 (Galleon) down",
        "P2 card 5 (Galleon) up",
        "OK down",
        "OK up",
        "P6 card 8 (Beggar) down",
        "P6 card 8 (Beggar) up",
    ]
    assert bench.err.getvalue() == (
        "companion pads: the pins are gpiozero's mock pins: "
        "no button or pad on them can be pressed\n"
    )
    # Each press sounded the buzzer (an active one: on, then off), and it is off at the end.
    assert [state.state for state in bench.buzzer.states].count(True) == 3
    assert bench.buzzer.state is False


def test_card_names_come_from_the_catalog(mock_config):
    mock_config.write_text(mock_config.read_text() + '[game]\nlanguage = "fr"\n')
    bench = Bench(mock_config, count=2)
    assert bench.wired.wait(WAIT)
    bench.out.wait_for(
        "Appuyez sur chaque touche de chaque pavé, puis ◀ OK ▶ : chaque appui et chaque "
        "relâchement s'affiche ici. Ctrl-C termine."
    )
    bench.matrix.press(0, 6)
    bench.out.wait_for("J1 touche 6 (Douanier) enfoncée")
    bench.button("left").drive_low()
    assert bench.finish() == 0
    assert bench.out.getvalue().splitlines()[2] == "touche ◀ enfoncée"


def test_no_pins_is_one_line_and_exit_3(tmp_path, monkeypatch, capsys):
    """As on a machine without GPIO: the configured backend's library is not there. The
    hardware is not here: 3, as `companion run` says it."""
    monkeypatch.setitem(sys.modules, "lgpio", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\npin_factory = "lgpio"\n[paths]\nstate_dir = "."\n')
    assert main(["pads", "--config", str(path), "--count", "1"]) == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f'companion pads: {where(path)}: [gpio] pin_factory = "lgpio": lgpio is not installed: '
        "sudo apt install python3-lgpio, or pip install 'santo-domingo-companion[pi]'\n"
    )


def test_a_pin_another_program_holds_is_one_line(mock_config):
    """The service still running holds the pins; the command says so and stops."""
    holders = []

    def held(factory) -> None:
        from gpiozero import DigitalInputDevice

        holders.append(DigitalInputDevice(shipped_pins().rows[0], pin_factory=factory))

    err, code = io.StringIO(), []

    def run() -> None:
        code.append(pads_command(str(mock_config), count=1, out=io.StringIO(), err=err, wire=held))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT)  # had the pins opened, it would wait for a key forever
    assert code == [3]  # the hardware is not here now: as `companion run` says it
    last = err.getvalue().splitlines()[-1]
    assert last.startswith("companion pads: cannot open the pins (GPIOPinInUse: ")
    assert last.endswith("is the companion service running? sudo systemctl stop companion")


def test_a_config_mistake_is_one_line(tmp_path, capsys):
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\npin_factory = "lgpoi"\n')
    assert main(["pads", "--config", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"companion pads: {where(path)}: [gpio] pin_factory: not one of auto, lgpio, rpigpio, "
        'native, mock (did you mean lgpio?) (got "lgpoi")\n'
    )


def test_a_passive_buzzer_on_pins_without_pwm_is_a_wiring_mistake(tmp_path, monkeypatch, capsys):
    """Said as what it is, not as pins another program holds."""
    factory = NoPwm()
    monkeypatch.setattr(pads, "device_pins", lambda found: lambda stack, report: factory)
    path = tmp_path / "companion.toml"
    path.write_text('[sound]\nbuzzer = "passive"\n[paths]\nstate_dir = "."\n')
    assert main(["pads", "--config", str(path)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "companion pads: buzzer: a passive buzzer needs PWM on GPIO 18, which NoPwm's pins "
        'do not play; set [sound] buzzer = "active" or [gpio] pin_factory = "lgpio"'
    )
    factory.mock.reset()


@pytest.mark.parametrize("count", ["0", "many"])
def test_the_count_is_a_whole_number_from_1(count, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["pads", "--count", count])
    assert stopped.value.code == 2
    assert "--count: the count is a whole number 1..1000000" in capsys.readouterr().err


def test_a_stuck_key_is_named_for_the_maker():
    from companion.cli.pads import describe
    from companion.table.events import KeyStuck
    from companion.ui.catalog import catalog

    said = describe(KeyStuck(1, 5), catalog("en"))
    assert said == "P2 card 5 (Galleon) stuck: held 10 s, ignored until it comes up"


def test_a_hub_port_that_stays_refused_is_one_line_and_exit_2(tmp_path, monkeypatch):
    """A maker not in the dialout group: the hub's port refuses them (EACCES) until they
    are, so the command says so and ends; never a retry for ever or a thread's traceback."""
    path = tmp_path / "companion.toml"
    path.write_text(
        '[gpio]\npin_factory = "mock"\n[paths]\nstate_dir = "."\n'
        '[pads]\nsource = "hub"\nhub = "/dev/santo-domingo-hub"\n'
    )

    def refused(url: str, **options):
        raise serial.SerialException(errno.EACCES, f"could not open port {url}: refused")

    monkeypatch.setattr(serial, "serial_for_url", refused)
    monkeypatch.setattr(hub, "REFUSED_FOR", 0.0)  # refused from the first try
    dying: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: dying.append(args.exc_value))
    out, err = Lines(), io.StringIO()
    assert pads_command(str(path), count=None, out=out, err=err) == 2
    assert err.getvalue().splitlines(keepends=True)[-2:] == [
        "companion pads: pad hub: cannot open /dev/santo-domingo-hub (Permission denied):"
        " trying again each second\n",
        "companion pads: the pad hub's port /dev/santo-domingo-hub has refused us for 0 s"
        " (Permission denied): is this user in the dialout group? sudo usermod -aG dialout"
        " $USER, then log in again\n",
    ]
    assert dying == []  # the thread's end is the line above, not a traceback
