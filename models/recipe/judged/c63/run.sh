#!/bin/sh
# C63 as RULE.txt gives it, from the repository's root (the train extra installed).
set -e
mkdir -p artifacts/c63
.venv/bin/python models/recipe/unfold.py --data ../shared/data/dice --model detector \
    --onnx models/recipe/float/dice-detector.onnx --out artifacts/c63/shipped.pt
(cd models/recipe && ../../.venv/bin/python thin.py --data ../../../shared/data/dice \
    --detector ../../artifacts/c63/shipped.pt --keep 0.5 --seed 5 \
    --out ../../artifacts/c63/thinned) > artifacts/c63/thin.log 2>&1
.venv/bin/python models/recipe/train.py --data ../shared/data/dice --only detector \
    --detector-width lite0 --init-detector artifacts/c63/thinned/detector.pt \
    --detector-steps 2500 --real-share 0.75 --threads 2 --out artifacts/c63/out \
    --checkpoints artifacts/c63/ckpt > artifacts/c63/train.log 2>&1
rm -rf artifacts/c63/models && cp -r models artifacts/c63/models
rm -rf artifacts/c63/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c63/out/dice-detector.onnx --out artifacts/c63/models/dice-detector.onnx
