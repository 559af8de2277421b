#!/bin/sh
# C64 as RULE.txt gives it, from the repository's root, after C63's run.sh (the train extra
# installed).
set -e
mkdir -p artifacts/c64
.venv/bin/python models/recipe/train.py --data ../shared/data/dice --only detector \
    --detector-width lite0 --init-detector artifacts/c63/ckpt/detector.pt \
    --detector-steps 2000 --real-share 0.75 --threads 2 --out artifacts/c64/out \
    --checkpoints artifacts/c64/ckpt > artifacts/c64/train.log 2>&1
rm -rf artifacts/c64/models && cp -r models artifacts/c64/models
rm -rf artifacts/c64/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c64/out/dice-detector.onnx --out artifacts/c64/models/dice-detector.onnx
