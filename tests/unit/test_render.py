"""The synthetic renderer's side faces: what a die seen at a slant shows below its top."""

import numpy as np
import pytest

from companion.vision import render

WHITE, BLACK = np.float32([235, 235, 235]), np.float32([10, 10, 10])
SIX = render.Face("pips", 6)


def slanted_die(seed: int, sides: bool, face: render.Face = SIX):
    """A white die with black ink, seen at a slant, alone on a mid-grey table."""
    rng = np.random.default_rng(seed)
    img = np.full((200, 200, 3), 128, np.float32)
    colours = (WHITE, BLACK, 1.0)
    original = render.random_colours
    render.random_colours = lambda rng, face: colours
    try:
        die = render.draw_die(rng, img, face, (100, 90), 80, angle=0.0, slant=0.5, sides=sides)
    finally:
        render.random_colours = original
    return img, die


@pytest.mark.parametrize("seed", range(5))
def test_a_die_at_a_slant_shows_pips_on_its_side_face_only_when_asked(seed):
    # At angle 0 the top face is a square squashed upwards; the side face is the band below
    # it, down to the box's bottom edge.
    plain, die = slanted_die(seed, sides=False)
    pipped, _ = slanted_die(seed, sides=True)
    x0, _, x1, y1 = die.box
    band = (slice(y1 - 12, y1 - 4), slice(x0 + 8, x1 - 8))
    assert plain[band].min() > 60  # only the shaded white body
    assert (pipped[band].max(axis=2) < 40).mean() > 0.03  # the side's own pips, in shade


def test_a_side_face_is_never_the_top_face_nor_its_opposite(monkeypatch):
    drawn = []
    original = render.face_texture
    monkeypatch.setattr(
        render,
        "face_texture",
        lambda rng, face, *a, **k: drawn.append(face) or original(rng, face, *a, **k),
    )
    for seed in range(20):
        top = render.Face("pips", 1 + seed % 6)
        drawn.clear()
        slanted_die(seed, sides=True, face=top)
        *sides, last = drawn
        assert last == top and sides  # the top face is drawn last, over its sides
        assert all(f.kind == "pips" and f.value not in (top.value, 7 - top.value) for f in sides)
        assert len(set(sides)) == len(sides)  # two sides showing are two faces


def test_the_default_scene_has_no_side_faces():
    calls = []
    original = render._draw_sides
    render._draw_sides = lambda *a: calls.append(a) or original(*a)
    try:
        render.scene(np.random.default_rng(3), 256, 256, count=4)
        assert calls == []
        render.scene(np.random.default_rng(3), 256, 256, count=4, sides=True)
        assert calls
    finally:
        render._draw_sides = original
