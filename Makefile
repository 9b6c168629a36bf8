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
# The lock of these extras (requirements/dev.txt, requirements/dev-rllib.txt): every package, the transitive
# ones too, at one version with its hashes, so that every install is the one tested. pyproject.toml keeps
# the direct pins (what `pip install partygames` goes by); `make lock` refreshes the locks from it, and
# requirements/runtime.txt, deploy/Dockerfile's (no extras) (DEVELOPERS.md, "Dependencies and their lock").
# Extras without a lock install from pyproject.toml alone.
comma := ,
LOCK := requirements/$(subst $(comma),-,$(EXTRAS)).txt
# uv, which compiles the locks (only `make lock` needs it), and where PyTorch's CPU wheel lies for the rllib
# lock (this machine's disk; elsewhere a folder of wheels, or https://download.pytorch.org/whl/cpu/torch/).
UV_VERSION := 0.13.9
TORCH_WHEELS ?= /opt/wheels

.PHONY: run test lint typecheck eslint pytest golden bench clean lock

$(STAMP): pyproject.toml $(wildcard $(LOCK))
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@if [ -f $(LOCK) ]; then \
	  echo "$(BIN)/pip install --require-hashes -r $(LOCK) && $(BIN)/pip install --no-deps -e ."; \
	  $(BIN)/pip install --quiet --require-hashes -r $(LOCK) && $(BIN)/pip install --quiet --no-deps -e .; \
	else \
	  echo "no lock for EXTRAS=$(EXTRAS) ($(LOCK)): installing from pyproject.toml's ranges"; \
	  $(BIN)/pip install --quiet -e '.[$(EXTRAS)]'; \
	fi
	touch $(STAMP)

# Resolves pyproject.toml's dependencies into the locks, keeping each locked version pyproject.toml still
# allows; `make lock UPGRADE=1` moves every package to its newest allowed version.
lock: $(STAMP)
	$(BIN)/pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip compile --quiet pyproject.toml --universal --python-version 3.11 --generate-hashes \
	  --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) -o requirements/runtime.txt
	$(BIN)/uv pip compile --quiet pyproject.toml --extra dev --universal --python-version 3.11 --generate-hashes \
	  --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) -o requirements/dev.txt
	$(BIN)/uv pip compile --quiet pyproject.toml --extra dev --extra rllib --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 --find-links $(TORCH_WHEELS) --generate-hashes \
	  --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) -o requirements/dev-rllib.txt

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
