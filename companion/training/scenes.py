"""Rendered scenes: tables, things on them that are not dice, camera effects, whole
scenes of dice (``scene``) and frames of dice rolled again and again (``roll_sequence``).

The dice themselves are drawn by ``render``. Everything is drawn from a
``numpy.random.Generator``, so a seed gives the same picture on every machine.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from companion.training.fonts import NumeralFonts
from companion.training.render import Die, Face, draw_die, random_face


# -- backgrounds ---------------------------------------------------------------------
def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.choice(["card", "wood", "felt", "board", "cloth", "white"])
    base = rng.uniform(40, 220, 3).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array(
            [rng.uniform(60, 140), rng.uniform(110, 180), rng.uniform(150, 230)], np.float32
        )
        freq, ang = rng.uniform(0.02, 0.08), rng.uniform(0, np.pi)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        v = -xx * np.sin(ang) + yy * np.cos(ang)
        grain = np.sin(u * freq + 3 * np.sin(v * 0.01 + rng.uniform(0, 6)))
        img = base * (1 + 0.12 * grain[..., None])
    elif kind == "felt":
        base = np.array(
            rng.choice([[60, 120, 30], [120, 60, 20], [40, 40, 130], [50, 50, 50]]), np.float32
        ) * rng.uniform(0.7, 1.3)
        img[:] = base
    elif kind == "board":  # a printed board: coloured polygons and lines
        for _ in range(int(rng.integers(6, 20))):
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, max(h, w) / 4)
            k = int(rng.integers(3, 7))
            pts = [
                (cx + r * np.cos(a), cy + r * np.sin(a))
                for a in np.linspace(0, 2 * np.pi, k, endpoint=False) + rng.uniform(0, 6)
            ]
            cv2.fillPoly(img, [np.int32(pts)], rng.uniform(30, 240, 3).tolist())
            if rng.random() < 0.4:
                cv2.polylines(img, [np.int32(pts)], True, rng.uniform(0, 80, 3).tolist(), 2)
    elif kind == "white":
        img[:] = rng.uniform(200, 245, 3)
    elif kind == "cloth":
        period = rng.uniform(4, 12)
        img *= (
            1
            + 0.08
            * np.sin(xx * 2 * np.pi / period)[..., None]
            * np.sin(yy * 2 * np.pi / period)[..., None]
        )
    noise = rng.normal(0, rng.uniform(2, 12), (h, w, 1)).astype(np.float32)
    return img + noise


def lighting(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(-0.5, 1.5) * w, rng.uniform(-0.5, 1.5) * h
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(h, w)
    gain = rng.uniform(0.9, 1.25) - rng.uniform(0.1, 0.5) * d
    tint = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    return img * gain[..., None] * tint


def finish(
    rng: np.random.Generator, img: np.ndarray, blur: float | None = None, jpeg: bool = True
) -> np.ndarray:
    """Camera effects: blur, sensor noise, clipping to 8 bits, JPEG loss."""
    blur = rng.uniform(0, 1.3) if blur is None else blur
    if blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img = img + rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg and rng.random() < 0.7:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if rng.random() < 0.05:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return out


def place(
    rng: np.random.Generator,
    h: int,
    w: int,
    count: int,
    size_range: tuple[float, float],
    taken: list[tuple[float, float, float]] | None = None,
) -> list[tuple[float, float, float]]:
    """Up to ``count`` (x, y, size) spots that do not overlap."""
    spots = list(taken or [])
    fresh = []
    for _ in range(count * 30):
        if len(fresh) == count:
            break
        s = rng.uniform(*size_range)
        x, y = rng.uniform(s, w - s), rng.uniform(s, h - s)
        if all(np.hypot(x - a, y - b) > 0.85 * (s + c) for a, b, c in spots):
            spots.append((x, y, s))
            fresh.append((x, y, s))
    return fresh


def _pt(p) -> tuple[int, int]:
    """A point as OpenCV's drawing functions take it."""
    return int(p[0]), int(p[1])


