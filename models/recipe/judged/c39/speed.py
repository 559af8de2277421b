"""C39 after its verdict (decides nothing): a few big pictures read by the shipped reader (C36,
at the rule's commit) and by C39, alternately, three times each; the medians in ms."""

import importlib.util
import sys
import time

import cv2
import numpy as np

sys.path.insert(0, "models/recipe/judged")
from companion.vision import scenes
from companion.vision.reader import DiceReader, model_dir

spec = importlib.util.spec_from_file_location("judge_c37", "models/recipe/judged/c37/judge.py")
c37 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c37)
cv2.setNumThreads(1)
shipped = c37.c35.shipped_reader("9872366")
cand = DiceReader(model_dir(), threads=1)
pics = []
for seed in (61000, 61001, 61002):
    rng = np.random.default_rng(seed)
    img, _ = scenes.scene(rng, 3000, 4000, count=5, size_range=(160, 320), mess=8)
    pics.append(("phone-size", img))
for seed in (61003, 61004):
    rng = np.random.default_rng(seed)
    img, _ = scenes.scene(rng, 2400, 3200, count=6, size_range=(40, 125), mess=8)
    pics.append(("wide", img))
g = cv2.imread("tests/data/dice/epanemu-train_dice_283_jpg.jpg")
pics.append(("283 at 6x", cv2.resize(g, None, fx=6, fy=6)))
for name, img in pics:
    t = {"shipped": [], "C39": []}
    for _ in range(3):
        for k, r in (("shipped", shipped), ("C39", cand)):
            s = time.perf_counter()
            n = len(r.read(img))
            t[k].append((time.perf_counter() - s) * 1000)
    print(name, img.shape[:2], {k: round(float(np.median(v)), 1) for k, v in t.items()})
