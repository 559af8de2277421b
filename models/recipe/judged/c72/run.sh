#!/bin/bash
# C72 as RULE.txt gives it: R94's float classifier, one stage more with R94's fifth-stage
# options (C33's run.sh without its blur), R94 as the teacher of the real crops and
# --low-views 4000, quantized; the shipped models' other files and card.
set -ex
cd /work/main
A=artifacts/c72 BLUR= MORE="--teacher artifacts/c72/r94.pt --low-views 4000" \
  bash models/recipe/judged/c33/run.sh
