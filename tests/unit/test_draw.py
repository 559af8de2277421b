"""The annotated picture (`companion read --annotate`, the watch preview): each die's tag
(value and confidence, black on the box's colour; the value alone where it would hide
another die or its tag) is drawn whole, wherever the die lies."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.reader import DieReading
from companion.vision.watch import draw

H, W = 480, 640


def text_extent(box) -> tuple[int, int, int, int]:
    """Rows and columns (first, last) of the tag's black text for one die read as a 3."""
    drawn = draw(np.full((H, W, 3), 255, np.uint8), [DieReading(box, 3, 0.91, "3")])
    black = np.all(drawn < 60, axis=2)
    rows, cols = np.nonzero(black.any(axis=1))[0], np.nonzero(black.any(axis=0))[0]
    assert len(rows), "no tag text drawn"
    return rows.min(), rows.max(), cols.min(), cols.max()


@pytest.mark.parametrize(
    "box",
    [
        (300, 200, 380, 280),  # in the open
        (420, 2, 500, 86),  # at the top edge
        (590, 200, 640, 260),  # at the right edge
        (100, 0, 180, H),  # as tall as the picture
        (0, 0, 60, 60),  # in the top left corner
    ],
)
def test_a_dies_tag_is_drawn_whole_inside_the_picture(box):
    top, bottom, left, right = text_extent(box)
    assert bottom - top >= 8, "the text is cut off"
    assert top > 0 and bottom < H - 1 and left > 0 and right < W - 1


def test_the_tag_sits_on_the_top_edge_of_a_box_with_room_above():
    top, bottom, left, _ = text_extent((300, 200, 380, 280))
    assert bottom < 200 and top > 200 - 30 and 300 <= left < 310


def test_the_tag_goes_under_a_die_at_the_top_edge_not_over_it():
    top, _, _, _ = text_extent((420, 2, 500, 86))
    assert top >= 86


def test_the_tag_of_a_die_at_the_right_edge_is_pulled_left_into_the_picture():
    _, _, left, right = text_extent((590, 200, 640, 260))
    assert right < W - 1 and left < 590


def black_columns(drawn, rows: slice, cols: slice) -> np.ndarray:
    """The columns (picture's) of ``cols`` with black text pixels in ``rows``."""
    black = np.all(drawn[rows, cols] < 60, axis=2).any(axis=0)
    return np.nonzero(black)[0] + (cols.start or 0)


def test_in_a_heap_a_tag_that_would_hide_a_die_beside_it_shows_the_value_alone():
    # The die at left would carry "3 0.91" on its top edge, over the die up and right of it:
    # its tag says "3" alone. A die with room beside it keeps its confidence.
    white = np.full((H, W, 3), 255, np.uint8)
    left, beside = DieReading((300, 200, 340, 240), 3, 0.91, "3"), (345, 170, 385, 210)
    alone = draw(white, [left])
    heap = draw(white, [left, DieReading(beside, 5, 0.97, "5")])
    rows, cols = slice(175, 199), slice(300, 345)  # the left die's tag, left of the other die
    full, short = black_columns(alone, rows, cols), black_columns(heap, rows, cols)
    assert full.max() > 335  # "3 0.91" runs on towards the other die
    assert short.max() < 320  # "3"
    # the other die's own tag, with room above it, keeps its confidence
    assert black_columns(heap, slice(145, 169), slice(345, 460)).max() > 375


def test_a_tag_inside_its_own_box_keeps_its_confidence():
    # A die as tall as the picture carries its tag inside its own box: not a die beside it.
    _, _, left, right = text_extent((100, 0, 180, H))
    assert right - left > 40  # "3 0.91", not "3"


def test_in_a_big_picture_of_small_dice_a_tag_is_sized_by_the_dice():
    # A phone's photo (4000x3000) of dice 50 px wide: a tag sized by the picture alone is
    # taller than a die (about 80 px of text) and hides the dice about it; sized by the
    # dice, its text is under a die's side. A 640 px frame of dice WANTED_PX wide or more
    # is drawn as before (the test above).
    white = np.full((3000, 4000, 3), 255, np.uint8)
    dice = [DieReading((x, 1500, x + 50, 1550), 3, 0.91, "3") for x in (1000, 2000, 3000)]
    black = np.all(draw(white, dice) < 60, axis=2)
    rows = np.nonzero(black[:, 950:1200].any(axis=1))[0]
    assert len(rows) and 8 <= rows.max() - rows.min() < 50
