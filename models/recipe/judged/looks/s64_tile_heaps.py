"""Session 64's look (decides nothing): how many dice a 1024 px tile of a phone-size photo
of a heap holds, against the 60 a tile's pass keeps (``decode``'s max_dice), on rendered
heaps at design seeds (judging nothing). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s64_tile_heaps.py
"""

import numpy as np

from companion.vision import scenes
from companion.vision.evaluate import match
from companion.vision.pictures import neutral
from companion.vision.reader import DiceReader
from companion.vision.tiles import TILE, tile_starts


def main() -> None:
    reader = DiceReader()
    for seed, count, sizes in [(119860, 150, (60, 100)), (119861, 250, (60, 100))]:
        img, dice = scenes.scene(
            np.random.default_rng(seed), 3000, 4000, count=count, size_range=sizes
        )
        look = neutral(img)
        most = max(
            len(reader.detect(look[y0 : y0 + TILE, x0 : x0 + TILE], max_dice=1000))
            for y0 in tile_starts(3000)
            for x0 in tile_starts(4000)
        )
        found = reader.read(img)
        pairs = match(found, [(d.face.label, d.box) for d in dice])
        right = sum(found[i].face == dice[j].face.label for i, j in pairs)
        print(
            f"seed {seed}: {len(dice)} dice of {sizes[0]} to {sizes[1]} px in 4000x3000; "
            f"most peaks in a tile {most}; read {len(found)}, right {right}"
        )


if __name__ == "__main__":
    main()
