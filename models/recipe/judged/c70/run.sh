#!/bin/sh
# C70 as RULE.txt gives it, from the repository's root, after C63 to C69's run.sh (the
# train extra installed; artifacts/c63/shipped.pt is C63's unfold.py of the shipped
# detector).
set -e
mkdir -p artifacts/c70 artifacts/c63
test -f artifacts/c63/shipped.pt || .venv/bin/python models/recipe/unfold.py --data ../shared/data/dice \
    --model detector --onnx models/recipe/float/dice-detector.onnx --out artifacts/c63/shipped.pt \
    > artifacts/c70/unfold.log 2>&1
(cd models/recipe && ../../.venv/bin/python thin.py --data ../../../shared/data/dice \
    --detector ../../artifacts/c63/shipped.pt --keep 0.625 --seed 5 \
    --out ../../artifacts/c70/thinned) > artifacts/c70/thin.log 2>&1
(cd models/recipe && ../../.venv/bin/python distil.py --data ../../../shared/data/dice \
    --teacher ../../artifacts/c63/shipped.pt --student ../../artifacts/c70/thinned/detector.pt \
    --steps 2000 --labels 1.0 --seed 8 --threads 2 \
    --out ../../artifacts/c70/out) > artifacts/c70/train.log 2>&1
rm -rf artifacts/c70/models && cp -r models artifacts/c70/models
rm -rf artifacts/c70/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c70/out/dice-detector.onnx --out artifacts/c70/models/dice-detector.onnx
