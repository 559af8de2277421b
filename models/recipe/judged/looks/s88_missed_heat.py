"""Session 88's look (decides nothing; no rule, no candidate): why the shipped reader misses
the labelled dice it misses, on photos it may be looked at on (never the held-out split).

For every epanemu photo of the split with a labelled die no box was matched to, each such
die is printed with its label, its side in px, and the detector's hottest cell within a
quarter of its side of its centre (the 512 px pass, as the reader runs it), banded: no
heat (under the faint threshold, 0.2), faint (0.2 up to the detection threshold, 0.4) or
strong. For a strong one, whether the heat map's decoding kept a box on it (and the reader
dropped or matched it elsewhere later) or took its peak for a second peak on a neighbour
(the same-die rule). Last, pairs of labels on one die (IoU over 0.5) in the labels of
each photo set and split: a label twice on one die is a miss no reader can avoid.

Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s88_missed_heat.py ../shared/data/dice train
"""

import csv
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from companion.vision.evaluate import load_split, match
from companion.vision.heat import STRIDE, _peaks, decode
from companion.vision.pictures import as_bgr, letterbox
from companion.vision.reader import STRIDE_COARSEST, DiceReader, model_dir


def iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def heat_map(reader: DiceReader, img: np.ndarray):
    boxed, scale = letterbox(as_bgr(img), reader.detect_size, STRIDE_COARSEST)
    feed = reader._detector_input(boxed[None])
    return reader._detector.run(None, {"image": feed})[0][0], scale


def missed(reader: DiceReader, data: Path, split: str) -> None:
    bands, strong = Counter(), Counter()
    for fn, truth in sorted(load_split(data, split)["epanemu"].items()):
        img = cv2.imread(str(data / "epanemu" / fn))
        found = reader.read(img)
        matched = {j for _, j in match(found, truth)}
        if len(matched) == len(truth):
            continue
        out, scale = heat_map(reader, img)
        kept = decode(out, reader.detect_threshold, scale, img.shape[:2], 200)
        _, cxs, cys, _, _ = _peaks(out, reader.detect_threshold, scale)
        for j, (value, (x0, y0, x1, y1)) in enumerate(truth):
            if j in matched:
                continue
            cx, cy, side = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0)
            r = max(1, int(0.25 * side * scale / STRIDE))
            mx, my = int(cx * scale / STRIDE), int(cy * scale / STRIDE)
            heat = float(out[0, max(0, my - r) : my + r + 1, max(0, mx - r) : mx + r + 1].max())
            band = "none" if heat < 0.2 else "faint" if heat < 0.4 else "strong"
            bands[band] += 1
            why = ""
            if band == "strong" and any(np.hypot(cxs - cx, cys - cy) < 0.25 * side):
                centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b, _ in kept]
                on_it = any(np.hypot(x - cx, y - cy) < 0.5 * side for x, y in centres)
                why = "kept by decode, lost after" if on_it else "taken for a neighbour's peak"
                strong[why] += 1
            print(f"  {fn[:26]} label {value} side {side} heat {heat:.2f} {band} {why}")
    print(f"{split}: missed dice by heat near the centre {dict(bands)}; strong ones {dict(strong)}")


def doubled_labels(data: Path) -> None:
    for labels in sorted(data.glob("*/labels.csv")):
        photos = defaultdict(list)
        with open(labels) as f:
            for row in csv.DictReader(f):
                box = tuple(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                photos[(row["split"], row["filename"])].append(box)
        twice = Counter()
        for (split, _), boxes in photos.items():
            pairs = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]]
            twice[split] += sum(iou(a, b) > 0.5 for a, b in pairs)
        print(f"{labels.parent.name}: labels twice on one die (IoU over 0.5) {dict(twice)}")


if __name__ == "__main__":
    data, split = Path(sys.argv[1]), sys.argv[2]
    if split == "heldout":
        raise SystemExit("a look is never taken on the held-out split")
    missed(DiceReader(model_dir(), threads=1), data, split)
    doubled_labels(data)
