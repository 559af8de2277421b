#!/bin/bash
# C43: R94's float classifier, one stage more with R94's fifth-stage options (C33's run.sh
# without its blur), R94 as the teacher and --big-scenes 600, quantized; the shipped models'
# other files and card. (Its train.log was written by this script's first form, which held
# C33's steps itself; the same train.py options, in another order.)
set -ex
cd /work/main
A=artifacts/c43 BLUR= MORE="--teacher artifacts/c43/r94.pt --big-scenes 600" \
  bash models/recipe/judged/c33/run.sh
