# Two commands matter: `make demo` and `make test`. Both create or reuse .venv and
# install everything they need, system packages included.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.soloscope-installed
# espeak-ng is the speech engine pyttsx3 drives on Linux.
RUNTIME_DEBS := espeak-ng
# Debian's Chromium is the browser the web-page tests drive through Playwright.
TEST_DEBS := $(RUNTIME_DEBS) chromium fonts-dejavu-core

.PHONY: demo test bench golden lint format train-dice sysdeps-runtime sysdeps-test clean

demo: sysdeps-runtime $(STAMP)
	$(PY) -m assistant.cli demo

test: sysdeps-test $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine
	$(VENV)/bin/pytest -q -n 2 --dist loadfile --no-loadscope-reorder

# Every script in benchmarks/ (a rule system's benchmark is a new file there, nothing else).
bench: sysdeps-runtime $(STAMP)
	@set -e; for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script; done

# The golden guard (issue 25): all 240 bundled battles of `soloscope simulate` byte for byte
# (make test checks seeds 1-2 of each; make bench runs this script too).
golden: $(STAMP)
	$(PY) benchmarks/golden_simulate.py --check

# Retrain the dice reader's two small nets (vision/dice/models, committed): installs PyTorch's
# CPU build (the 2.13.0 wheel in /opt/wheels on the project's machines) and onnx into .venv for
# training only - the reader runs the nets with OpenCV - then trains, seeded (see
# vision/dice/train/__main__.py for the time it takes).
train-dice: $(STAMP)
	$(PY) -m pip install --quiet torch==2.13.0 onnx
	nice $(PY) -m vision.dice.train

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

sysdeps-runtime:
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || scripts/ensure-system-packages.sh python3-venv
	@scripts/ensure-system-packages.sh $(RUNTIME_DEBS)

sysdeps-test:
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || scripts/ensure-system-packages.sh python3-venv
	@scripts/ensure-system-packages.sh $(TEST_DEBS)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
