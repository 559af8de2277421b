"""Which of the looks' 481 epanemu photos make a whole-picture pass of more than 60 dice,
and a read's time there, C47 against the reader before it (decides nothing)."""

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, "models/recipe/judged")
import judging
from judging import earlier_judge

from companion.vision.evaluate import despeckle
from companion.vision.pictures import neutral
from companion.vision.reader import HEAP_DICE, DiceReader, model_dir

c45 = earlier_judge("c45")
cv2.setNumThreads(1)
cand = DiceReader(model_dir(), threads=1)
ship = c45.c39.c37.c35.shipped_reader("9f8dd82")
data = Path(sys.argv[1])
for _where, name, labels in judging.looked_at_640(data):
    img = despeckle(cv2.imread(str(data / "epanemu" / name)))
    n = len(cand.detect(neutral(img), cand.faint_threshold, max_dice=HEAP_DICE))
    if n <= 60:
        continue
    ts, tc = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        s = ship.read(img)
        ts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        c = cand.read(img)
        tc.append(time.perf_counter() - t0)
    print(
        f"{name[:40]} labelled {len(labels)} pass {n}: before {len(s)} dice "
        f"{1000 * np.median(ts):.1f} ms, C47 {len(c)} dice {1000 * np.median(tc):.1f} ms"
    )
