"""Session 67's look (decides nothing): after C50, where does a dense heap of small dice in a
phone-size picture lose the dice it does not find? Each labelled die no reading lies on is
put at the first step of the tile pass that lost it: no tile peak centred on it; its peaks
all cut by a tile's edge or too big; its peaks never read, their centres in no reading at
the end ("beside another box": a box taken before them, a die found that later gave way or
a neighbour within ``same_die``, kept them out) or under a reading of another die or of no
die; read unsure; read with a face but not found again. Rendered heaps as session 65's look
makes them, at design seeds 120112 to 120117 (judging nothing). Run from the repository's
root:
    .venv/bin/python models/recipe/judged/looks/s67_heap_misses.py
"""

import collections
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
from s65_dense_heaps import heap

from companion.vision.boxes import box_side, centre_inside
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader

SEEDS = range(120112, 120118)


class Watched(DiceReader):
    """The shipped reader, keeping what its tile pass saw, read and found again."""

    def read(self, img):
        self.peaks, self.reads, self.again = [], {}, {}
        return super().read(img)

    def _tile_peaks(self, look):
        self.peaks = super()._tile_peaks(look)
        return self.peaks

    def _read_each(self, img, boxes):
        got = super()._read_each(img, boxes)
        self.reads.update({tuple(b): d for b, d in zip(boxes, got, strict=True)})
        return got

    def _found_again(self, look, box):
        self.again[tuple(box)] = again = super()._found_again(look, box)
        return again


def where_lost(reader: Watched, box, found, boxes_of) -> str:
    """The first step of the tile pass that lost the labelled die at ``box``; ``found``, the
    readings, and ``boxes_of``, the labelled box each reading lies on (None: on no die)."""
    peaks = [(p, small) for p, _, small in reader.peaks if centre_inside(p, box)]
    if not peaks:
        return "no tile peak on it"
    if not any(small for _, small in peaks):
        return "its peaks cut by a tile's edge or too big"
    read = [reader.reads[p] for p, small in peaks if small and p in reader.reads]
    if not read:
        over = [i for i, d in enumerate(found) if centre_inside(box, d.box)]
        if not over:
            return "its peaks left unread, beside another box"
        on = boxes_of.get(over[0])
        if on is None:
            return "its peaks left unread, under a reading on no die"
        ratio = box_side(found[over[0]].box) / box_side(on)
        return f"its peaks left unread, under another die's reading ({ratio:.1f}x its die)"
    faced = [d for d in read if d is not None and d.value is not None]
    if not faced:
        return "read unsure"
    if not any(reader.again.get(tuple(d.box)) for d in faced):
        return "read with a face, not found again"
    return "read, found again, then lost"


def look(seed: int):
    cv2.setNumThreads(1)
    img, truth = heap(seed)
    reader = Watched(threads=1)
    found = reader.read(img)
    pairs = match(found, truth)
    on = {j for _, j in pairs}
    boxes_of = {i: truth[j][1] for i, j in pairs}
    lost = collections.Counter()
    sides = collections.defaultdict(list)
    for j, (_, box) in enumerate(truth):
        if j not in on:
            why = where_lost(reader, box, found, boxes_of)
            lost[why] += 1
            sides[why].append(box_side(box))
    return seed, len(truth), len(found), lost, sides


def main() -> None:
    total = collections.Counter()
    sides = collections.defaultdict(list)
    with Pool(2) as pool:
        for seed, dice, found, lost, side in pool.imap(look, SEEDS):
            print(
                f"heap {seed}: {dice} dice, {found} readings, {sum(lost.values())} missed: "
                f"{dict(lost)}",
                flush=True,
            )
            total += lost
            for why, s in side.items():
                sides[why] += s
    print(f"all: {sum(total.values())} dice missed")
    for why, n in total.most_common():
        s = sorted(sides[why])
        print(f"  {why}: {n} (sides {s[0]} to {s[-1]} px, median {s[len(s) // 2]})")


if __name__ == "__main__":
    main()
