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

.PHONY: run test lint bench model model-detector model-faces clean

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

# Retrain the dice models from the train splits and rendered scenes (PyTorch, CPU), then pick
# the thresholds on the kept-aside dev photos. Each model is trained in two stages, the second
# continuing from the first at a lower learning rate; the detector and the classifier train
# side by side, one thread each (about 70 minutes on 2 cores).
TRAIN := $(BIN)/python models/recipe/train.py --data $(DICE_DATA) --out models --threads 1
STAGE1 := artifacts/model-checkpoints/stage1

model: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	$(MAKE) -j2 model-detector model-faces
	$(BIN)/python -m companion bench vision --data $(DICE_DATA) --calibrate

model-detector:
	$(TRAIN) --only detector --detector-steps 4000 --checkpoints $(STAGE1)
	$(TRAIN) --only detector --detector-steps 2500 --init-detector $(STAGE1)/detector.pt

model-faces:
	$(TRAIN) --only faces --faces-steps 6000 --checkpoints $(STAGE1)
	$(TRAIN) --only faces --faces-steps 3500 --init-faces $(STAGE1)/faces.pt

clean:
	rm -rf $(VENV) build dist *.egg-info
