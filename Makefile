# Two commands matter: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Browser tests use Debian's Chromium (Playwright never downloads one).
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

run: $(STAMP)
	$(BIN)/companion serve --demo

lint: $(STAMP)
	$(BIN)/ruff check .

test: $(STAMP) $(CHROMIUM) lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m companion bench engine
	$(BIN)/python -m companion bench web

clean:
	rm -rf $(VENV) build dist *.egg-info
