# Two commands matter: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
SHELLCHECK := /usr/bin/shellcheck
# The renderer's tests draw numerals in Debian's DejaVu fonts.
FONTS := /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
# The labelled dice photos (not shipped): training and the vision benchmark read them.
DICE_DATA ?= ../shared/data/dice
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-training lint bench loso model model-detector model-faces model-opinion \
	model-fonted clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Browser tests use Debian's Chromium (Playwright never downloads one); the deploy
# tests use Debian's shellcheck.
$(CHROMIUM) $(SHELLCHECK) $(FONTS):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium shellcheck \
		fonts-dejavu-core

# The Pi's own CPUs, emulated (tests/integration/test_arm64.py): Debian's arm64 Python and
# the aarch64 wheels pip installs on a Pi, run by qemu-aarch64 (installed when missing).
ARM64 := .arm64
$(ARM64)/site: pyproject.toml tests/arm64/root.sh deploy/constraints.sh $(STAMP)
	tests/arm64/root.sh $(ARM64) $(BIN)/python

run: $(STAMP)
	$(BIN)/companion serve --demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(STAMP) $(CHROMIUM) $(SHELLCHECK) $(FONTS) $(ARM64)/site lint
	$(BIN)/python -m pytest

# The training recipe's own tests (models/recipe: quantizing, unfolding a shipped model,
# training samples); they need PyTorch and onnx, the train extra. CI does not run them.
test-training: $(STAMP) $(FONTS)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	$(BIN)/python -m pytest tests/training

# The numerals benchmark draws dice in fonts the classifier never learned, from Debian's
# fonts-liberation, fonts-freefont-ttf and fonts-urw-base35 (models/recipe/heldout-fonts.txt).
HELDOUT_FONTS := /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf \
	/usr/share/fonts/truetype/freefont/FreeSans.ttf \
	/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf
$(HELDOUT_FONTS):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq fonts-liberation \
		fonts-freefont-ttf fonts-urw-base35

bench: $(STAMP) $(HELDOUT_FONTS)
	$(BIN)/python -m companion bench engine
	$(BIN)/python -m companion bench web
	$(BIN)/python -m companion bench web --clients 40
	$(BIN)/python -m companion bench watch
	$(BIN)/python -m companion bench threads
	$(BIN)/python -m companion bench vision --data $(DICE_DATA)
	$(BIN)/python -m companion bench vision --data $(DICE_DATA) --pi-streams
	$(BIN)/python -m companion bench vision --data $(DICE_DATA) --enlarge 6
	$(BIN)/python -m companion bench settle --data $(DICE_DATA)
	$(BIN)/python -m companion bench numerals --fonts models/recipe/heldout-fonts.txt
	$(MAKE) loso
	$(BIN)/python -m companion bench loso --data $(DICE_DATA) --loso $(LOSO)
	$(BIN)/python -m companion bench teach --data $(DICE_DATA) --loso $(LOSO) \
		--fonts models/recipe/heldout-fonts.txt

