"""samples.recoloured: a die seen in other colours, told by its contrast; dots never."""

from __future__ import annotations

import numpy as np


def test_a_crop_recoloured_keeps_its_shape_its_kind_and_its_contrast(samples):
    from photos import Upright

    crop = np.zeros((48, 48, 3), np.uint8)
    crop[:] = (30, 40, 200)  # a red die
    crop[20:28, 20:28] = (240, 240, 240)  # a white pip
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(60):
        out = samples.recoloured(rng, crop.view(Upright))
        assert isinstance(out, Upright) and out.shape == crop.shape and out.dtype == np.uint8
        body, pip = out[0, 0].astype(int), out[24, 24].astype(int)
        grey = np.abs(body.mean() - pip.mean())
        assert grey > 40  # the pip still stands out from the body
        seen.add(tuple(body))
    assert len(seen) >= 5  # bodies of many colours
    inverted = [b for b in seen if np.mean(b) > 128]
    assert inverted  # light and dark swapped now and then: a light body, a dark pip


def test_dots_are_never_recoloured_in_training(train, monkeypatch):
    seen = []

    def spy(rng, crop):
        seen.append(crop)
        return crop

    monkeypatch.setattr(train, "recoloured", spy)
    crops = [(np.zeros((48, 48, 3), np.uint8), train.CLASSES.index("dot-red"))] * 4
    real = ([], [(np.zeros((48, 48, 3), np.uint8), train.CLASSES.index("not-a-die"))])
    train.train_faces(crops, real, 1, lambda m: None, rendered=1.0, recolour=1.0)
    assert seen == []
