"""A die's crop for the face classifier: the same picture at any size gives the same crop."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.reader import CROP_SIZE, crop_die


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