# Leave one source out: for each photo set in $(DICE_DATA), a face classifier trained by one
# stage of the recipe (3,000 steps from scratch, WIDE's looks and colours) on every other set
# (and rendered crops), never on that one, and its opinion (below), which
# `companion bench loso` then reads all of. About 10 minutes a model on one core (two at once
# with -j2); a model already trained is not trained again, and one stopped continues from its
# last saved step. The train extra (PyTorch) is needed.
LOSO ?= artifacts/loso
LOSO_STEPS ?= 3000
LOSO_SETS := $(notdir $(patsubst %/,%,$(dir $(wildcard $(DICE_DATA)/*/labels.csv))))

loso: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	$(MAKE) -j2 $(foreach s,$(LOSO_SETS),$(LOSO)/$(s)/dice-faces.onnx \
		$(LOSO)/$(s)/opinion/dice-faces.onnx)

$(LOSO)/%/dice-faces.onnx:
	@mkdir -p $(LOSO)
	$(TRAIN) --only faces --leave-out $* --faces-steps $(LOSO_STEPS) $(WIDE) \
		$(if $(filter epanemu,$*),,--upright epanemu) --out $(LOSO)/$* --checkpoints $(LOSO)/$* \
		> $(LOSO)/$*.log 2>&1 || (tail -5 $(LOSO)/$*.log; exit 1)

# ... and its opinion: the same stage from another seed with every die in quarter turns (as
# the shipped opinion is trained and read), asked about the dice the classifier leaves unsure and the veto of
# those it reads surely
$(LOSO)/%/opinion/dice-faces.onnx:
	@mkdir -p $(LOSO)/$*/opinion
	$(TRAIN) --only faces --leave-out $* --faces-steps $(LOSO_STEPS) $(WIDE) --seed 1 \
		--out $(LOSO)/$*/opinion --checkpoints $(LOSO)/$*/opinion \
		> $(LOSO)/$*/opinion.log 2>&1 || (tail -5 $(LOSO)/$*/opinion.log; exit 1)

# Retrain the dice models from the train splits and rendered scenes (PyTorch, CPU), then pick
# the thresholds on the kept-aside dev photos. Five models (models/README.md):
# - the detector: EfficientNet-Lite0's trunk (its ImageNet weights come with the train extra)
#   under a small pyramid and head, two stages, three quarters of each batch from the real
#   photos;
# - the coarse detector, for the 160 px close-up pass: the small detector, four stages (the
#   last with three quarters of each batch real), each continuing from the one before at a
#   lower learning rate;
# - the classifier: five stages, with the epanemu photos' dice kept upright (read in three
#   upright looks);
# - its second opinion, asked about a die the classifier leaves unsure: the same five stages
#   with every die in quarter turns (read in quarter turns);
# - its third, asked about a die both leave unsure: the classifier's five upright stages with
#   three numerals in four drawn in models/recipe/fonts.txt's fonts, and a sixth with more
#   of them in OpenCV's faces.
# Each classifier's third stage learns from the hard "not a die" crops that a small detector
# and its own second stage find (the classifier's and the font-trained one's: the coarse
# detector; the opinion's: the coarse detector's second stage); the fourth and fifth stages
# are for numeral faces. The detector and the three classifiers are then quantized to 8-bit
# integers (models/recipe/quantize.py), calibrated on the train photos, and the thresholds
# picked.
# About nine to ten hours on 2 cores (estimated from each stage's logged time); not run end
# to end at full length. A stopped `make model` continues when run again: each stage saves
# its progress every 250 steps (models/recipe/progress.py), a stage done only exports its
# model again, the stopped one continues from its last save. `rm -rf $(CKPT)` starts afresh.
# `make model MODELS=DIR` writes a candidate into DIR instead of over the shipped models;
# compare it with `companion bench vision --split dev --models DIR --against models` (photo
# by photo: the dev photos each reads entirely right and the other not). DIR starts from the shipped
# card, so the reader's own settings in it (faint peaks, the second look and opinion) are kept.
# `make model MODELS=DIR CKPT=DIR2 TRAIN_FLAGS="--max-steps 12 --synthetic 40"` is a smoke run:
# every stage, the quantizations and the calibration, a few steps each (10 minutes on 2 cores,
# measured), to check that the recipe runs end to end; its models are of no use.
TRAIN := $(BIN)/python models/recipe/train.py --data $(DICE_DATA) --threads 1 --resume \
	$(TRAIN_FLAGS)
MODELS ?= models
CKPT ?= artifacts/model-checkpoints
DETECTOR2 := $(CKPT)/detector-stage2
COARSE := $(CKPT)/coarse
OPINION := $(CKPT)/opinion
FONTED := $(CKPT)/fonted
FONTS_TRAIN := --upright epanemu --fonts models/recipe/fonts.txt

model: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	mkdir -p $(MODELS)
	test -f $(MODELS)/dice.json || cp models/dice.json $(MODELS)/dice.json
	$(MAKE) -j2 model-detector model-faces model-opinion model-fonted
	cp $(COARSE)/dice-detector.onnx $(MODELS)/dice-coarse.onnx
	cp $(MODELS)/dice-detector.onnx $(CKPT)/dice-detector-float.onnx
	cp $(MODELS)/dice-faces.onnx $(CKPT)/dice-faces-float.onnx
	$(BIN)/python models/recipe/quantize.py --data $(DICE_DATA) \
		--float $(CKPT)/dice-detector-float.onnx --out $(MODELS)/dice-detector.onnx
	$(BIN)/python models/recipe/quantize.py --data $(DICE_DATA) \
		--float $(CKPT)/dice-faces-float.onnx --out $(MODELS)/dice-faces.onnx
	# quantized beside its own card, which reads it in quarter turns
	$(BIN)/python models/recipe/quantize.py --data $(DICE_DATA) \
		--float $(OPINION)/dice-faces.onnx --out $(OPINION)/dice-faces-int8.onnx
	cp $(OPINION)/dice-faces-int8.onnx $(MODELS)/dice-opinion.onnx
	$(BIN)/python models/recipe/quantize.py --data $(DICE_DATA) \
		--float $(FONTED)/last/dice-faces.onnx --out $(FONTED)/last/dice-faces-int8.onnx
	cp $(FONTED)/last/dice-faces-int8.onnx $(MODELS)/dice-opinion2.onnx
	$(BIN)/python -m companion bench vision --data $(DICE_DATA) --calibrate --models $(MODELS)

model-detector:
	$(TRAIN) --only detector --detector-width lite0 --detector-steps 2600 --real-share 0.75 \
		--out $(CKPT)/detector-lite0 --checkpoints $(CKPT)/detector-lite0
	$(TRAIN) --only detector --detector-width lite0 --detector-steps 2000 --real-share 0.75 \
		--init-detector $(CKPT)/detector-lite0/detector.pt --out $(MODELS) --checkpoints $(CKPT)

# the small detector: its second stage and its fourth find the classifiers' hard crops, and
# the fourth is the coarse detector
$(DETECTOR2)/detector.pt:
	$(TRAIN) --only detector --detector-steps 4000 --out $(CKPT)/detector-stage1 \
		--checkpoints $(CKPT)/detector-stage1
	$(TRAIN) --only detector --detector-steps 2500 --out $(DETECTOR2) --checkpoints $(DETECTOR2) \
		--init-detector $(CKPT)/detector-stage1/detector.pt

$(COARSE)/detector.pt: $(DETECTOR2)/detector.pt
	$(TRAIN) --only detector --detector-steps 6000 --out $(CKPT)/detector-stage3 \
		--checkpoints $(CKPT)/detector-stage3 --init-detector $(DETECTOR2)/detector.pt
	$(TRAIN) --only detector --detector-steps 3000 --out $(COARSE) --checkpoints $(COARSE) \
		--init-detector $(CKPT)/detector-stage3/detector.pt --real-share 0.75

# The five classifier stages: $(1) is where the last one writes, $(2) the folder of the
# others' checkpoints and hard crops, $(3) the options of its looks (--upright epanemu, or
# none for quarter turns), $(4) the small detector that boxes its hard crops.
define faces-stages
	mkdir -p $(2)/mine
	$(TRAIN) --only faces $(3) --faces-steps 6000 --out $(2)/s1 --checkpoints $(2)/s1
	$(TRAIN) --only faces $(3) --faces-steps 3500 --out $(2)/s2 --checkpoints $(2)/s2 \
		--init-faces $(2)/s1/faces.pt
	cp $(4)/dice-detector.onnx $(2)/s2/dice-faces.onnx $(2)/s2/dice.json $(2)/mine/
	$(TRAIN) --only faces $(3) --faces-steps 7000 --out $(2)/s3 --checkpoints $(2)/s3 \
		--init-faces $(2)/s2/faces.pt --rendered-share 0.25 --mine-with $(2)/mine
	$(TRAIN) --only faces $(3) --faces-steps 3000 --out $(2)/s4 --checkpoints $(2)/s4 \
		--init-faces $(2)/s3/faces.pt --rendered-share 0.4 --numerals 6 --mine-with $(2)/mine
	$(TRAIN) --only faces $(3) --faces-steps 4000 --out $(1) --checkpoints $(2) \
		--init-faces $(2)/s4/faces.pt --rendered-share 0.5 --numerals 8 --mine-with $(2)/mine
endef

model-faces: $(COARSE)/detector.pt
	$(call faces-stages,$(MODELS),$(CKPT)/faces,--upright epanemu,$(COARSE))

# make loso's classifiers see dice of every look the renderer draws and crops in other colours
# (models/README.md, leave one source out)
WIDE := --styles 0.5 --recolour 0.5

model-opinion: $(DETECTOR2)/detector.pt
	$(call faces-stages,$(OPINION),$(OPINION)/stages,,$(DETECTOR2))

# the third classifier: the five upright stages with numerals in many fonts (three in four),
# then a sixth from the fifth with fewer of them there (more in OpenCV's own faces)
model-fonted: $(COARSE)/detector.pt
	$(call faces-stages,$(FONTED)/s5,$(FONTED),$(FONTS_TRAIN),$(COARSE))
	$(TRAIN) --only faces $(FONTS_TRAIN) --font-share 0.4 --faces-steps 4000 \
		--init-faces $(FONTED)/faces.pt --rendered-share 0.5 --numerals 8 \
		--mine-with $(FONTED)/mine --out $(FONTED)/last --checkpoints $(FONTED)/last

clean:
	rm -rf $(VENV) $(ARM64) build dist *.egg-info
