"""C39's look before its rule (decides nothing): each die the shipped tile pass keeps, true or
false, found again in a window around it sized so that the die is K px at the detector's
input. Pictures: C37's condition (d) (every eighth epanemu train photo outside dev from the
fifth, despeckled, at 6x; already judged), C37's look's rendered one-set shots (93000 to
93059), and 3x3 and 4x4 mosaics of those epanemu photos (real small dice in a big picture).
Run from the repository's root, K and the window's edge ("clip": cut at the picture's
edges; "rep": padded with the edge's pixels; else padded with black):
    .venv/bin/python models/recipe/judged/c39/look_before.py ../shared/data/dice 40 clip
"""

import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import passes_marked

from companion.vision.evaluate import despeckle, load_split, match
from companion.vision.reader import DETECT_SIZE, DiceReader, box_side, model_dir

spec = importlib.util.spec_from_file_location(
    "judge_c37", Path(__file__).parent.parent / "c37" / "judge.py"
)
j = importlib.util.module_from_spec(spec)
spec.loader.exec_module(j)
cv2.setNumThreads(1)
R = DiceReader(model_dir(), threads=1)
origin = passes_marked()
K = float(sys.argv[2]) if len(sys.argv) > 2 else 40.0
PAD = sys.argv[3] if len(sys.argv) > 3 else "rep"


def redetect(img, box):
    """The hottest peak found again on the die in ``box`` (0.0 for none)."""
    s = box_side(box)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    side = round(s * DETECT_SIZE / K)
    half = side / 2
    h, w = img.shape[:2]
    x0, y0 = round(cx - half), round(cy - half)
    left, top = max(0, -x0), max(0, -y0)
    right, bottom = max(0, x0 + side - w), max(0, y0 + side - h)
    win = img[max(0, y0) : min(h, y0 + side), max(0, x0) : min(w, x0 + side)]
    if PAD == "clip":
        x0, y0 = max(0, x0), max(0, y0)
    else:
        edge = cv2.BORDER_REPLICATE if PAD == "rep" else cv2.BORDER_CONSTANT
        win = cv2.copyMakeBorder(win, top, bottom, left, right, edge)
    best = 0.0
    for bb, heat in R.detect(win, 0.05):
        bb = (bb[0] + x0, bb[1] + y0, bb[2] + x0, bb[3] + y0)
        bc = ((bb[0] + bb[2]) / 2, (bb[1] + bb[3]) / 2)
        if np.hypot(bc[0] - cx, bc[1] - cy) < 0.6 * s and 0.6 < box_side(bb) / s < 1.6:
            best = max(best, heat)
    return best


def mosaics(data, n=3):
    files = load_split(data, "train")["epanemu"]
    fns = sorted(files)[4::8][:99]
    for k in range(0, len(fns) - n * n + 1, n * n):
        truth = []
        canvas = np.zeros((640 * n, 640 * n, 3), np.uint8)
        for i, fn in enumerate(fns[k : k + n * n]):
            img = despeckle(cv2.imread(str(data / "epanemu" / fn)))
            r, c = divmod(i, n)
            canvas[r * 640 : (r + 1) * 640, c * 640 : (c + 1) * 640] = img
            truth += [
                (str(v), (b[0] + c * 640, b[1] + r * 640, b[2] + c * 640, b[3] + r * 640))
                for v, b in files[fn]
            ]
        yield canvas, truth


data = Path(sys.argv[1])
sources = {
    "epanemu6x": lambda: j.train_at_6x(data, "epanemu", clean=True),
    "rendered": lambda: j.one_set(range(93000, 93060)),
    "mosaic3": lambda: mosaics(data, 3),
    "mosaic4": lambda: mosaics(data, 4),
}
for name, gen in sources.items():
    rows = []
    for img, truth in gen():
        origin.clear()
        found = R.read(img)
        matched = {i for i, _ in match(found, truth)}
        for i, d in enumerate(found):
            where = origin.get(id(d), "whole")
            if where != "tile" and i in matched:
                continue
            rows.append((where, i in matched, round(redetect(img, d.box), 2)))
            if where == "tile" and i in matched and rows[-1][2] < 0.2:
                print("   lost", name, d.box, img.shape[:2], d.face)
    print(name)
    for where in ("tile", "whole"):
        for ok in (True, False):
            hs = sorted(h for w_, m, h in rows if w_ == where and m == ok)
            if hs:
                print(f"  {where} {'true' if ok else 'false'} n={len(hs)} heats={hs}")
    sys.stdout.flush()
