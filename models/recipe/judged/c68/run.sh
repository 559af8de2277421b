#!/bin/sh
# C68 as RULE.txt gives it, from the repository's root, after C63 to C67's run.sh (the
# train extra installed).
set -e
mkdir -p artifacts/c68
(cd models/recipe && ../../.venv/bin/python distil.py --data ../../../shared/data/dice \
    --teacher ../../artifacts/c63/shipped.pt --student ../../artifacts/c66/out/detector.pt \
    --steps 1000 --labels 1.0 --seed 7 --peak 1e-4 --threads 2 \
    --out ../../artifacts/c68/out) > artifacts/c68/train.log 2>&1
rm -rf artifacts/c68/models && cp -r models artifacts/c68/models
rm -rf artifacts/c68/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c68/out/dice-detector.onnx --out artifacts/c68/models/dice-detector.onnx
