#!/bin/sh
# C62 as RULE.txt gives it, from the repository's root (the train extra installed).
set -e
mkdir -p artifacts/c62
.venv/bin/python models/recipe/unfold.py --data ../shared/data/dice --model detector \
    --onnx models/recipe/float/dice-detector.onnx --out artifacts/c62/teacher.pt
(cd models/recipe && ../../.venv/bin/python distil.py --data ../../../shared/data/dice \
    --teacher ../../artifacts/c62/teacher.pt --out ../../artifacts/c62/out --width 64 \
    --feature-steps 1500 --output-steps 200 --threads 2 --seed 5) > artifacts/c62/train.log 2>&1
rm -rf artifacts/c62/models && cp -r models artifacts/c62/models
rm -rf artifacts/c62/models/recipe
.venv/bin/python models/recipe/quantize.py --data ../shared/data/dice \
    --float artifacts/c62/out/dice-detector.onnx --out artifacts/c62/models/dice-detector.onnx
