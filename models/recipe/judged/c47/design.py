"""C47 design figures (judge nothing): design seeds 119860-119879 crowded, and the 481
epanemu photos of s58/s59 looks (read before). Extras = candidate dice whose box the
shipped reader does not report."""

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, "models/recipe/judged")
import judging
from judging import earlier_judge

from companion.vision import reader as R
from companion.vision.reader import DiceReader, model_dir

c45 = earlier_judge("c45")
tally, shots = c45.tally, c45.shots
data = Path(sys.argv[1])
which = sys.argv[2]
cv2.setNumThreads(1)
R.HEAP_CONFIDENCE = 0.0
cand = DiceReader(model_dir(), threads=1)
ship = c45.c39.c37.c35.shipped_reader("7176bd8")
if which == "crowded":
    pics = shots(range(119860, 119880), 480, 640, (61, 121), (18, 32), lambda s: 6 * (s % 2))
elif which == "mid":
    pics = shots(range(119880, 119900), 480, 640, (40, 65), (22, 40), lambda s: 6 * (s % 2))
else:
    pics = c45.looked_at(data)
TH = (0.75, 0.8, 0.85, 0.9, 0.95)
keys = ("photos", "photos_right", "dice", "found", "right", "wrong_when_sure", "unsure", "no_die")
out = {t: dict.fromkeys(keys, 0) for t in ("shipped", *TH)}
extras_conf = []
ts, tc = [], []
for img, truth in pics:
    t0 = time.perf_counter()
    s = ship.read(img)
    ts.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    c = cand.read(img)
    tc.append(time.perf_counter() - t0)
    sboxes = {d.box for d in s}
    extra = [d for d in c if d.box not in sboxes]
    base = [d for d in c if d.box in sboxes]
    if len(base) != len(s):
        print("!! base differs", len(base), len(s))
    for t, found in [("shipped", s)] + [
        (t, base + [d for d in extra if d.confidence >= t]) for t in TH
    ]:
        o = out[t]
        before = (o["right"], o["no_die"])
        tally(found, truth, o)
        judging.count_photo(o, truth, before)
    if extra:
        pairs = dict(
            R_match
            for R_match in __import__("companion.vision.evaluate", fromlist=["match"]).match(
                c, truth
            )
        )
        for i, d in enumerate(c):
            if d in extra:
                j = pairs.get(i)
                kind = "no_die" if j is None else ("right" if d.face == truth[j][0] else "wrong")
                extras_conf.append((round(d.confidence, 3), kind, d.box))
for t, o in out.items():
    print(t, o)
print(f"read ms median shipped {1000 * np.median(ts):.1f} cand {1000 * np.median(tc):.1f}")
for kind in ("right", "wrong", "no_die"):
    cs = sorted(c for c, k, _ in extras_conf if k == kind)
    print(kind, len(cs), [c for c in cs if c < 0.95])
