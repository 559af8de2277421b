"""Session 65's look (decides nothing): a dense heap of small dice in a phone-size picture.
Does the tile pass lose dice to its 60 a tile (``decode``'s max_dice), and what else loses
them? Rendered heaps at design seeds 120000 to 120005 (judging nothing): up to 320 dice of
40 to 60 px (1 to 1.5% of the picture's side) placed in a 1400 px square, pasted into a
rendered 4000x3000 table with a few dice of 60 to 90 px. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s65_dense_heaps.py
"""

import time

import numpy as np

from companion.vision import scenes
from companion.vision.evaluate import match
from companion.vision.pictures import neutral
from companion.vision.reader import DiceReader
from companion.vision.tiles import TILE, tile_starts

SIDE = 1400


def heap(seed: int) -> tuple[np.ndarray, list]:
    """The picture and its dice (label, box) of the heap at ``seed``."""
    rng = np.random.default_rng(seed)
    table, few = scenes.scene(rng, 3000, 4000, count=6, size_range=(60, 90))
    patch, dice = scenes.scene(rng, SIDE, SIDE, count=320, size_range=(40, 60))
    y0, x0 = int(rng.integers(0, 3000 - SIDE)), int(rng.integers(0, 4000 - SIDE))
    clear = [
        d
        for d in few
        if d.box[2] < x0 or d.box[0] > x0 + SIDE or d.box[3] < y0 or d.box[1] > y0 + SIDE
    ]
    table[y0 : y0 + SIDE, x0 : x0 + SIDE] = patch
    truth = [(d.face.label, d.box) for d in clear]
    truth += [
        (d.face.label, (b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0)) for d in dice for b in [d.box]
    ]
    return table, truth


class TilesUncapped(DiceReader):
    """The shipped reader with a tile's detector run keeping up to 200 dice, not 60."""

    def _tile_peaks(self, look):
        detect = self.detect
        self.detect = lambda img, *a, **k: detect(img, *a, **{**k, "max_dice": 200})
        try:
            return super()._tile_peaks(look)
        finally:
            del self.detect


def side(box) -> int:
    return max(box[2] - box[0], box[3] - box[1])


def main() -> None:
    readers = {"shipped": DiceReader(), "tiles uncapped": TilesUncapped()}
    for seed in range(120000, 120006):
        img, truth = heap(seed)
        look = neutral(img)
        most = max(
            len(readers["shipped"].detect(look[y : y + TILE, x : x + TILE], max_dice=1000))
            for y in tile_starts(3000)
            for x in tile_starts(4000)
        )
        print(f"seed {seed}: {len(truth)} dice; most peaks in a 1024 px tile {most}")
        for name, reader in readers.items():
            t = time.perf_counter()
            found = reader.read(img)
            took = time.perf_counter() - t
            pairs = match(found, truth)
            right = sum(found[i].face == truth[j][0] for i, j in pairs)
            wrong = [(i, j) for i, j in pairs if found[i].face != truth[j][0]]
            # a box twice its die's side or more holds a clump of dice, boxed as one
            clumps = [i for i, j in pairs if side(found[i].box) >= 2 * side(truth[j][1])]
            sure_wrong = [i for i, j in wrong if found[i].value is not None]
            print(
                f"  {name}: read {len(found)}, right {right}, missed {len(truth) - len(pairs)}, "
                f"boxes on no die {len(found) - len(pairs)}; read wrong {len(wrong)} "
                f"({len(sure_wrong)} with a face), of them boxes over a clump of dice "
                f"{sum(i in clumps for i, _ in wrong)}; {took:.1f} s"
            )


if __name__ == "__main__":
    main()
