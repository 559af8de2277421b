"""A die's crop for the face classifier: the same picture at any size gives the same crop."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.pictures import CROP_SIZE, crop_die, far_side_up


def test_a_big_die_is_shrunk_with_the_area_filter_not_aliased():
    # Fine grain (a one-pixel checkerboard) on a die 40 times the crop: the area filter
    # averages it to an even grey, where a bare linear warp picks single pixels of it.
    yy, xx = np.mgrid[:3000, :3000]
    board = np.where((yy + xx) % 2, 255, 0).astype(np.uint8)
    img = cv2.merge([board] * 3)
    crop = crop_die(img, (500, 500, 2500, 2500))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert abs(float(crop.mean()) - 127.5) < 3
    assert float(crop.std()) < 3


def test_the_area_filter_keeps_the_crop_where_it_was():
    # On a smooth ramp, shrinking first changes nothing: the crop is the same picture,
    # not shifted by the filter's half pixels. The same die in a picture five times as
    # big gives the same crop as in the small one.
    yy, xx = np.mgrid[:600, :800].astype(np.float32)
    small = np.dstack([xx * 2, yy * 3, xx + yy])  # steep: a shift shows
    big = cv2.resize(small, None, fx=5, fy=5, interpolation=cv2.INTER_LINEAR)
    # the big picture's pixel (i, j) holds the small one's value at ((i + 0.5) / 5 - 0.5, ...)
    box = (100, 120, 180, 200)
    big_box = tuple(5 * v + 2 for v in box)
    a, b = crop_die(small, box), crop_die(big, big_box)
    assert np.abs(a - b).max() < 0.1
    # at the picture's edge too (the neighbourhood shrunk is cut by the edge)
    edge = (0, 0, 90, 70)
    a, b = crop_die(small, edge), crop_die(big, tuple(5 * v + 2 for v in edge))
    assert np.abs(a[8:-8, 8:-8] - b[8:-8, 8:-8]).max() < 0.3


def test_a_small_die_is_cropped_by_the_warp_alone():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (200, 200, 3), dtype=np.uint8)
    box = (50, 50, 120, 120)  # shrunk under twice: no area filter
    side = 70 * 1.24
    a = CROP_SIZE / side
    m = np.float32([[a, 0, CROP_SIZE / 2 - a * 85], [0, a, CROP_SIZE / 2 - a * 85]])
    want = cv2.warpAffine(
        img, m, (CROP_SIZE, CROP_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    assert np.array_equal(crop_die(img, box), want)


def die_with_far_side(h: int, w: int, centre: tuple[int, int], away: tuple[int, int]):
    """A grey picture with a 40 px die at ``centre`` whose far half (towards ``away``, a
    unit step along x or y) is white and near half black: a straight-down camera's die whose
    top face lies away from the point below the camera."""
    img = np.full((h, w, 3), 90, np.uint8)
    cx, cy = centre
    img[cy - 20 : cy + 20, cx - 20 : cx + 20] = 0
    dx, dy = away
    x0, x1 = (cx, cx + 20) if dx > 0 else (cx - 20, cx) if dx < 0 else (cx - 20, cx + 20)
    y0, y1 = (cy, cy + 20) if dy > 0 else (cy - 20, cy) if dy < 0 else (cy - 20, cy + 20)
    img[y0:y1, x0:x1] = 255
    return img, (cx - 20, cy - 20, cx + 20, cy + 20)


@pytest.mark.parametrize(
    "centre, away",
    [((320, 100), (0, -1)), ((320, 380), (0, 1)), ((60, 240), (-1, 0)), ((580, 240), (1, 0))],
    ids=["above", "below", "left", "right"],
)
def test_a_straight_down_view_turns_each_die_with_its_far_side_up(centre, away):
    # In a 640x480 frame looking straight down, the far side of a die is the side away from
    # the picture's centre: wherever the die lies, its crop shows that side at the top.
    img, box = die_with_far_side(480, 640, centre, away)
    crop = crop_die(img, box, shape=far_side_up("down", img.shape, box))
    top, bottom = crop[: CROP_SIZE // 3].mean(), crop[-CROP_SIZE // 3 :].mean()
    assert top > 150 and bottom < 60, (top, bottom)  # white far half up, black near half down
    # a slanted photo's far side is its top already: its crops are not turned
    assert far_side_up("slanted", img.shape, box) is None
    if away == (0, -1):  # above the centre, the two views agree
        assert np.allclose(far_side_up("down", img.shape, box), np.eye(2), atol=1e-9)
