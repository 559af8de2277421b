#!/bin/bash
# C32: the shipped float detector, one stage more with --degrade 0.3, quantized onto 2x2 blocks.
set -ex
cd /work/main
A=artifacts/c32
D=../shared/data/dice
mkdir -p $A
.venv/bin/python models/recipe/unfold.py --data $D --model detector \
  --onnx models/recipe/float/dice-detector.onnx --out $A/r95.pt
.venv/bin/python models/recipe/train.py --data $D --threads 2 --only detector \
  --detector-width lite0 --detector-steps 1500 --real-share 0.75 --degrade 0.3 \
  --init-detector $A/r95.pt --out $A/stage --checkpoints $A/stage
mkdir -p $A/models && cp models/*.onnx models/dice.json $A/models/
.venv/bin/python models/recipe/quantize.py --data $D --float $A/stage/dice-detector.onnx \
  --out $A/models/dice-detector.onnx
echo DONE
