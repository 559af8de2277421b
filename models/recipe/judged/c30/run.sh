#!/bin/bash
set -ex
cd /work/main
A=artifacts/c30
D=../shared/data/dice
.venv/bin/python models/recipe/unfold.py --data $D --model faces --onnx models/recipe/float/dice-faces.onnx --out $A/r94.pt
.venv/bin/python models/recipe/train.py --data $D --threads 2 --only faces --upright epanemu \
  --faces-steps 4000 --rendered-share 0.5 --numerals 8 --small-dice 0.3 --mine-with $A/mine \
  --init-faces $A/r94.pt --out $A/r105 --checkpoints $A/r105
mkdir -p $A/models && cp models/*.onnx models/dice.json $A/models/
.venv/bin/python models/recipe/quantize.py --data $D --float $A/r105/dice-faces.onnx --out $A/models/dice-faces.onnx
echo DONE
