"""``[pads]`` in the config and the one seam: the device opens ``HubPads`` on the
configured port instead of the matrix, and a key pressed on the hub reaches the app."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from devices import open_table
from gpiozero.pins.mock import MockFactory
from hubfake import FakeHub, PtyWire, Seen

from companion.app import config
from companion.app.effective import effective
from companion.errors import where
from companion.hw.hub import HubPads
from companion.hw.matrix import PadMatrix
from companion.sim.panel import fake_device
from companion.table.events import PadDown


def write(tmp_path, text: str):
    path = tmp_path / "companion.toml"
    path.write_text(text + '[paths]\nstate_dir = "."\n')
    return path


def test_pads_default_to_the_matrix_and_the_udev_name():
    pads = config.defaults().pads
    assert (pads.source, pads.hub) == ("matrix", "/dev/santo-domingo-hub")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[pads]\nsource = "usb"\n', "[pads] source: not one of matrix, hub"),
        ("[pads]\nhub = 3\n", "[pads] hub: not text in quotes"),
        ('[pads]\nhub = ""\n', "[pads] hub: empty"),
        ('[pads]\nsorce = "hub"\n', "[pads] sorce: unknown key (did you mean source?)"),
    ],
)
def test_a_wrong_pads_value_is_one_line_naming_the_key(tmp_path, text, why):
    path = write(tmp_path, text)
    with pytest.raises(config.ConfigError) as e:
        config.load(path)
    assert str(e.value).startswith(f"{where(path)}: {why}")


@pytest.fixture
def device():
    """Mock pins and a fake SSD1309 in place of the Pi's: what ``open`` takes."""
    factory = MockFactory()
    parts = dict(factory=factory, open_display=lambda *a, **k: fake_device("ssd1309")[0])
    yield parts
    factory.reset()


def test_the_device_reads_the_pads_through_the_hub_the_config_names(tmp_path, device):
    seen = Seen()
    wire = PtyWire(tmp_path / "santo-domingo-hub")
    hub = FakeHub(wire, seen)
    found = effective(
        write(tmp_path, f'[pads]\nsource = "hub"\nhub = "{wire.url}"\n'), report=seen.report
    )
    try:
        with ExitStack() as stack:
            table = open_table(stack, found, seen.report, **device)
            pads = table.inputs[0]
            assert isinstance(pads, HubPads) and pads.url == wire.url
            assert pads.wait_ready(10)
            hub.send("down 2 7")
            event = table.app.events.get(timeout=10)
            assert event == PadDown(1, 7)
    finally:
        hub.close()


def test_the_device_keeps_the_matrix_by_default(tmp_path, device):
    found = effective(write(tmp_path, ""), report=lambda message: None)
    with ExitStack() as stack:
        table = open_table(stack, found, lambda message: None, **device)
        assert isinstance(table.inputs[0], PadMatrix)
