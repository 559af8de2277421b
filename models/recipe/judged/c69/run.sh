#!/bin/sh
# C69 as RULE.txt gives it, from the repository's root, after C63 to C68's run.sh (the
# train extra installed; artifacts/c63/shipped.pt is C63's unfold.py of the shipped
# detector).
set -e
mkdir -p artifacts/c69
(cd models/recipe && ../../.venv/bin/python thin.py --data ../../../shared/data/dice \
    --detector ../../artifacts/c63/shipped.pt --keep 0.625 --seed 5 \
    --out ../../artifacts/c69/thinned) > artifacts/c69/thin.log 2>&1
(cd models/recipe && ../../.venv/bin/python distil.py --data ../../../shared/data/dice \
    --teacher ../../artifacts/c63/shipped.pt --student ../../artifacts/c69/thinned/detector.pt \
    --steps 1200 --labels 1.0 --seed 8 --threads 2 \
    --out ../../artifacts/c69/out) > artifacts/c69/train.log 2>&1
rm -rf artifacts/c69/models && cp -r models artifacts/c69/models
rm -rf artifacts/c69/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c69/out/dice-detector.onnx --out artifacts/c69/models/dice-detector.onnx
