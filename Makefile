# Two commands matter: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
SHELLCHECK := /usr/bin/shellcheck
# The labelled dice photos (not shipped): training and the vision benchmark read them.
DICE_DATA ?= ../shared/data/dice
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint bench model clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Browser tests use Debian's Chromium (Playwright never downloads one); the deploy
# tests use Debian's shellcheck.
$(CHROMIUM) $(SHELLCHECK):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium shellcheck

run: $(STAMP)
	$(BIN)/companion serve --demo

lint: $(STAMP)
	$(BIN)/ruff check .

test: $(STAMP) $(CHROMIUM) $(SHELLCHECK) lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m companion bench engine
	$(BIN)/python -m companion bench web
	$(BIN)/python -m companion bench vision --data $(DICE_DATA)

# Retrain the dice models from the train splits and rendered scenes (PyTorch, CPU; about
# 20 minutes on 2 cores), then pick the thresholds on the kept-aside dev photos.
model: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	$(BIN)/python models/recipe/train.py --data $(DICE_DATA) --out models
	$(BIN)/python -m companion bench vision --data $(DICE_DATA) --calibrate

clean:
	rm -rf $(VENV) build dist *.egg-info
