"""The inputs a table can have: one registry of the pads' sources, which ``[pads]
source`` names (the config's schema offers its names), and the host buttons. Each entry
makes an ``InputSource`` from the config's wiring: a function that opens the part on
the stack and the pin factory it is handed.

A new kind of input (a USB keypad, say) is one module with its part (a ``Source``:
``start(put)``, ``close()``) and one line in ``PADS``. The parts are imported when they
open, so reading the config loads no GPIO or serial library.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the config and the command line read this module: nothing loaded
    from gpiozero.pins import Factory

    from ..table.events import Source

Report = Callable[[str], None]
InputSource = Callable[[ExitStack, "Factory", Report], "Source"]  # one input, not yet started


class PinMap(Protocol):
    @property
    def rows(self) -> Sequence[int]: ...
    @property
    def columns(self) -> Sequence[int]: ...
    @property
    def buttons(self) -> Mapping[str, int]: ...


class PadsWiring(Protocol):
    @property
    def hub(self) -> str: ...
    @property
    def settle_us(self) -> int | str: ...
    @property
    def cable_m(self) -> float: ...
    @property
    def pull_up(self) -> int | str: ...


class Wiring(Protocol):
    """What the inputs need of the config: its pins and ``[pads]``."""

    @property
    def pins(self) -> PinMap: ...
    @property
    def pads(self) -> PadsWiring: ...


def matrix_settle(wiring: Wiring) -> float:
    """Seconds the matrix waits after each row switch: ``[pads] settle_us``, or with
    "auto" 5 RC of a column on a cable a seat (``hw.matrix.settle_time``)."""
    pads = wiring.pads
    if isinstance(pads.settle_us, int):
        return pads.settle_us / 1e6
    from ..hw.matrix import settle_time

    resistor = pads.pull_up if isinstance(pads.pull_up, int) else None  # else "internal"
    return settle_time(len(wiring.pins.rows), pads.cable_m, resistor)


def matrix(wiring: Wiring) -> InputSource:
    """The pads as one diode key matrix on the Pi's own pins."""
    rows, columns = tuple(wiring.pins.rows), tuple(wiring.pins.columns)

    def open_matrix(stack: ExitStack, factory: Factory, report: Report) -> Source:
        from ..hw.matrix import PadMatrix

        settle = matrix_settle(wiring)
        made = PadMatrix(rows, columns, pin_factory=factory, settle=settle)
        return stack.enter_context(made)

    return open_matrix


def hub(wiring: Wiring) -> InputSource:
    """The pads through the Pico pad hub, on the serial port ``[pads] hub`` names."""
    port = wiring.pads.hub

    def open_hub(stack: ExitStack, factory: Factory, report: Report) -> Source:
        from ..hw.hub import HubPads

        return stack.enter_context(HubPads(port, report=report))

    return open_hub


# ``[pads] source`` -> how to make it.
PADS: dict[str, Callable[[Wiring], InputSource]] = {"matrix": matrix, "hub": hub}


def buttons(wiring: Wiring) -> InputSource:
    """The host buttons (◀ OK ▶) on the Pi's pins."""
    pins = dict(wiring.pins.buttons)

    def open_buttons(stack: ExitStack, factory: Factory, report: Report) -> Source:
        from ..hw.buttons import HostButtons

        return stack.enter_context(HostButtons(pins, pin_factory=factory))

    return open_buttons


def table_inputs(wiring: Wiring, source: str) -> tuple[InputSource, ...]:
    """What people press at the table: the pads from ``source`` (a ``PADS`` name), then
    the host buttons."""
    return PADS[source](wiring), buttons(wiring)
