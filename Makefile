# The two commands of the README: `make run` (the main job) and `make test` (the whole suite).
PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest golden bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/partygames serve

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadgroup

golden: $(STAMP)
	$(BIN)/python -m partygames.engine.golden --update

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
