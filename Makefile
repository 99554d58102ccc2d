# make test  — create .venv, install, lint, run the tests
# make demo  — create .venv, install, replay the bundled example game with narration
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: test demo lint bench clean

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

test: lint
	$(BIN)/python -m pytest

demo: $(VENV)/.runtime
	$(BIN)/companion replay companion/examples/demo-game.json

bench: $(VENV)/.runtime
	$(BIN)/companion bench
	$(BIN)/python scripts/bench_replay.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
