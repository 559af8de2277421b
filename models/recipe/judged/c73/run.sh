#!/bin/bash
# C73 as RULE.txt gives it: the Makefile's five upright classifier stages, each with
# --low-views 4000, two threads; hard crops boxed by the shipped coarse detector with the
# candidate's own second stage; quantized; the shipped models' other files and card.
set -ex
cd /work/main
A=artifacts/c73
D=../shared/data/dice
T=".venv/bin/python models/recipe/train.py --data $D --threads 2 --only faces --upright epanemu --low-views 4000"
mkdir -p $A/mine
$T --faces-steps 6000 --out $A/s1 --checkpoints $A/s1
$T --faces-steps 3500 --out $A/s2 --checkpoints $A/s2 --init-faces $A/s1/faces.pt
cp models/dice-coarse.onnx $A/mine/dice-detector.onnx
cp $A/s2/dice-faces.onnx $A/s2/dice.json $A/mine/
$T --faces-steps 7000 --out $A/s3 --checkpoints $A/s3 --init-faces $A/s2/faces.pt \
  --rendered-share 0.25 --mine-with $A/mine
$T --faces-steps 3000 --out $A/s4 --checkpoints $A/s4 --init-faces $A/s3/faces.pt \
  --rendered-share 0.4 --numerals 6 --mine-with $A/mine
$T --faces-steps 4000 --out $A/s5 --checkpoints $A/s5 --init-faces $A/s4/faces.pt \
  --rendered-share 0.5 --numerals 8 --mine-with $A/mine
mkdir -p $A/models && cp models/*.onnx models/dice.json $A/models/
.venv/bin/python models/recipe/quantize.py --data $D --float $A/s5/dice-faces.onnx \
  --out $A/models/dice-faces.onnx
echo DONE
