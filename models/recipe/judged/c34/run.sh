#!/bin/bash
# C34: C33's run (judged/c33/run.sh) with R94 as the teacher: R94's float classifier, one
# stage more with R94's fifth-stage options, --blur-faces 0.3 and --teacher R94 (reading
# each crop before its extra blur), quantized; C24's other files and card.
set -ex
cd /work/main
A=artifacts/c34 MORE="--teacher artifacts/c34/r94.pt" bash models/recipe/judged/c33/run.sh
