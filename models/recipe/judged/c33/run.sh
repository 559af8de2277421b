#!/bin/bash
# C33: R94's float classifier, one stage more with R94's fifth-stage options and
# --blur-faces 0.3, quantized; C24's other files and card.
set -ex
cd /work/main
# A later run may give its own folder (A) and more train.py options (MORE): judged/c34/run.sh
A=${A:-artifacts/c33}
# ... and BLUR, the stage's blur option: unset, C33's; C43's run gives it empty (judged/c43/run.sh)
if [ -z "${BLUR+set}" ]; then BLUR="--blur-faces 0.3"; fi
D=../shared/data/dice
# MINE, as C30's: the coarse detector as the detector, R94's float classifier, the shipped
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
  --faces-steps 4000 --rendered-share 0.5 --numerals 8 $BLUR --mine-with $A/mine \
  --init-faces $A/r94.pt --out $A/stage --checkpoints $A/stage ${MORE:-}
mkdir -p $A/models && cp models/*.onnx models/dice.json $A/models/
.venv/bin/python models/recipe/quantize.py --data $D --float $A/stage/dice-faces.onnx \
  --out $A/models/dice-faces.onnx
echo DONE
