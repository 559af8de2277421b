#!/bin/bash
# C59 (RULE.txt): R94's float classifier, one stage more with R94's fifth-stage options and
# --small-dice 0.5, quantized, as a third opinion after the shipped two; every other file as
# shipped. Run from the repository's root; the models land in $A/models.
set -ex
A=${A:-artifacts/c59}
D=../shared/data/dice
# MINE, as C33's: the coarse detector as the detector, R94's float classifier, the shipped
# card without its opinions, coarse detector and veto
mkdir -p $A/mine
cp models/dice-coarse.onnx $A/mine/dice-detector.onnx
cp models/recipe/float/dice-faces.onnx $A/mine/dice-faces.onnx
.venv/bin/python -c "
import json
card = json.load(open('models/dice.json'))
for key in ('second_opinion', 'coarse_detector', 'veto'):
    card.pop(key)
json.dump(card, open('$A/mine/dice.json', 'w'), indent=1)
"
.venv/bin/python models/recipe/unfold.py --data $D --model faces \
  --onnx models/recipe/float/dice-faces.onnx --out $A/r94.pt
.venv/bin/python models/recipe/train.py --data $D --threads 2 --only faces --upright epanemu \
  --faces-steps 4000 --rendered-share 0.5 --numerals 8 --small-dice 0.5 --mine-with $A/mine \
  --init-faces $A/r94.pt --out $A/stage --checkpoints $A/stage
mkdir -p $A/models && cp models/*.onnx models/dice.json $A/models/
.venv/bin/python models/recipe/quantize.py --data $D --float $A/stage/dice-faces.onnx \
  --out $A/models/dice-opinion3.onnx
# the card: a third opinion, read upright, after the shipped two
.venv/bin/python -c "
import json
card = json.load(open('$A/models/dice.json'))
card['second_opinion'].append({'file': 'dice-opinion3.onnx', 'looks': 'upright'})
json.dump(card, open('$A/models/dice.json', 'w'), indent=1)
"
echo DONE
