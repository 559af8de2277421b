#!/bin/sh
# C66 as RULE.txt gives it, from the repository's root, after C63's and C64's run.sh (the
# train extra installed).
set -e
mkdir -p artifacts/c66
(cd models/recipe && ../../.venv/bin/python distil.py --data ../../../shared/data/dice \
    --teacher ../../artifacts/c63/shipped.pt --student ../../artifacts/c64/ckpt/detector.pt \
    --steps 2000 --labels 1.0 --seed 5 --threads 2 \
    --out ../../artifacts/c66/out) > artifacts/c66/train.log 2>&1
rm -rf artifacts/c66/models && cp -r models artifacts/c66/models
rm -rf artifacts/c66/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c66/out/dice-detector.onnx --out artifacts/c66/models/dice-detector.onnx
