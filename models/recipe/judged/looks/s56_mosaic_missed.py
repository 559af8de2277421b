"""A look after C39 shipped (session 56; decides nothing, judges no candidate): the labelled
dice the reader misses in s56_mosaic_boxes.py's mosaics, each with where the tile pass lost
it, its steps done again here as ``DiceReader._small_dice`` does them: no tile peak on it;
its tile boxes all cut by a tile's edge or too big (SMALL); the box's centre in a die the
whole-picture pass found, or in a hotter tile box taken before; read not a die, or unsure;
not found again (C39); or kept and still not matched to the label. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s56_mosaic_missed.py ../shared/data/dice
"""

import collections
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import passes_marked
from s56_mosaic_boxes import mosaics

from companion.vision.boxes import same_die as _same  # reader.py's _same until session 63
from companion.vision.evaluate import match
from companion.vision.reader import (
    DiceReader,
    centre_inside,
    model_dir,
    neutral,
)


def kept_boxes(boxes: list, found: list) -> tuple[list, dict]:
    """The tile boxes the tile pass reads (hottest first, none on a die already taken), and
    for each box it skips what it was skipped for."""
    kept, skipped = [], {}
    taken = [("whole", d.box) for d in found]
    for box, _, usable in sorted(boxes, key=lambda f: -f[1]):
        if not usable:
            skipped[box] = "cut by a tile's edge or too big"
            continue
        on = [k for k, t in taken if centre_inside(box, t) or _same(box, t)]
        if on:
            skipped[box] = f"on a {on[0]} box taken before"
            continue
        kept.append(box)
        taken.append(("tile", box))
    return kept, skipped


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    why = collections.Counter()
    origin = passes_marked()
    for n in (3, 4):
        for img, truth in mosaics(data, n):
            origin.clear()
            found = reader.read(img)
            labelled = {j for _, j in match(found, truth)}
            look = neutral(img)
            whole = [d for d in found if origin.get(id(d)) == "whole"]
            boxes = reader._tile_peaks(look)
            kept, skipped = kept_boxes(boxes, whole)
            for j, (label, box) in enumerate(truth):
                if j in labelled:
                    continue
                mine = [
                    b for b, _, _ in sorted(boxes, key=lambda f: -f[1]) if centre_inside(box, b)
                ]
                if not mine:
                    kind = "no tile peak"
                else:
                    ours = [b for b in kept if b in mine]
                    if not ours:
                        kind = skipped[mine[0]]  # the hottest tile box on the die
                    else:
                        b = ours[0]
                        (die,) = reader.read_boxes(img, [b]) or [None]
                        kind = (
                            "read not a die"
                            if die is None
                            else "read unsure"
                            if die.value is None
                            else "not found again (C39)"
                            if not reader._found_again(look, b)
                            else "kept, not matched to the label"
                        )
                why[kind] += 1
                print(n, label, box, kind)
    for k, v in sorted(why.items()):
        print(f"{v:5d}  {k}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