def clutter(
    rng: np.random.Generator,
    img: np.ndarray,
    count: int,
    size_range: tuple[float, float],
    taken: list[tuple[float, float, float]],
) -> list[tuple[int, int, int, int]]:
    """Things on a table that are not dice (in place): screw heads, specks, coins, tokens,
    meeples, pencils and card corners. Returns their boxes."""
    boxes = []
    h, w = img.shape[:2]
    for x, y, s in place(rng, h, w, count, (size_range[0] * 0.3, size_range[1] * 1.3), taken):
        kind = rng.choice(["screw", "speck", "coin", "token", "meeple", "pencil", "card"])
        colour = rng.uniform(20, 240, 3).tolist()
        dark = rng.uniform(10, 70, 3).tolist()
        r = s / 2
        c, centre = (int(x), int(y)), np.array([x, y])
        if kind == "screw":  # a round head with a slot or a cross
            r = max(2.0, r * 0.5)
            cv2.circle(img, c, int(r), rng.uniform(90, 200, 3).tolist(), -1, cv2.LINE_AA)
            a = rng.uniform(0, np.pi)
            d = np.array([np.cos(a), np.sin(a)]) * r * 0.8
            for v in (d, d[::-1] * (1, -1)) if rng.random() < 0.5 else (d,):
                cv2.line(img, _pt(centre - v), _pt(centre + v), dark, 1)
        elif kind == "speck":  # a dark dot or a crumb: looks like a lone pip
            r = max(1.0, r * rng.uniform(0.08, 0.25))
            cv2.circle(img, c, int(r), dark, -1, cv2.LINE_AA)
        elif kind == "coin":
            cv2.circle(img, c, int(r), colour, -1, cv2.LINE_AA)
            cv2.circle(img, c, int(r * 0.8), dark, 1, cv2.LINE_AA)
        elif kind == "token":  # a round or hexagonal game token, maybe with a printed mark
            k = int(rng.choice([6, 32]))
            pts = [
                (x + r * np.cos(t), y + r * np.sin(t))
                for t in np.linspace(0, 2 * np.pi, k, endpoint=False) + rng.uniform(0, 6)
            ]
            cv2.fillPoly(img, [np.int32(pts)], colour, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.circle(img, c, max(1, int(r * 0.25)), dark, -1, cv2.LINE_AA)
        elif kind == "meeple":  # a head and a body
            cv2.circle(img, (int(x), int(y - r * 0.5)), max(1, int(r * 0.3)), colour, -1)
            body = np.int32(
                [(x - r * 0.6, y + r * 0.7), (x + r * 0.6, y + r * 0.7), (x, y - r * 0.3)]
            )
            cv2.fillPoly(img, [body], colour, cv2.LINE_AA)
        elif kind == "pencil":
            a = rng.uniform(0, np.pi)
            d = np.array([np.cos(a), np.sin(a)]) * r * 2.5
            cv2.line(img, _pt(centre - d), _pt(centre + d), colour, max(2, int(r * 0.25)))
        else:  # the corner of a card with a rounded edge
            a = rng.uniform(0, 2 * np.pi)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            quad = np.array([(0, 0), (3, 0), (3, 2), (0, 2)], float) * r @ rot.T + (x - r, y - r)
            cv2.fillPoly(img, [np.int32(quad)], colour, cv2.LINE_AA)
            cv2.polylines(img, [np.int32(quad)], True, dark, 1, cv2.LINE_AA)
        boxes.append((int(x - r), int(y - r), int(x + r), int(y + r)))
    return boxes


def scene(
    rng: np.random.Generator,
    h: int = 384,
    w: int = 384,
    count: int | None = None,
    faces: list[Face] | None = None,
    kinds: tuple[str, ...] = ("pips", "numeral", "dot"),
    size_range: tuple[float, float] | None = None,
    mess: int = 0,
    things: list | None = None,
    sides: bool = False,
    fonts: NumeralFonts | None = None,
    elevation: tuple[float, float] | None = None,
    body: str | None = None,
) -> tuple[np.ndarray, list[Die]]:
    """A table with dice on it: the BGR image and the dice, each with its box.

    ``mess`` things that are not dice (see ``clutter``) are drawn on the table first; their
    boxes are added to ``things`` if it is given. ``sides``: the dice may be seen at a
    steeper slant, their side faces drawn with their own pips (``draw_die``). ``fonts``:
    numerals are drawn in these fonts too (``face_texture``). ``elevation``, a range of
    degrees: the table seen from one camera height drawn from it, every die as a camera
    there sees it (``draw_die``'s ``elevation``), its side faces drawn, and the far dice
    first, so a die in front hides what lies behind it. ``body``: the dice drawn for
    ``faces`` not given are of that body (``Face.body``: "any" for every look the renderer
    knows).
    """
    count = (
        len(faces) if faces is not None else (int(rng.integers(1, 9)) if count is None else count)
    )
    if size_range is None:
        lo = rng.uniform(0.03, 0.12) * min(h, w)
        size_range = (lo, lo * rng.uniform(1.0, 1.4))
    img = background(rng, h, w)
    slant = rng.uniform(0, 0.6 if sides else 0.4)
    spots = place(rng, h, w, count, size_range)
    if mess:
        boxes = clutter(rng, img, mess, size_range, list(spots))
        if things is not None:
            things.extend(boxes)
    up = None if elevation is None else float(rng.uniform(*elevation))
    order = (
        range(len(spots)) if up is None else sorted(range(len(spots)), key=lambda k: spots[k][1])
    )
    drawn: dict[int, Die] = {}
    for i in order:  # seen low, the far dice first
        x, y, s = spots[i]
        face = faces[i] if faces is not None else random_face(rng, kinds, body)
        if up is None:
            lean = slant * rng.uniform(0.7, 1.0)
            drawn[i] = draw_die(rng, img, face, (x, y), s, slant=lean, sides=sides, fonts=fonts)
        else:
            drawn[i] = draw_die(rng, img, face, (x, y), s, sides=True, fonts=fonts, elevation=up)
    dice = [drawn[i] for i in range(len(spots))]
    img = lighting(rng, img)
    return finish(rng, img), dice


def roll_sequence(
    seed: int,
    values_per_roll: list[list[int]],
    h: int = 480,
    w: int = 640,
    rest_frames: int = 12,
    kind: str = "pips",
    size: float | None = None,
    dice_seed: int | None = None,
) -> Iterator[np.ndarray]:
    """Frames of dice being rolled again and again on one table, for the demo and tests,
    one at a time as they are drawn (the demo writes each to disk at once: its 114 frames
    of 640x480 in a list held about 100 MB).

    For each roll: a hand sweeps across, the dice tumble (moving, blurred) and then
    lie still for ``rest_frames`` frames showing ``values`` (each a face value of ``kind``,
    or a ``Face``). ``size``: the dice's side in pixels (default 9% of the shorter side).
    ``dice_seed``: where the dice fall and how they look, where not from ``seed`` (which then
    draws only the table: a roll drawn later on the same table).
    """
    rng = np.random.default_rng(seed)
    table = lighting(rng, background(rng, h, w))
    if dice_seed is not None:
        rng = np.random.default_rng(dice_seed)
    drawn = 0  # frames given so far: a still frame's sensor noise is seeded by its number
    size = 0.09 * min(h, w) if size is None else size
    for values in values_per_roll:
        faces = [v if isinstance(v, Face) else Face(kind, v) for v in values]
        for t in range(4):  # a hand comes in and goes
            img = table.copy()
            hx = w * (0.2 + 0.2 * t)
            skin = np.float32([120, 160, 215]) * rng.uniform(0.8, 1.1)
            cv2.ellipse(
                img,
                (int(hx), int(h * 0.55)),
                (int(w * 0.16), int(h * 0.22)),
                20,
                0,
                360,
                skin.tolist(),
                -1,
            )
            for f in range(4):
                cv2.ellipse(
                    img,
                    (int(hx - w * 0.1 + f * w * 0.06), int(h * 0.3)),
                    (int(w * 0.025), int(h * 0.12)),
                    0,
                    0,
                    360,
                    skin.tolist(),
                    -1,
                )
            yield finish(rng, img, blur=2.0, jpeg=False)
            drawn += 1
        for _ in range(3):  # tumbling
            img = table.copy()
            for x, y, s in place(rng, h, w, len(faces), (size, size * 1.1)):
                draw_die(rng, img, random_face(rng, (kind,)), (x, y), s, slant=0.1)
            yield finish(rng, img, blur=2.5, jpeg=False)
            drawn += 1
        img = table.copy()
        spots = place(rng, h, w, len(faces), (size, size * 1.1))
        state = rng.bit_generator.state
        for _ in range(rest_frames):  # at rest: the same picture, fresh sensor noise
            rng.bit_generator.state = state
            still = img.copy()
            sub = np.random.default_rng(int(rng.integers(1 << 30)))
            for face, (x, y, s) in zip(faces, spots, strict=False):
                draw_die(sub, still, face, (x, y), s, slant=0.1)
            yield finish(np.random.default_rng(drawn), still, blur=0.5, jpeg=False)
            drawn += 1
