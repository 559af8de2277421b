"""Session 73's look (decides nothing), after session 72's design ``s72_speck_bound.py``: a
tile peak taken only at SPECK times the median side of the whole-picture dice read with a
face cut the boxes on no die at 6x by three quarters, but lost dice in heaps, where the
whole-picture pass boxes clumps of small dice as one die read with a face and so raises
the median. Which measure of a table's dice do clumps not raise? For each design picture
the shipped reader (C55) reads, this writes one JSON line: the sides of the whole-picture
pass's dice read with a face (before the tile pass), with how many labelled dice each holds
the centre of (known only here, for the look) and whether it stayed (a clump gives way),
and each die the tile pass put in with its side and whether it is right, a confident
misread or on no labelled die.
Design seeds only: heaps 120616 to 120631, shots, big and huge dice 120632 to 120691, and
every epanemu and matteop65 train photo at 6x. Run from the repository's root, the part
(0: the rendered pictures and matteop65, 1 and 2: the epanemu halves) as the second
argument, the JSON lines to standard output:
    .venv/bin/python models/recipe/judged/looks/s73_table_die_size.py ../shared/data/dice 0
Then, with ``--tally`` and the JSON files, how many of the tile pass's dice each measure
of the table's dice would leave out at a few SPECK values, by set and by what they are
(right, a confident misread, on no labelled die); clump and tile dice interact, so this
is a guide to the design, not its figures:
    .venv/bin/python models/recipe/judged/looks/s73_table_die_size.py --tally part0.jsonl ...
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
from judging import earlier_judge
from s65_dense_heaps import heap
from s66_clumps_cover import enlarged_train

from companion.vision.boxes import box_side, centre_inside
from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader


class Watched(DiceReader):
    """The shipped reader, keeping the whole-picture dice and the tile pass's result."""

    def _small_dice(self, img, look, dice):
        self.whole = [d for d, _ in dice if d.value is not None]
        result = super()._small_dice(img, look, dice)
        self.tile = [d for d, _ in result if not any(d is w for w, _ in dice)]
        self.stayed = {id(d) for d, _ in result}
        return result


def pictures(data: Path, part: int):
    """(set name, picture, truth) of the part's design pictures."""
    if part == 0:
        shots = earlier_judge("c36").shots
        s = 120632
        yield from (("heaps", *heap(k)) for k in range(120616, 120632))
        for name, made in (
            (
                "shots",
                shots(range(s, s + 20), 3000, 4000, (3, 13), (40, 125), lambda k: 6 * (k % 2)),
            ),
            ("big dice", shots(range(s + 20, s + 40), 3000, 4000, (2, 7), (160, 320), lambda k: 8)),
            (
                "huge dice",
                shots(range(s + 40, s + 60), 3000, 4000, (2, 5), (320, 640), lambda k: 8),
            ),
            ("matteop65 x6", enlarged_train(data, "matteop65", 1000)),
        ):
            yield from ((name, img, truth) for img, truth in made)
        return
    count = len(load_split(data, "train")["epanemu"])
    for i, (img, truth) in enumerate(enlarged_train(data, "epanemu", count)):
        if i % 2 == part - 1:
            yield "epanemu x6", img, truth


def main(data: Path, part: int) -> None:
    cv2.setNumThreads(1)
    reader = Watched(threads=1)
    for name, img, truth in pictures(data, part):
        found = reader.read(img)
        pairs = dict(match(found, truth))
        status = {}
        for k, d in enumerate(found):
            j = pairs.get(k)
            status[id(d)] = "none" if j is None else "right" if d.face == truth[j][0] else "wrong"
        row = {
            "set": name,
            "truth": [float(box_side(b)) for _, b in truth],
            "whole": [
                [
                    float(box_side(d.box)),
                    sum(centre_inside(b, d.box) for _, b in truth),
                    id(d) in reader.stayed,
                ]
                for d in reader.whole
            ],
            "tile": [[float(box_side(d.box)), status[id(d)]] for d in reader.tile],
        }
        print(json.dumps(row), flush=True)


def _measure(how: str, whole: list) -> float | None:
    """The measure ``how`` of a picture's whole-picture dice (side, labelled dice held,
    stayed), or None where it has none to measure."""
    sides = [s for s, _, stayed in whole if stayed or how.endswith("all")]
    if not sides:
        return None
    if how.startswith("median"):
        return float(np.median(sides))
    if how.startswith("p25"):
        return float(np.percentile(sides, 25))
    return min(sides)


def tally(files: list[str]) -> None:
    rows = [json.loads(line) for f in files for line in Path(f).read_text().splitlines()]
    shipped = defaultdict(Counter)
    for r in rows:
        shipped[r["set"]].update(st for _, st in r["tile"])
    print("tile dice as shipped:", {k: dict(v) for k, v in sorted(shipped.items())})
    for how in ("median all", "p25 all", "min all", "median stayed", "min stayed"):
        for speck in (0.25, 0.33, 0.4, 0.5):
            out = defaultdict(Counter)
            for r in rows:
                m = _measure(how, r["whole"])
                if m is not None:
                    out[r["set"]].update(st for s, st in r["tile"] if s < speck * m)
            print(f"{how:14s} {speck}: left out", {k: dict(v) for k, v in sorted(out.items())})


if __name__ == "__main__":
    if sys.argv[1] == "--tally":
        tally(sys.argv[2:])
    else:
        main(Path(sys.argv[1]), int(sys.argv[2]))
