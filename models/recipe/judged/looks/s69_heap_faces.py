"""Session 69's look (decides nothing): after C51, which of a dense heap's dice are still
lost, by what they show? Session 68's annotated judging heap (seed 110941) left many light
dice showing a 1 (one big dark pip) unread. Each labelled die is counted as read right,
misread, or lost (by the step of session 67's look that lost it), by its face (kind and
value) and by how light its body is (the median grey of its box: light over 150, dark under
90). Rendered heaps as session 65's look makes them, at design seeds 120184 to 120191
(judging nothing). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s69_heap_faces.py
"""

import collections
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from s65_dense_heaps import heap
from s67_heap_misses import Watched, where_lost

from companion.vision.evaluate import match

SEEDS = range(120184, 120192)


def body(grey: np.ndarray, box) -> str:
    x0, y0, x1, y1 = (int(v) for v in box)
    m = float(np.median(grey[y0:y1, x0:x1]))
    return "light" if m > 150 else "dark" if m < 90 else "mid"


def look(seed: int):
    cv2.setNumThreads(1)
    img, truth = heap(seed)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    reader = Watched(threads=1)
    found = reader.read(img)
    pairs = match(found, truth)
    of = {j: i for i, j in pairs}
    boxes_of = {i: truth[j][1] for i, j in pairs}
    rows = []
    for j, (label, box) in enumerate(truth):
        if j in of:
            d = found[of[j]]
            # the face the classifier saw: a dot die's value is its colour's number
            what = "unsure" if d.value is None else "right" if d.face == str(label) else "misread"
        else:
            what = "lost: " + where_lost(reader, box, found, boxes_of)
        rows.append((str(label), body(grey, box), what))
    return seed, rows


def main() -> None:
    by_face = collections.defaultdict(collections.Counter)
    by_body = collections.defaultdict(collections.Counter)
    by_both = collections.defaultdict(collections.Counter)
    lost_why = collections.Counter()
    with Pool(2) as pool:
        for seed, rows in pool.imap(look, SEEDS):
            c = collections.Counter(w.split(":")[0] for _, _, w in rows)
            print(f"heap {seed}: {len(rows)} dice, {dict(c)}", flush=True)
            for label, shade, what in rows:
                kind = "right" if what == "right" else what.split(":")[0]
                by_face[label][kind] += 1
                by_body[shade][kind] += 1
                by_both[(shade, label)][kind] += 1
                if what.startswith("lost"):
                    lost_why[(shade, label, what[6:])] += 1

    def show(title, table):
        print(title)
        for k in sorted(table, key=str):
            t = table[k]
            n = sum(t.values())
            print(
                f"  {k}: {n} dice, right {t['right']} ({100 * t['right'] / n:.1f}%), "
                f"lost {t['lost']}, misread {t['misread']}, unsure {t['unsure']}"
            )

    show("by face", by_face)
    show("by body", by_body)
    show("by body and face", by_both)
    print("lost, by body, face and step")
    for k, n in lost_why.most_common(25):
        print(f"  {k}: {n}")


if __name__ == "__main__":
    main()
