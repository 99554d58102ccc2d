"""``[pads] settle_us``, ``cable_m`` and ``pull_up``: what the matrix waits after each row
switch, from the config file; a wrong value is one line and exit status 2."""

from __future__ import annotations

import pytest

from companion.app import config
from companion.app.inputs import matrix_settle
from companion.cli import main
from companion.errors import where
from companion.hw.matrix import settle_time


def load(tmp_path, body: str) -> config.Config:
    path = tmp_path / "companion.toml"
    path.write_text(f"[pads]\n{body}\n")
    return config.load(path)


@pytest.mark.parametrize(
    ("body", "settle"),
    [
        ("settle_us = 40", 40e-6),
        ("settle_us = 0", 0.0),
        ("cable_m = 1.5", settle_time(6, 1.5)),
        ("pull_up = 4700", settle_time(6, 3.0, 4700)),
        ("cable_m = 10\npull_up = 10000", settle_time(6, 10, 10_000)),
        ("settle_us = 40\ncable_m = 10", 40e-6),  # a number is used as it is
    ],
)
def test_the_settle_time_the_config_gives(tmp_path, body, settle):
    assert matrix_settle(load(tmp_path, body)) == pytest.approx(settle)


def test_auto_grows_with_the_cables_and_shrinks_with_external_pull_ups(tmp_path):
    assert settle_time(2, 3.0) < settle_time(6, 3.0) < settle_time(6, 5.0)
    assert settle_time(6, 3.0, 2200) < settle_time(6, 3.0, 4700) < settle_time(6, 3.0)
    assert settle_time(6, 0) > 0  # the pins and diodes alone still take a moment
    path = tmp_path / "three.toml"
    path.write_text("[pins]\nrows = [5, 6, 13]\n")  # three seats wired: three cables
    assert matrix_settle(config.load(path)) == settle_time(3, 3.0)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("settle_us = -1", 'not "auto" nor a whole number of microseconds in 0..5000 (got -1)'),
        ("settle_us = 6000", 'not "auto" nor a whole number of microseconds in 0..5000 (got 6000)'),
        (
            'settle_us = "fast"',
            'not "auto" nor a whole number of microseconds in 0..5000 (got "fast")',
        ),
        ("settle_us = 1.5", 'not "auto" nor a whole number of microseconds in 0..5000 (got 1.5)'),
        ("settle_us = true", 'not "auto" nor a whole number of microseconds in 0..5000 (got true)'),
        ("cable_m = -1", "not in 0..10 metres (got -1)"),
        ("cable_m = 11", "not in 0..10 metres (got 11)"),
        ("cable_m = nan", "not in 0..10 metres (got nan)"),
        ('cable_m = "3 m"', 'not a number of metres (got "3 m")'),
        ("pull_up = 100", 'not "internal" nor a whole number of ohms in 1000..100000 (got 100)'),
        (
            'pull_up = "none"',
            'not "internal" nor a whole number of ohms in 1000..100000 (got "none")',
        ),
    ],
)
def test_a_wrong_value_is_one_line_and_exit_2(tmp_path, capsys, body, why):
    path = tmp_path / "companion.toml"
    path.write_text(f"[pads]\n{body}\n")
    key = body.split(" =")[0]
    with pytest.raises(config.ConfigError) as caught:
        config.load(path)
    assert str(caught.value) == f"{where(path)}: [pads] {key}: {why}"
    assert main(["config", "show", "--config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"companion config show: {caught.value}"] and out == ""
