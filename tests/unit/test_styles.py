"""The renderer's harder looks of real dice (training/styles.py), drawn for training."""

from __future__ import annotations

import numpy as np
import pytest

from companion.training import render, scenes, styles


def test_every_look_s_ink_stands_out_from_its_body():
    rng = np.random.default_rng(0)
    drawn = [styles.wide_colours(rng) for _ in range(600)]
    looks = [d for d in drawn if d is not None]
    assert 0.5 < len(looks) / len(drawn) < 0.7  # the rest in the plain palette
    for body, ink, opacity in looks:
        assert styles.stands_out(body, ink)
        assert 0.5 <= opacity <= 1
    dark = [(b, i) for b, i, _ in looks if b.mean() < 70]
    # dark bodies with ink that is neither white nor grey: red, gold, green or blue pips
    coloured = [i for _, i in dark if np.ptp(i) > 60]
    assert len(dark) > 100 and len(coloured) > 30


def test_a_marbled_body_winds_a_second_colour_across_it_and_glitter_adds_bright_specks():
    rng = np.random.default_rng(1)
    body = np.full((96, 96, 3), (40, 40, 40), np.float32)
    shares = []
    for _ in range(40):
        marbled = styles.marble(rng, body)
        assert marbled.shape == body.shape
        shares.append((np.abs(marbled - body).max(axis=2) > 30).mean())
    # veins over part of the body, not a new colour all over (faint now and then)
    assert 0.3 < np.median(shares) < 0.8 and max(shares) < 0.98
    sparkled = styles.glitter(rng, body)
    bright = sparkled.min(axis=2) >= 150
    assert 0.002 < bright.mean() < 0.08


@pytest.mark.parametrize("seed", range(3))
def test_a_scene_of_any_look_draws_its_dice_so_and_a_plain_one_as_it_always_has(seed):
    _, dice = scenes.scene(np.random.default_rng(seed), body="any", kinds=("pips",))
    assert dice and all(d.face.body == "any" for d in dice)
    plain, plain_dice = scenes.scene(np.random.default_rng(seed), kinds=("pips",))
    same, same_dice = scenes.scene(np.random.default_rng(seed), kinds=("pips",), body=None)
    assert np.array_equal(plain, same) and plain_dice == same_dice
    assert all(d.face.body is None for d in plain_dice)


def test_a_dotted_die_keeps_its_plain_body_whatever_the_look():
    rng = np.random.default_rng(2)
    for _ in range(50):
        face = render.random_face(rng, ("dot",), "any")
        body, ink, _ = render.random_colours(rng, face)
        assert np.array_equal(body, ink)  # a dotted die's palette: the dot is drawn apart
