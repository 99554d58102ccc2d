"""The device's table as ``companion run`` builds it, for the tests of its parts: the
one composition, from the device's spec, with a display opener and pins of the test's."""

from __future__ import annotations

from contextlib import ExitStack

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from companion.app.compose import Table, build
from companion.app.device import OpenDevice, device_pins, given_pins
from companion.app.effective import Effective
from companion.app.loop import STOP
from companion.app.notify import SILENT
from companion.cli.run import Machine, machine_spec


def open_table(
    stack: ExitStack,
    found: Effective,
    report,
    *,
    open_display: OpenDevice | None = None,
    factory=None,
) -> Table:
    """``companion run``'s table for ``found``, opened on ``stack``; ``factory``: the pins
    to use (None: the config's ``[gpio] pin_factory``)."""
    pins = device_pins if factory is None else lambda found: given_pins(factory)
    machine = Machine(pins=pins, open_device=open_display, notify=lambda: SILENT)
    return build(machine_spec(found, report, machine), stack)


class Driven:
    """An input of the test's own, beside the table's (the machine's seam for a test, as
    the pads are one): when started it sends ``events``, then asks the loop to stop."""

    def __init__(self, *events):
        self.events = events

    def __call__(self, stack, factory, report):
        return self

    def start(self, put) -> None:
        for event in self.events:
            put(event)
        put(STOP)

    def close(self) -> None:
        pass


def watching(seen: list):
    """A watcher of the test's own: every (view, settings) the table shows, in order."""
    return lambda stack, put, prefs, report: lambda view, prefs: seen.append((view, prefs))


def mock_machine(factory, open_device, *events, seen: list | None = None) -> Machine:
    """``companion run``'s machine with ``factory``'s pins and ``open_device``'s display in
    place of the Pi's, no splash (it sleeps), SIGTERM left alone; ``events`` sent, then
    the loop stopped; each view added to ``seen``."""
    return Machine(
        pins=lambda found: given_pins(factory),
        open_device=open_device,
        splash=0.0,
        signals=False,
        inputs=(Driven(*events),),
        watchers=(watching(seen),) if seen is not None else (),
    )


class MockHardware:
    """MockFactory pins and fake panels in place of the Pi's: ``machine`` plugs them into
    ``companion run``, which sends ``events`` and stops."""

    def __init__(self):
        from gpiozero.pins.mock import MockFactory

        self.factory = MockFactory()
        self.panels: list = []

    def open(self, controller, interface, **options):
        from companion.sim.panel import fake_device

        dev, panel = fake_device(controller, options.get("rotate", 0))
        self.panels.append(panel)
        return dev

    def machine(self, *events, seen=None, open_device=None):
        return mock_machine(self.factory, open_device or self.open, *events, seen=seen)


class NoPwm(Factory):
    """Pins that play no PWM and are not mock pins, as gpiozero's native ones: mock pins
    behind a factory that is no ``MockFactory``."""

    def __init__(self):
        super().__init__()
        self.mock = MockFactory()

    def pin(self, name):
        return self.mock.pin(name)

    def _get_board_info(self):
        return self.mock.board_info
