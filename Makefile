# The two commands of the README: `make run` (the main job) and `make test` (the whole suite).
PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Which extras the venv gets: `dev` is everything the suite needs; CI adds `rllib` (PyTorch's CPU wheel
# lies on its disk), so the RLlib example's test runs there instead of being skipped.
EXTRAS ?= dev
# npm writes this with every install: newer than the lock file means node_modules is current.
NODE_STAMP := node_modules/.package-lock.json

.PHONY: run test lint typecheck eslint pytest golden bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/partygames serve

test: $(STAMP) lint pytest

# Every static check: ruff, mypy and ESLint (the web client's JavaScript).
lint: $(STAMP) typecheck eslint
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

$(NODE_STAMP): package.json package-lock.json
	npm ci --prefer-offline --no-audit --no-fund

# Without Node.js, ESLint is skipped with a message; in CI (CI set, and not 0 or false) it is required.
eslint:
	@if command -v node >/dev/null 2>&1 && command -v npx >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory $(NODE_STAMP) && echo "npx eslint --max-warnings=0" && npx --no -- eslint --max-warnings=0; \
	elif [ -n "$$CI" ] && [ "$$CI" != 0 ] && [ "$$CI" != false ]; then \
	  echo "eslint: Node.js (node and npx) is missing, and CI requires it (.ci/run installs it)" >&2; exit 1; \
	else \
	  echo "eslint: SKIPPED, Node.js is not installed (apt-get install nodejs npm); the JavaScript is not linted"; \
	fi

pytest: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadgroup --durations=30

golden: $(STAMP)
	$(BIN)/python -m partygames.engine.golden --update

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_bench.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache
