"""Session 74's look (decides nothing), after C57: at 6x the shipped reader still gives
1,162 boxes on no labelled die in the epanemu train photos (``s73_speck_bound_min.py``),
tile dice at a quarter or more of the smallest die the whole-picture pass read with a face.
What tells them from the tile dice that are real? For every epanemu train photo outside
dev at 6x (never a judged split), in two halves, one a process: each die the tile pass
adds (a die of the result that the whole-picture pass did not give), as read right,
misread (on a labelled die, another value) or on no labelled die, by its side against the
smallest whole-picture die read with a face, its heat (the detector's peak), the
classifier's confidence, and whether the detector finds it again with the die at 64 px
and at 96 px at its input (``tiles.AGAIN`` is 40). The same for the tile dice of pictures
whose small dice are real, on design seeds: heaps 120692 to 120707, shots, big dice and
huge dice 120708 to 120767, and the matteop65 train photos at 6x ("rest"); and the tile
dice of real photos whose dice are small in a big picture: 3x3 mosaics of the epanemu and
of the matteop65 train photos outside dev, each photo at 2x, 40 and 32 mosaics ("mosaics":
at 3840 px the tile pass reads a die under 154 px, most of their dice, each seen at about
its own size). Run from the repository's root, the half (0 or 1), "rest" or "mosaics" as
the second argument:
    .venv/bin/python models/recipe/judged/looks/s74_tile_specks.py ../shared/data/dice 0
"""

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
from judging import earlier_judge
from s65_dense_heaps import heap
from s66_clumps_cover import enlarged_train

from companion.vision.boxes import box_side
from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader

RATIOS = (0.35, 0.5, 0.7, 1.0)
HEATS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
CONFIDENCES = (0.9, 0.99, 0.999)


def band(x: float | None, edges: tuple) -> str:
    """The band of ``edges`` that ``x`` falls in."""
    if x is None:
        return "none"
    low = "0"
    for high in edges:
        if x < high:
            return f"{low}-{high}"
        low = str(high)
    return f"{low}+"


class Recording(DiceReader):
    """The shipped reader, keeping the tile pass's dice and the smallest whole-picture die
    read with a face of its last picture."""

    def _small_dice(self, img, look, dice):
        result = super()._small_dice(img, look, dice)
        sides = [box_side(d.box) for d, _ in dice if d.value is not None]
        self.smallest = min(sides) if sides else None
        whole = {id(d) for d, _ in dice}
        self.added = [(d, h, look) for d, h in result if id(d) not in whole]
        return result


def again_at(reader: Recording, look, box, px: int) -> bool:
    """``_found_again`` with the die at ``px`` at the detector's input (the size it takes
    since C58; when the look ran, at b78f62b, it set ``tiles.AGAIN`` for the call)."""
    return reader._found_again(look, box, px)


def mosaics(data: Path, name: str, count: int, split: str = "train"):
    """``count`` mosaics of 3x3 of ``name``'s ``split`` photos (train: outside dev), each at
    2x, with their dice (label, box)."""
    files = load_split(data, split)[name]
    names = sorted(files)
    for m in range(count):
        rows, truth = [], []
        for r in range(3):
            row = []
            for c in range(3):
                fn = names[m + count * (3 * r + c)]  # spread over the set
                img = cv2.resize(cv2.imread(str(data / name / fn)), None, fx=2, fy=2)
                h, w = img.shape[:2]
                row.append(img)
                for v, box in files[fn]:
                    x0, y0, x1, y1 = (2 * k for k in box)
                    truth.append((str(v), (x0 + c * w, y0 + r * h, x1 + c * w, y1 + r * h)))
            rows.append(np.hstack(row))
        yield f"{name} mosaic {m}", np.vstack(rows), truth


def pictures(data: Path, which: str):
    """(name, picture, truth): one half of the epanemu train photos at 6x, the rest, or the
    mosaics."""
    if which == "mosaics":
        yield from mosaics(data, "epanemu", 40)
        yield from mosaics(data, "matteop65", 32)
        return
    if which != "rest":
        names = sorted(load_split(data, "train")["epanemu"])
        for i, (img, truth) in enumerate(enlarged_train(data, "epanemu", len(names))):
            if i % 2 == int(which):
                yield names[i], img, truth
        return
    shots = earlier_judge("c36").shots
    for s in range(120692, 120708):
        yield f"heap {s}", *heap(s)
    sets = (
        shots(range(120708, 120728), 3000, 4000, (3, 13), (40, 125), lambda s: 6 * (s % 2)),
        shots(range(120728, 120748), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
        shots(range(120748, 120768), 3000, 4000, (2, 5), (320, 640), lambda s: 8),
    )
    for first, made in zip((120708, 120728, 120748), sets, strict=True):
        for s, (img, truth) in enumerate(made, first):
            yield f"shot {s}", img, truth
    names = sorted(load_split(data, "train")["matteop65"])
    for name, (img, truth) in zip(
        names, enlarged_train(data, "matteop65", len(names)), strict=True
    ):
        yield f"matteop65 {name}", img, truth


def main(data: Path, which: str) -> None:
    cv2.setNumThreads(1)
    reader = Recording(threads=1)
    counts = {k: Counter() for k in ("ratio", "heat", "confidence", "again 64", "again 96")}
    kinds = Counter()
    rows = []
    for name, img, truth in pictures(data, which):
        reader.added = []
        reader.smallest = None
        found = reader.read(img)
        pairs = dict(match(found, truth))
        for d, heat, look in reader.added:
            k = next(n for n, f in enumerate(found) if f is d)
            if k not in pairs:
                kind = "no die"
            else:
                kind = "right" if str(d.value) == str(truth[pairs[k]][0]) else "misread"
            ratio = box_side(d.box) / reader.smallest if reader.smallest else None
            # found-again is measured in the analysis picture, where the tile pass boxed it
            scale = look.shape[1] / img.shape[1]
            box = tuple(round(c * scale) for c in d.box)
            a64, a96 = again_at(reader, look, box, 64), again_at(reader, look, box, 96)
            kinds[kind] += 1
            counts["ratio"][(kind, band(ratio, RATIOS))] += 1
            counts["heat"][(kind, band(heat, HEATS))] += 1
            counts["confidence"][(kind, band(d.confidence, CONFIDENCES))] += 1
            counts["again 64"][(kind, a64)] += 1
            counts["again 96"][(kind, a96)] += 1
            rows.append((name, kind, ratio, heat, d.confidence, a64, a96))
    print(f"{which}: tile dice {dict(kinds)}")
    for name, c in counts.items():
        print(f"  {name}:")
        for key in sorted({b for _, b in c}, key=str):
            print(f"    {key}: " + ", ".join(f"{k} {c[(k, key)]}" for k in kinds))
    for name, kind, ratio, heat, conf, a64, a96 in rows:
        r = "none" if ratio is None else f"{ratio:.2f}"
        print(f"  {name} {kind} ratio {r} heat {heat:.2f} conf {conf:.4f} a64 {a64} a96 {a96}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
