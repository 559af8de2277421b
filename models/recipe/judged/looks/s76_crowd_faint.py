"""Session 76's look (decides nothing; no rule, no candidate), on the epanemu and matteop65
train photos outside dev (never a judged split): in a photo where the shipped reader reads
at least CROWD dice with a face, are the detector's peaks from LOW up to the faint threshold
dice it missed, when they are one die's size (0.7 to 1.4 of the median side of the dice read
with a face), apart from every die found (neither box holds the other's centre) and read
with a face at SURE or more? Each such peak is counted as a missed labelled die read right
or wrong, a die already found, or no labelled die. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s76_crowd_faint.py DATA train 0.1 6 0.9
    .venv/bin/python models/recipe/judged/looks/s76_crowd_faint.py DATA train 0.05 4 0.6
with DATA ../shared/data/dice.
"""

import collections
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision.boxes import apart, box_side
from companion.vision.evaluate import load_split, match
from companion.vision.heat import HEAP_DICE
from companion.vision.pictures import as_bgr, neutral
from companion.vision.reader import DiceReader, DieReading, model_dir

data = Path(sys.argv[1])
split = sys.argv[2]
LOW = float(sys.argv[3])
CROWD = int(sys.argv[4])
SURE = float(sys.argv[5])
r = DiceReader(model_dir(), threads=1)
t = collections.Counter()
for name in ("epanemu", "matteop65"):
    files = load_split(data, split)[name]
    for fn in sorted(files):
        img = as_bgr(cv2.imread(str(data / name / fn), cv2.IMREAD_UNCHANGED))
        truth = files[fn]
        found = r.read(img)
        faced = [d for d in found if d.value is not None]
        if len(faced) < CROWD:
            continue
        t[name + " photos"] += 1
        sides = np.median([box_side(d.box) for d in faced])
        peaks = [
            (b, h)
            for b, h in r.detect(neutral(img), LOW, max_dice=HEAP_DICE)
            if h < r.faint_threshold
        ]
        cands = [
            b
            for b, h in peaks
            if all(apart(b, d.box) for d in found) and 0.7 <= box_side(b) / sides <= 1.4
        ]
        if not cands:
            continue
        probs, _ = r.classify(img, cands)
        missed = [j for j in range(len(truth)) if j not in {jj for _, jj in match(found, truth)}]
        for b, p in zip(cands, probs, strict=True):
            lab = r.classes[int(p.argmax())]
            conf = float(p.max())
            if lab == "not-a-die" or conf < SURE:
                continue
            m = match([DieReading(b, None, 0, "")], [truth[j] for j in missed])
            if m:
                v = truth[missed[m[0][1]]][0]
                t[name + (" missed die, right" if str(v) == lab else " missed die, WRONG")] += 1
            else:
                hit = match([DieReading(b, None, 0, "")], truth)
                t[name + (" a found die again" if hit else " NO LABELLED DIE")] += 1
print(split, LOW, CROWD, SURE, dict(sorted(t.items())))
