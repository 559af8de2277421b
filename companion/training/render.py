"""A synthetic dice renderer: scenes of dice on tables, for training, tests and the demo.

It draws what the reader must cope with: white, black, coloured, translucent and
marbled dice (and, for training, the harder looks of ``styles``); pips, numerals, one
coloured dot, or a symbol on the top face; seen from above or at a slant (a side face
shows); rotated; on grey card, wood, felt or a printed board; under uneven light, with
shadows, blur, noise and JPEG loss.

Everything is drawn with OpenCV and numpy from a ``numpy.random.Generator``, so a
seed gives the same picture on every machine. Boxes are ``(x0, y0, x1, y1)`` around
the whole die (top and side faces), in pixels of the returned image.

This module draws the faces and the dice; ``fonts`` holds the font files' numerals, and
``scenes`` the tables, clutter, camera effects, whole scenes and rolled sequences.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.training import styles
from companion.training.fonts import NumeralFonts
from companion.training.symbols import COMMERCE, SYMBOLS, draw_symbol

# Colour-dotted dice, a dot of one of six colours a face (a game's tribe dice), as BGR.
DOT_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 210),
    "orange": (20, 130, 245),
    "yellow": (30, 215, 235),
    "green": (60, 160, 40),
    "blue": (200, 90, 30),
    "purple": (140, 40, 130),
}

# A face is drawn flat on a TEXTURE-pixel square, then warped onto the die (``draw_die``).
TEXTURE = 96
TEXTURE_CORNERS = np.float32(
    [(0, 0), (TEXTURE - 1, 0), (TEXTURE - 1, TEXTURE - 1), (0, TEXTURE - 1)]
)

PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass(frozen=True)
class Face:
    """What is on a die's top face: ``kind`` pips|numeral|dot|symbol, and its ``value``;
    ``body``, for a die of a known colour ("white": a light body with dark ink, "black": a
    dark body with light ink), "any" for a die of any look the renderer draws (``styles``:
    coloured ink on dark bodies, marbled, glitter, pastel, neon), else None (the plain
    palette, ``random_colours``)."""

    kind: str
    value: int | str
    body: str | None = None

    @property
    def label(self) -> str:
        """The classifier's class name for this face."""
        if self.kind in ("pips", "numeral"):
            return str(self.value)
        if self.kind == "dot":
            return f"dot-{self.value}"
        return f"symbol-{self.value}"


@dataclass(frozen=True)
class Die:
    face: Face
    box: tuple[int, int, int, int]
    centre: tuple[float, float]
    size: float


