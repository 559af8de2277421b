"""The synthetic renderer's side faces: what a die seen at a slant shows below its top."""

import numpy as np
import pytest

from companion.training import render, scenes
from companion.training.fonts import NumeralFonts

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
        scenes.scene(np.random.default_rng(3), 256, 256, count=4)
        assert calls == []
        scenes.scene(np.random.default_rng(3), 256, 256, count=4, sides=True)
        assert calls
    finally:
        render._draw_sides = original


@pytest.mark.parametrize("elevation", [20.0, 35.0, 60.0, 90.0])
def test_a_die_seen_from_a_camera_height_has_the_height_it_would(elevation):
    # Square on (angle 0), seen from ``elevation`` degrees above the table, a die of side 80
    # shows its top face 80 * sin(elevation) deep and its front face 80 * cos(elevation)
    # below it: from straight above, its top alone; seen low, a front face taller than it.
    rng = np.random.default_rng(1)
    img = np.full((300, 300, 3), 128, np.float32)
    die = render.draw_die(rng, img, SIX, (150, 100), 80, angle=0.0, elevation=elevation)
    x0, y0, x1, y1 = die.box
    up = np.radians(elevation)
    assert x1 - x0 == pytest.approx(80, abs=2)
    assert y1 - y0 == pytest.approx(80 * (np.sin(up) + np.cos(up)), abs=2)


def test_a_low_view_draws_the_far_dice_first():
    # The scene seen low: every die with its side faces, the nearer (lower) ones drawn over
    # the far ones; dice are given back in the order they were placed, as in every scene.
    order = []
    original = render.draw_die
    try:
        render.draw_die = lambda rng, img, face, centre, *a, **k: (
            order.append((centre[1], k.get("elevation"), k.get("sides")))
            or original(rng, img, face, centre, *a, **k)
        )
        scenes.draw_die = render.draw_die
        _, dice = scenes.scene(np.random.default_rng(5), 256, 256, count=5, elevation=(25, 30))
    finally:
        render.draw_die = scenes.draw_die = original
    ys = [y for y, _, _ in order]
    assert ys == sorted(ys) and len(ys) == len(dice) > 1
    assert all(25 <= e <= 30 and sides for _, e, sides in order)
    assert sorted(d.centre[1] for d in dice) == ys


# Debian's fonts-dejavu-core, which `make test` installs.
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"


def numeral_tile(seed: int, value: int, fonts=None):
    return render.face_texture(
        np.random.default_rng(seed), render.Face("numeral", value), WHITE, BLACK, fonts=fonts
    )


def test_numerals_are_drawn_in_font_files_when_given():
    fonts = NumeralFonts([DEJAVU, SERIF], share=1.0)
    assert len(fonts) == 2 and sorted(fonts.families) == ["DejaVuSans", "DejaVuSerif"]
    for value in range(1, 7):
        for seed in range(5):
            own, drawn = numeral_tile(seed, value), numeral_tile(seed, value, fonts)
            assert not np.array_equal(own, drawn)
            ink = drawn.max(axis=2) < 128
            assert 0.02 < ink.mean() < 0.4  # a numeral, neither missing nor a blot
            ys, xs = np.nonzero(ink)
            assert abs(xs.mean() - 48) < 12 and abs(ys.mean() - 48) < 16  # about the middle
    # each file's own shapes: OpenCV 5.0 can draw a second face in a freed one's shapes
    sans, serif = fonts.families["DejaVuSans"][0][3], fonts.families["DejaVuSerif"][0][3]
    assert sans.shape != serif.shape or (sans != serif).any()


def test_a_scene_passes_its_fonts_to_every_die():
    fonts = NumeralFonts([DEJAVU], share=1.0)
    faces = [render.Face("numeral", v) for v in (2, 5)]
    drawn = []
    original = NumeralFonts.draw
    NumeralFonts.draw = lambda self, rng, canvas, value: (
        drawn.append(value) or original(self, rng, canvas, value)
    )
    try:
        scenes.scene(np.random.default_rng(4), 256, 256, faces=faces, fonts=fonts, sides=True)
    finally:
        NumeralFonts.draw = original
    assert {2, 5} <= set(drawn) and len(drawn) > 2  # top faces, and side faces too


def test_a_font_file_that_is_missing_or_not_a_font_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nowhere\.ttf does not exist"):
        NumeralFonts([tmp_path / "nowhere.ttf"])
    (tmp_path / "notes.ttf").write_text("not a font")
    with pytest.raises(ValueError, match=r"notes\.ttf is not a TrueType or OpenType font"):
        NumeralFonts([tmp_path / "notes.ttf"])
    with pytest.raises(ValueError, match="no font files given"):
        NumeralFonts([])
