"""The models' input: BGR pictures in, RGB planes in 0..1 out (training uses the same)."""

from __future__ import annotations

import numpy as np

from companion.vision.pictures import to_tensor


def test_pictures_become_rgb_planes_from_0_to_1():
    bgr = np.zeros((2, 3, 4, 3), np.uint8)
    bgr[0, ..., 0] = 255  # blue
    bgr[1, 1, 2] = (10, 20, 30)
    x = to_tensor(bgr)
    assert x.shape == (2, 3, 3, 4) and x.dtype == np.float32 and x.flags["C_CONTIGUOUS"]
    assert (x[0, 2] == 1).all() and (x[0, :2] == 0).all()  # blue is the third plane
    assert np.allclose(x[1, :, 1, 2], [30 / 255, 20 / 255, 10 / 255])
    assert np.count_nonzero(x[1]) == 3  # only that pixel


def test_every_byte_value_maps_to_value_over_255():
    values = np.arange(256, dtype=np.uint8).reshape(1, 16, 16, 1).repeat(3, axis=3)
    x = to_tensor(values)
    assert np.array_equal(x[0, 0].ravel(), np.arange(256, dtype=np.float32) / np.float32(255))
