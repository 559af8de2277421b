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

# The Pi's own CPUs, emulated (tests/integration/test_arm64.py): Debian's arm64 Python and
# the aarch64 wheels pip installs on a Pi, run by qemu-aarch64 (installed when missing).
ARM64 := .arm64
$(ARM64)/site: pyproject.toml tests/arm64/root.sh $(STAMP)
	tests/arm64/root.sh $(ARM64) $(BIN)/python

run: $(STAMP)
	$(BIN)/companion serve --demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(STAMP) $(CHROMIUM) $(SHELLCHECK) $(ARM64)/site lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m companion bench engine
	$(BIN)/python -m companion bench web
	$(BIN)/python -m companion bench watch
	$(BIN)/python -m companion bench vision --data $(DICE_DATA)
	$(BIN)/python -m companion bench settle --data $(DICE_DATA)

# Retrain the dice models from the train splits and rendered scenes (PyTorch, CPU), then pick
# the thresholds on the kept-aside dev photos. The detector is trained in four stages (the
# last with three quarters of each batch from the real photos) and the classifier in five,
# each continuing from the one before at a lower learning rate; the two train side by side,
# one thread each. The classifier's third stage waits for both second
# stages: their pair finds the hard "not a die" crops it learns from; its fourth and fifth
# stages are for numeral faces. The classifier is then quantized to 8-bit integers
# (models/recipe/quantize.py), calibrated on crops of the train dice. About three hours on 2 cores.
# `make model MODELS=DIR` writes a candidate into DIR instead of over the shipped models;
# compare it with `companion bench vision --split dev --models DIR --against models` (photo
# by photo: the dev photos each reads entirely right and the other not). DIR starts from the shipped
# card, so the reader's own settings in it (faint peaks, the second look) are kept.
TRAIN := $(BIN)/python models/recipe/train.py --data $(DICE_DATA) --threads 1
MODELS ?= models
CKPT ?= artifacts/model-checkpoints
DETECTOR2 := $(CKPT)/detector-stage2
DETECTOR3 := $(CKPT)/detector-stage3
FACES2 := $(CKPT)/faces-stage2
FACES3 := $(CKPT)/faces-stage3
FACES4 := $(CKPT)/faces-stage4
MINE := $(CKPT)/mine

model: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	rm -rf $(CKPT)
	mkdir -p $(MODELS)
	test -f $(MODELS)/dice.json || cp models/dice.json $(MODELS)/dice.json
	$(MAKE) -j2 model-detector model-faces
	cp $(MODELS)/dice-faces.onnx $(CKPT)/dice-faces-float.onnx
	$(BIN)/python models/recipe/quantize.py --data $(DICE_DATA) \
		--float $(CKPT)/dice-faces-float.onnx --out $(MODELS)/dice-faces.onnx
	$(BIN)/python -m companion bench vision --data $(DICE_DATA) --calibrate --models $(MODELS)

$(DETECTOR2)/detector.pt:
	$(TRAIN) --only detector --detector-steps 4000 --out $(CKPT)/detector-stage1 \
		--checkpoints $(CKPT)/detector-stage1
	$(TRAIN) --only detector --detector-steps 2500 --out $(DETECTOR2) --checkpoints $(DETECTOR2) \
		--init-detector $(CKPT)/detector-stage1/detector.pt

$(FACES2)/faces.pt:
	$(TRAIN) --only faces --faces-steps 6000 --out $(CKPT)/faces-stage1 \
		--checkpoints $(CKPT)/faces-stage1
	$(TRAIN) --only faces --faces-steps 3500 --out $(FACES2) --checkpoints $(FACES2) \
		--init-faces $(CKPT)/faces-stage1/faces.pt

model-detector: $(DETECTOR2)/detector.pt
	$(TRAIN) --only detector --detector-steps 6000 --out $(DETECTOR3) --checkpoints $(DETECTOR3) \
		--init-detector $(DETECTOR2)/detector.pt
	$(TRAIN) --only detector --detector-steps 3000 --out $(MODELS) --checkpoints $(CKPT) \
		--init-detector $(DETECTOR3)/detector.pt --real-share 0.75

model-faces: $(DETECTOR2)/detector.pt $(FACES2)/faces.pt
	mkdir -p $(MINE)
	cp $(DETECTOR2)/dice-detector.onnx $(FACES2)/dice-faces.onnx $(FACES2)/dice.json $(MINE)/
	$(TRAIN) --only faces --faces-steps 7000 --out $(FACES3) --checkpoints $(FACES3) \
		--init-faces $(FACES2)/faces.pt --rendered-share 0.25 --mine-with $(MINE)
	$(TRAIN) --only faces --faces-steps 3000 --out $(FACES4) --checkpoints $(FACES4) \
		--init-faces $(FACES3)/faces.pt --rendered-share 0.4 --numerals 6 --mine-with $(MINE)
	$(TRAIN) --only faces --faces-steps 4000 --out $(MODELS) --checkpoints $(CKPT) \
		--init-faces $(FACES4)/faces.pt --rendered-share 0.5 --numerals 8 --mine-with $(MINE)

clean:
	rm -rf $(VENV) $(ARM64) build dist *.egg-info
