"""models/recipe/samples.py's --mosaic: a detector sample cut from four train photos at half
size, side by side, whose boxes must still surround their dice.

Training only: it needs the `train` extra (PyTorch), which `make test-training` installs.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")


def photo(h, w, box, colour):
    """A grey photo with one coloured square die at ``box``."""
    img = np.full((h, w, 3), 60, np.uint8)
    x0, y0, x1, y1 = box
    img[y0:y1, x0:x1] = colour
    return img, [(3, box, True)]


def test_each_die_of_a_mosaic_is_boxed_where_it_lies(samples):
    colours = [(0, 0, 255), (0, 255, 0), (255, 0, 0), (0, 255, 255)]
    photos = [
        photo(640, 640, (400, 100, 480, 180), colours[0]),
        photo(480, 640, (40, 300, 120, 380), colours[1]),
        photo(640, 480, (200, 480, 280, 560), colours[2]),
        photo(640, 640, (560, 560, 640, 640), colours[3]),
    ]
    rendered = photo(512, 512, (0, 0, 64, 64), (255, 255, 255))
    rng = np.random.default_rng(0)
    for _ in range(12):
        img, dice = samples.mosaic_photo(rng, [*photos, rendered], 4, 512)
        assert img.shape == (512, 512, 3) and len(dice) == 4
        assert not (img == 255).all(axis=2).any(), "a rendered photo is not a real one"
        for _, box, known in dice:
            x0, y0, x1, y1 = np.round(box).astype(int)
            assert known and 0 <= x0 < x1 <= 512 and 0 <= y0 < y1 <= 512
            # half size: each photo's longer side 640 px to 256, so its 80 px die to 32
            assert 30 <= x1 - x0 <= 34 and 30 <= y1 - y0 <= 34
            inside = img[y0 + 3 : y1 - 3, x0 + 3 : x1 - 3].reshape(-1, 3)
            assert (inside != 60).any(axis=1).all(), "the box must lie on its die"
            colour = inside[len(inside) // 2]
            assert any((abs(colour.astype(int) - c) < 30).all() for c in colours)
