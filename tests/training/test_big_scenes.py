"""models/recipe/samples.py's --big-scenes: rendered crops from scenes at a phone photo's
scale, where a thing on the table is hundreds of pixels and shrunk sharp into its crop.

Training only: it needs the `train` extra (PyTorch), which `make test-training` installs.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")


def test_big_scenes_give_crops_of_dice_and_of_things_at_the_readers_crop_size(samples):
    crops = samples.big_scene_crops(np.random.default_rng(5), 3)
    classes = [c for _, c in crops]
    assert all(np.asarray(img).shape == (48, 48, 3) for img, _ in crops)
    # every scene has 2 to 5 dice, and its things and two table patches are not dice
    dice = sum(1 for c in classes if c != samples.NOT_A_DIE)
    assert 6 <= dice <= 15
    assert classes.count(samples.NOT_A_DIE) >= 18  # 3 scenes: 2 patches and most of 8 things


def test_big_scene_dice_are_big_before_their_crop(samples, monkeypatch):
    sides = []
    scene = samples.scenes.scene

    def watched(rng, h, w, **kw):
        img, dice = scene(rng, h, w, **kw)
        sides.extend(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice)
        assert (h, w) == (samples.BIG_SCENE, samples.BIG_SCENE)
        return img, dice

    monkeypatch.setattr(samples.scenes, "scene", watched)
    samples.big_scene_crops(np.random.default_rng(6), 2)
    assert sides and min(sides) >= 0.8 * samples.BIG_SIDES[0]
