"""A look after C39 shipped (session 56; decides nothing, judges no candidate): in 3x3 and
4x4 mosaics of already-judged epanemu photos (every eighth train photo outside dev from the
fifth, C37's condition (d); despeckled, 640 px a photo), what the reader's boxes on no
labelled die are: each box's side against the nearest labelled die's, how much of a
labelled die it covers, and whether a labelled die under it was missed. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s56_mosaic_boxes.py ../shared/data/dice
"""

import collections
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import passes_marked

from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader, box_side, centre_inside, model_dir


def mosaics(data: Path, n: int):
    files = load_split(data, "train")["epanemu"]
    return judging.mosaics(data, sorted(files)[4::8][:99], n)


def overlap(a, b) -> float:
    """The share of box ``b`` that box ``a`` covers."""
    w = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    return w * h / max(1, (b[2] - b[0]) * (b[3] - b[1]))


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    kinds = collections.Counter()
    for n in (3, 4):
        for img, truth in mosaics(data, n):
            origin.clear()
            found = reader.read(img)
            pairs = match(found, truth)
            matched = {i for i, _ in pairs}
            labelled = {j for _, j in pairs}
            for i, d in enumerate(found):
                if i in matched:
                    continue
                where = origin.get(id(d), "whole")
                cover = [(overlap(d.box, b), j) for j, (_, b) in enumerate(truth)]
                best, j = max(cover) if cover else (0.0, None)
                if best > 0.5:
                    side = box_side(d.box) / box_side(truth[j][1])
                    missed = j not in labelled
                    kind = f"{where}: on a labelled die ({'missed' if missed else 'found too'})"
                    print(n, kind, f"side x{side:.2f}", f"covers {best:.2f}", d.face)
                else:
                    inside = sum(centre_inside(b, d.box) for _, b in truth)
                    kind = f"{where}: on no labelled die ({inside} labelled centres inside)"
                    print(n, kind, "side", int(box_side(d.box)), d.face)
                kinds[kind] += 1
            missed = len(truth) - len(labelled)
            kinds["labelled dice"] += len(truth)
            kinds["labelled dice missed"] += missed
    for k, v in sorted(kinds.items()):
        print(f"{v:5d}  {k}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
