# make test  — create .venv, install, lint, run the tests
# make quick — the tests without the slow ones, no lint: the loop while working (CONTRIBUTING.md)
# make demo  — create .venv, install, play the bundled game on the simulated table
# make appliance-test — install and run the appliance in a Debian VM (docs/appliance-test.md)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: test quick demo lint bench clean flash appliance-test appliance-shell pi-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# One stamp per install flavour: the demo needs only the runtime, the tests need dev tools too.
$(VENV)/.runtime: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.runtime

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The tests keep their compiled modules (and pytest its rewritten tests) between runs, even
# where the environment says not to write bytecode: else every worker compiles it all anew.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

test: lint
	$(PYTEST)

quick: $(VENV)/.dev
	$(PYTEST) -m "not slow"

DEMO := --players 3 --speed 6 --script companion/examples/demo-script.txt

demo: $(VENV)/.runtime
	$(BIN)/companion simulate $(DEMO)

# The README's picture: the demo game as an animated GIF.
docs/demo.gif: $(VENV)/.runtime companion/examples/demo-script.txt
	mkdir -p docs
	$(BIN)/companion simulate $(DEMO) --gif $@ > /dev/null

# The wiring diagrams and hardware/README.md's pin tables, drawn from the pin map.
hardware/wiring.svg hardware/hub-wiring.svg &: companion/data/pins.toml hardware/maker.toml \
		scripts/wiring.py | $(VENV)/.runtime
	$(BIN)/python scripts/wiring.py

# The maker's pack: a pad's build, the DE-9 pinouts, the host box, the buzzer, a key label
# sheet per language, and hardware/README.md's cable table and parts list, from their data.
LABELS := $(patsubst companion/ui/locale/%.json,hardware/labels-%.svg,\
	$(wildcard companion/ui/locale/*.json))

MAKER := hardware/pad.svg hardware/de9.svg hardware/host-box.svg hardware/buzzer.svg

$(MAKER) $(LABELS) &: hardware/maker.toml hardware/bom.csv companion/data/pins.toml \
		$(wildcard companion/ui/locale/*.json) scripts/maker.py \
		scripts/wiring.py | $(VENV)/.runtime
	$(BIN)/python scripts/maker.py

bench: $(VENV)/.runtime
	$(BIN)/companion bench
	$(BIN)/python scripts/bench_replay.py

# The Pico hub's pins, as its firmware reads them: [hub] of the one pin map.
firmware/pins.json: companion/data/pins.toml
	$(PYTHON) -c 'import json, sys, tomllib; \
	print(json.dumps(tomllib.load(open(sys.argv[1], "rb"))["hub"]))' $< > $@

# Copy the firmware onto a Pico that runs MicroPython (firmware/README.md).
FIRMWARE := $(wildcard firmware/*.py) firmware/pins.json

$(VENV)/.flash: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[flash]'
	touch $@

flash: $(VENV)/.flash $(FIRMWARE)
	$(BIN)/mpremote cp $(FIRMWARE) :
	$(BIN)/mpremote reset

# The appliance's life on a real Linux in QEMU: install.sh, the service, the hub's firmware,
# power cuts (docs/appliance-test.md). Not part of `make test`; .ci/run runs both. It
# installs what it needs from Debian's packages (appliance/host-tools.sh: root, or sudo).
appliance-test: $(VENV)/.dev
	appliance/host-tools.sh
	$(BIN)/python appliance/run.py

# Boot the last run's guest with its console here, to log in and look around.
appliance-shell: $(VENV)/.dev
	appliance/host-tools.sh
	$(BIN)/python appliance/run.py --shell

# The companion on an emulated Raspberry Pi 3 B (Debian's arm64 kernel, QEMU 10's raspi3b):
# lgpio, the I²C display byte for byte, the hub over USB serial, a whole game (docs/pi-test.md).
# Not part of `make test`; .ci/run runs it. QEMU 10 and the guest are cached in
# /var/cache/santo-domingo/pi (appliance/pi/host-tools.sh: root, or sudo for apt-get).
pi-test: $(VENV)/.dev
	appliance/pi/host-tools.sh > /dev/null
	$(BIN)/python appliance/pi/run.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
