"""The annotated picture (`companion read --annotate`, the watch preview): each die's tag
(value and confidence, black on the box's colour) is drawn whole, wherever the die lies."""

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
