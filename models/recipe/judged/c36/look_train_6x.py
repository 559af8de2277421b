"""A look after C36 was shipped (decides nothing): the shipped reader on every eighth
epanemu train photo outside dev (the first 100 of them), despeckled and enlarged six
times; each box on no labelled die, with the pass that found it ("whole" picture or
"tile"), its side, and the median side of the labelled dice the whole-picture pass read
with confidence. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c36/look_train_6x.py
"""

import collections
import statistics
import sys
from pathlib import Path

import cv2

from companion.vision.evaluate import despeckle, load_split, match
from companion.vision.reader import DiceReader, box_side, model_dir

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import passes_marked

cv2.setNumThreads(1)
data = Path("../shared/data/dice")
files = load_split(data, "train")["epanemu"]
names = sorted(files)[::8][:100]  # every 8th train photo outside dev
r = DiceReader(model_dir(), threads=1)
origin = passes_marked()
rows = []
stats = collections.Counter()
for fn in names:
    img = cv2.resize(
        despeckle(cv2.imread(str(data / "epanemu" / fn))),
        None,
        fx=6,
        fy=6,
        interpolation=cv2.INTER_LINEAR,
    )
    truth = [(v, tuple(6 * c for c in b)) for v, b in files[fn]]
    origin.clear()
    found = r.read(img)
    pairs = match(found, truth)
    m = {i for i, _ in pairs}
    sure = [
        box_side(found[i].box)
        for i in m
        if found[i].value is not None and origin.get(id(found[i])) == "whole"
    ]
    med = statistics.median(sure) if sure else None
    stats["photos"] += 1
    stats["dice"] += len(truth)
    stats["found"] += len(m)
    for i, d in enumerate(found):
        o = origin.get(id(d))
        if i in m:
            if o == "tile":
                stats["tile_true"] += 1
                rows.append(("true", fn, box_side(d.box), med, d.value, round(d.confidence, 2)))
            continue
        stats[f"false_{o}"] += 1
        rows.append(("false", fn, box_side(d.box), med, d.value, round(d.confidence, 2), o))
print(dict(stats))
for row in rows:
    print(row[0], row[1][:22], "side", row[2], "median sure die", row[3], row[4:])
