"""Session 87's look (deciding nothing): the shipped reader on rendered tables seen from
each camera height (scenes.scene's elevation), 40 tables of 2 to 7 pipped dice of 40 to 90
px a band, the same seeds in every band. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s87_elevation.py slanted 910000
"""

import sys

import numpy as np

from companion.vision import scenes
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader

view = sys.argv[1] if len(sys.argv) > 1 else "slanted"
r = DiceReader(view=view)
first = int(sys.argv[2]) if len(sys.argv) > 2 else 910000
for lo, hi in ((20, 30), (30, 40), (40, 50), (50, 60), (60, 75), (75, 90)):
    t = dict(dice=0, right=0, unsure=0, wrong=0, missed=0, no_die=0)
    for seed in range(first, first + 40):
        rng = np.random.default_rng(seed)
        img, dice = scenes.scene(
            rng,
            480,
            640,
            count=int(rng.integers(2, 8)),
            size_range=(40, 90),
            kinds=("pips",),
            elevation=(lo, hi),
        )
        truth = [(d.face.label, d.box) for d in dice]
        got = r.read(img)
        pairs = match(got, truth)
        t["dice"] += len(truth)
        t["missed"] += len(truth) - len(pairs)
        t["no_die"] += len(got) - len(pairs)
        for i, j in pairs:
            v = got[i].value
            t["right" if str(v) == truth[j][0] else ("unsure" if v is None else "wrong")] += 1
    print(view, f"{lo}-{hi} deg", t, f"right {t['right'] / t['dice']:.1%}", flush=True)