# -- faces ----------------------------------------------------------------------------
def face_texture(
    rng: np.random.Generator,
    face: Face,
    body: np.ndarray,
    ink: np.ndarray,
    n: int = 96,
    fonts: NumeralFonts | None = None,
) -> np.ndarray:
    """The top face drawn flat on an ``n``x``n`` tile (BGR float32). A numeral is drawn in
    one of ``fonts`` (their share of the time), otherwise in one of OpenCV's own faces."""
    tile = np.empty((n, n, 3), np.float32)
    tile[:] = body
    if face.body == "any" and face.kind in ("pips", "numeral"):
        tile = styles.textured(rng, tile)
    if rng.random() < 0.3:  # marbled or speckled body
        swirl = cv2.GaussianBlur(rng.normal(0, 1, (n // 4, n // 4)).astype(np.float32), (0, 0), 1.2)
        swirl = cv2.resize(swirl, (n, n))[..., None]
        tile += swirl * rng.uniform(10, 45) * (rng.random(3) - 0.3).astype(np.float32)
    canvas = np.zeros((n, n), np.uint8)
    c = n / 2
    if face.kind == "pips":
        spread = n * rng.uniform(0.24, 0.29)
        radius = max(2, int(n * rng.uniform(0.075, 0.105)))
        if face.value == 1 and rng.random() < 0.5:
            radius = int(radius * rng.uniform(1.2, 1.8))  # many dice have a big single pip
        for dx, dy in PIP_LAYOUT[int(face.value)]:
            cv2.circle(
                canvas, (int(c + dx * spread), int(c + dy * spread)), radius, 255, -1, cv2.LINE_AA
            )
    elif face.kind == "numeral" and fonts is not None and rng.random() < fonts.share:
        fonts.draw(rng, canvas, int(face.value))
    elif face.kind == "numeral":
        font = rng.choice(
            [
                cv2.FONT_HERSHEY_SIMPLEX,
                cv2.FONT_HERSHEY_DUPLEX,
                cv2.FONT_HERSHEY_TRIPLEX,
                cv2.FONT_HERSHEY_COMPLEX,
            ]
        )
        text = str(face.value)
        scale = n / 40 * rng.uniform(0.8, 1.05)
        thick = max(2, int(n / 20 * rng.uniform(0.7, 1.3)))
        (w, h), _ = cv2.getTextSize(text, font, scale, thick)
        cv2.putText(
            canvas, text, (int(c - w / 2), int(c + h / 2)), font, scale, 255, thick, cv2.LINE_AA
        )
        if face.value in (6, 9) or rng.random() < 0.3:  # underline that tells 6 from 9
            cv2.line(
                canvas,
                (int(c - w / 2), int(c + h / 2 + thick * 1.5)),
                (int(c + w / 2), int(c + h / 2 + thick * 1.5)),
                255,
                max(1, thick // 2),
            )
    elif face.kind == "dot":
        cv2.circle(canvas, (int(c), int(c)), int(n * rng.uniform(0.2, 0.3)), 255, -1, cv2.LINE_AA)
        ink = np.array(DOT_COLOURS[str(face.value)], np.float32) * rng.uniform(0.8, 1.1)
    else:
        draw_symbol(canvas, str(face.value), n)
    a = (canvas.astype(np.float32) / 255)[..., None]
    return tile * (1 - a) + ink * a


def random_face(
    rng: np.random.Generator,
    kinds: tuple[str, ...] = ("pips", "numeral", "dot"),
    body: str | None = None,
) -> Face:
    """A face of one of ``kinds``, on a die of the ``body`` given (``Face.body``)."""
    kind = str(rng.choice(kinds))
    if kind == "dot":
        return Face("dot", str(rng.choice(list(DOT_COLOURS))), body)
    if kind == "symbol":
        return Face("symbol", str(rng.choice(SYMBOLS)), body)
    return Face(kind, int(rng.integers(1, 7)), body)


def random_colours(rng: np.random.Generator, face: Face) -> tuple[np.ndarray, np.ndarray, float]:
    """Body colour, ink colour (BGR float32) and opacity (1 solid, lower translucent)."""
    if face.body == "any" and face.kind in ("pips", "numeral"):
        wide = styles.wide_colours(rng)
        if wide is not None:
            return wide
    style = rng.random()
    if face.body == "white":
        return (
            rng.uniform(215, 250, 3).astype(np.float32),
            rng.uniform(10, 60, 3).astype(np.float32),
            1.0,
        )
    if face.body == "black":
        return (
            rng.uniform(12, 45, 3).astype(np.float32),
            rng.uniform(200, 245, 3).astype(np.float32),
            1.0,
        )
    if face.kind == "dot":  # dotted dice are light or dark plain bodies
        body = rng.uniform(215, 250, 3) if rng.random() < 0.7 else rng.uniform(15, 50, 3)
        return body.astype(np.float32), body.astype(np.float32), 1.0
    if style < 0.35:  # white / ivory with dark pips
        body, ink = rng.uniform(200, 250, 3), rng.uniform(0, 60, 3)
        if rng.random() < 0.2:
            ink = np.array([30, 30, 190]) * rng.uniform(0.7, 1.1)  # red pips
    elif style < 0.55:  # black with light pips
        body, ink = rng.uniform(10, 55, 3), rng.uniform(190, 250, 3)
    else:  # coloured body, light or dark ink
        hue = rng.integers(0, 180)
        hsv = np.uint8([[[hue, rng.integers(120, 255), rng.integers(90, 230)]]])
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        ink = (
            rng.uniform(205, 255, 3)
            if body.mean() < 150 or rng.random() < 0.6
            else rng.uniform(0, 40, 3)
        )
    opacity = 1.0 if rng.random() < 0.8 else rng.uniform(0.55, 0.8)
    return body.astype(np.float32), ink.astype(np.float32), opacity


# -- dice ----------------------------------------------------------------------------
def draw_die(
    rng: np.random.Generator,
    img: np.ndarray,
    face: Face,
    centre: tuple[float, float],
    size: float,
    angle: float | None = None,
    slant: float | None = None,
    sides: bool = False,
    fonts: NumeralFonts | None = None,
    elevation: float | None = None,
) -> Die:
    """Draw one die on ``img`` (float32 BGR, in place) and return where it is.

    ``sides``: the side faces a slant shows carry their own pips (numeral, dot or symbol),
    as a real die's do, not only the body's colour. ``fonts``: see ``face_texture``.
    ``elevation``: the camera's height above the table's plane in degrees (90: straight
    down), for a die seen as a camera there sees it, in place of ``slant``'s looser
    drawing: its top face foreshortened to the sine of it and its sides showing the cosine
    of its size below the top (a low view, where a die's front face is as tall as its top
    or taller; the model card's known limits)."""
    body, ink, opacity = random_colours(rng, face)
    angle = rng.uniform(0, 2 * np.pi) if angle is None else angle
    if elevation is None:
        slant = rng.uniform(0, 0.35) if slant is None else slant
        top = _top_quad(rng, centre, size, angle, slant)
        # the side face that shows when the die is seen at a slant, below the top face
        depth = np.array([rng.uniform(-0.3, 0.3) * slant, slant], np.float32) * size
    else:
        up = np.radians(elevation)
        top = _top_quad(rng, centre, size, angle, 0.0, squash=float(np.sin(up)))
        depth = np.array([0.0, np.cos(up)], np.float32) * size
    hull = cv2.convexHull(np.concatenate([top, top + depth]).astype(np.float32))[:, 0]
    h, w = img.shape[:2]
    _shadow(rng, img, hull, size)
    under = img.copy()
    side = np.zeros((h, w), np.float32)
    cv2.fillPoly(side, [np.int32(hull)], 1.0, cv2.LINE_AA)
    shade = rng.uniform(0.45, 0.75)
    img[:] = img * (1 - side[..., None]) + (body * shade) * side[..., None]
    n, src = TEXTURE, TEXTURE_CORNERS
    if sides:
        _draw_sides(rng, img, face, top, depth, body * shade, ink * shade, fonts)
    # top face: the flat texture warped onto the (rounded) top quad
    tex = face_texture(rng, face, body, ink, n, fonts)
    mask = _rounded_square(rng, n)
    m = cv2.getPerspectiveTransform(src, top.astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR)
    wmask = cv2.warpPerspective(mask, m, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    # light falls across the top face; a bevel darkens its rim
    img[:] = img * (1 - wmask) + warped * rng.uniform(0.85, 1.15) * wmask
    if opacity < 1:  # translucent: the table shows through a little
        alpha = np.maximum(side, wmask[..., 0])[..., None] * (1 - opacity)
        img[:] = img * (1 - alpha) + under * alpha
    x0, y0 = hull.min(axis=0)
    x1, y1 = hull.max(axis=0)
    box = (
        int(max(0, np.floor(x0))),
        int(max(0, np.floor(y0))),
        int(min(w, np.ceil(x1))),
        int(min(h, np.ceil(y1))),
    )
    return Die(face, box, (float(centre[0]), float(centre[1])), float(size))


def _top_quad(
    rng: np.random.Generator,
    centre: tuple[float, float],
    size: float,
    angle: float,
    slant: float,
    squash: float | None = None,
) -> np.ndarray:
    """The corners of a die's top face, turned by ``angle`` about ``centre`` and, seen at
    ``slant``, foreshortened by a random amount (or by ``squash``, where given)."""
    if squash is None:
        squash = 1 - slant * rng.uniform(0.3, 0.8)
    half = size / 2
    corners = np.array([(-half, -half), (half, -half), (half, half), (-half, half)], np.float32)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    top = corners @ rot.T
    top[:, 1] *= squash
    top += centre
    return top


def _shadow(rng: np.random.Generator, img: np.ndarray, hull: np.ndarray, size: float) -> None:
    """Darken ``img`` (in place) under the shadow a die of ``size`` whose outline is
    ``hull`` casts: soft-edged, offset a little down and to one side."""
    h, w = img.shape[:2]
    shadow = np.zeros((h, w), np.float32)
    off = np.array([rng.uniform(-0.2, 0.2), rng.uniform(0.05, 0.25)], np.float32) * size
    cv2.fillPoly(shadow, [np.int32(hull + off)], 1.0, cv2.LINE_AA)
    k = int(size * 0.15) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0) * rng.uniform(0.2, 0.55)
    img *= (1 - shadow)[..., None]


def _rounded_square(rng: np.random.Generator, n: int) -> np.ndarray:
    """An ``n`` x ``n`` mask of a die's top face: a square with corners rounded by a
    random radius."""
    mask = np.zeros((n, n), np.float32)
    rr = int(n * rng.uniform(0.08, 0.2))
    cv2.rectangle(mask, (rr, 0), (n - 1 - rr, n - 1), 1.0, -1)
    cv2.rectangle(mask, (0, rr), (n - 1, n - 1 - rr), 1.0, -1)
    for x, y in ((rr, rr), (n - 1 - rr, rr), (rr, n - 1 - rr), (n - 1 - rr, n - 1 - rr)):
        cv2.circle(mask, (x, y), rr, 1.0, -1, cv2.LINE_AA)
    return mask


def _draw_sides(rng, img, face, top, depth, body, ink, fonts=None) -> None:
    """The side faces of a die at a slant, each with another face of the die drawn on it
    (never the top face, nor, on a pipped or numeral die, its opposite), in shade."""
    if float(np.hypot(*depth)) < 1.0:
        return
    if face.kind in ("pips", "numeral"):
        others = [Face(face.kind, v) for v in range(1, 7) if v not in (face.value, 7 - face.value)]
    elif face.kind == "dot":
        others = [Face("dot", c) for c in DOT_COLOURS if c != face.value]
    else:
        kin = COMMERCE if face.value in COMMERCE else SYMBOLS
        others = [Face("symbol", c, face.body) for c in kin if c != face.value]
    order = rng.permutation(len(others))
    centre = top.mean(axis=0)
    h, w = img.shape[:2]
    n = TEXTURE
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        normal = np.array([b[1] - a[1], a[0] - b[0]], np.float32)
        if normal @ ((a + b) / 2 - centre) < 0:
            normal = -normal
        if normal @ depth <= 0:  # this side faces away from the camera
            continue
        tex = face_texture(rng, others[order[i % len(others)]], body, ink, n, fonts)
        quad = np.float32([a, b, b + depth, a + depth])
        m = cv2.getPerspectiveTransform(TEXTURE_CORNERS, quad)
        warped = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((n, n), np.float32), m, (w, h))[..., None]
        img[:] = img * (1 - mask) + warped * mask
