#!/bin/sh
# C67 as RULE.txt gives it, from the repository's root, after C63 to C66's run.sh (the
# train extra installed).
set -e
mkdir -p artifacts/c67
(cd models/recipe && ../../.venv/bin/python distil.py --data ../../../shared/data/dice \
    --teacher ../../artifacts/c63/shipped.pt --student ../../artifacts/c66/out/detector.pt \
    --steps 1000 --labels 1.0 --seed 6 --threads 2 \
    --out ../../artifacts/c67/out) > artifacts/c67/train.log 2>&1
rm -rf artifacts/c67/models && cp -r models artifacts/c67/models
rm -rf artifacts/c67/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c67/out/dice-detector.onnx --out artifacts/c67/models/dice-detector.onnx
