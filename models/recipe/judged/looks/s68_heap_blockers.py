"""Session 68's look (decides nothing): after C50, what keeps a dense heap's missed dice out?
Session 67's look put 41 of 63 missed dice at "its peaks left unread, beside another box":
no tile peak on the die was read, since a box taken before it (a die of the whole-picture
pass, or a tile peak kept earlier) held its centre or lay within ``same_die`` of it. For
each such die this look names the box that kept out its hottest small peak: which pass took
it, how (its centre held, or only ``same_die``), what became of it (stayed to the end, gave
way, read unsure, not found again) and how many labelled dice its box holds the centres of.
Rendered heaps as session 65's look makes them, at design seeds 120118 to 120123 (judging
nothing). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s68_heap_blockers.py
"""

import collections
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
from s65_dense_heaps import heap
from s67_heap_misses import Watched, where_lost

from companion.vision.boxes import box_side, centre_inside, same_die
from companion.vision.evaluate import match

SEEDS = range(120118, 120124)
BESIDE = "its peaks left unread, beside another box"


class Blocked(Watched):
    """Session 67's watched reader, keeping also the tile pass's first reads (the kept
    peaks) and the dice it began with (the whole-picture pass's, after C40)."""

    def read(self, img):
        self.kept, self.tile_reads, self.whole, self.tiling = None, set(), None, False
        return super().read(img)

    def _small_dice(self, img, look, dice):
        self.tiling = True
        return super()._small_dice(img, look, dice)

    def _read_each(self, img, boxes):
        got = super()._read_each(img, boxes)
        if self.tiling and self.kept is None:
            self.kept = [tuple(b) for b in boxes]
            self.tile_reads = {id(d) for d in got if d is not None}
        return got

    def _clumps_give_way(self, img, look, dice, found):
        self.whole = [tuple(d.box) for d, _ in dice if id(d) not in self.tile_reads]
        return super()._clumps_give_way(img, look, dice, found)


def blockers(reader: Blocked) -> dict:
    """Each small tile peak left unread, and the box (a whole-picture die or a tile peak)
    that kept it out, as the tile pass's keeping loop meets them."""
    found = [(box, heat) for box, heat, small in reader.peaks if small]
    taken = [("whole", b) for b in reader.whole]
    kept, out = [], {}
    for box, _ in sorted(found, key=lambda f: -f[1]):
        by = next((t for t in taken if centre_inside(box, t[1]) or same_die(box, t[1])), None)
        if by is None:
            kept.append(box)
            taken.append(("tile", box))
        else:
            how = "centre held" if centre_inside(box, by[1]) else "same_die only"
            out[box] = (by, how)
    assert kept == reader.kept, "the look's keeping loop is not the reader's"
    return out


def fate(reader: Blocked, by, found) -> str:
    kind, box = by
    if any(tuple(d.box) == box for d in found):
        return "stayed to the end"
    if kind == "whole":
        return "gave way or was dropped"
    d = reader.reads.get(box)
    if d is None or d.value is None:
        return "read unsure"
    if not reader.again.get(tuple(d.box)):
        return "not found again"
    return "read, found again, then lost"


def look(seed: int):
    cv2.setNumThreads(1)
    img, truth = heap(seed)
    reader = Blocked(threads=1)
    found = reader.read(img)
    pairs = match(found, truth)
    on = {j for _, j in pairs}
    boxes_of = {i: truth[j][1] for i, j in pairs}
    out = blockers(reader)
    rows = []
    for j, (_, box) in enumerate(truth):
        if j in on or where_lost(reader, box, found, boxes_of) != BESIDE:
            continue
        peaks = [(p, h) for p, h, small in reader.peaks if small and centre_inside(p, box)]
        hottest = max(peaks, key=lambda p: p[1])[0]
        by, how = out[hottest]
        held = sum(centre_inside(t[1], by[1]) for t in truth)
        ratio = box_side(by[1]) / box_side(box)
        rows.append((by[0], how, fate(reader, by, found), held, ratio))
    return seed, rows


def main() -> None:
    allrows = []
    with Pool(2) as pool:
        for seed, rows in pool.imap(look, SEEDS):
            print(f"heap {seed}: {len(rows)} dice kept out beside another box", flush=True)
            for row in rows:
                print(
                    f"  by a {row[0]} box, {row[1]}, {row[2]}; it holds {row[3]} dice' "
                    f"centres, {row[4]:.1f}x the die's side",
                    flush=True,
                )
            allrows += rows
    print(f"all: {len(allrows)} dice kept out beside another box")
    for key, n in collections.Counter((r[0], r[1], r[2]) for r in allrows).most_common():
        print(f"  by a {key[0]} box, {key[1]}, {key[2]}: {n}")
    print("  dice' centres the box holds:", dict(collections.Counter(r[3] for r in allrows)))


if __name__ == "__main__":
    main()
