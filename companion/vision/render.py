"""A synthetic dice renderer: scenes of dice on tables, for training, tests and the demo.

It draws what the reader must cope with: white, black, coloured, translucent and
marbled dice; pips, numerals, one coloured dot, or a symbol on the top face; seen
from above or at a slant (a side face shows); rotated; on grey card, wood, felt or a
printed board; under uneven light, with shadows, blur, noise and JPEG loss.

Everything is drawn with OpenCV and numpy from a ``numpy.random.Generator``, so a
seed gives the same picture on every machine. Boxes are ``(x0, y0, x1, y1)`` around
the whole die (top and side faces), in pixels of the returned image.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# The First Island's colour-dotted dice (its rulebook's colours), as BGR.
DOT_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 210),
    "orange": (20, 130, 245),
    "yellow": (30, 215, 235),
    "green": (60, 160, 40),
    "blue": (200, 90, 30),
    "purple": (140, 40, 130),
}
# Symbols for custom dice taught in the field (see ``companion teach``).
SYMBOLS = ("star", "triangle", "square", "cross", "ring", "moon", "diamond", "bars")

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
    """What is on a die's top face: ``kind`` pips|numeral|dot|symbol, and its ``value``."""

    kind: str
    value: int | str

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
        _draw_symbol(canvas, str(face.value), n)
    a = (canvas.astype(np.float32) / 255)[..., None]
    return tile * (1 - a) + ink * a


FONT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")
_FONT_FACES: dict[str, object] = {}


class NumeralFonts:
    """Numerals 1..6 in the shapes of font files (TrueType or OpenType), so that rendered
    numeral dice are not all in OpenCV's own few faces: a classifier that learned numerals
    only from those read other fonts' numerals poorly (models/README.md, session 40).

    Each file's six numerals are drawn once, by OpenCV 5's ``cv2.FontFace``; a die picks a
    family (the file name before its first ``-``) at random, then one of its files, so a
    family with many weights is not drawn more often. ``share``: how often a numeral face
    is drawn from these fonts rather than OpenCV's own.
    """

    def __init__(self, paths: Iterable[str | Path], share: float = 0.75):
        if not hasattr(cv2, "FontFace"):
            raise RuntimeError(
                f"numerals from font files need OpenCV 5 (cv2.FontFace); this is OpenCV "
                f"{cv2.__version__}: pip install 'opencv-python-headless>=5'"
            )
        self.share = share
        self.families: dict[str, list[dict[int, np.ndarray]]] = {}
        for path in sorted(Path(p) for p in paths):
            self.families.setdefault(font_family(path), []).append(_numerals(path))
        if not self.families:
            raise ValueError("no font files given: pass .ttf or .otf files")

    def __len__(self) -> int:
        return sum(len(files) for files in self.families.values())

    def by_family(self) -> dict[str, NumeralFonts]:
        """Each family alone, drawn always (share 1), its numerals not drawn again."""
        out = {}
        for name, files in self.families.items():
            one = NumeralFonts.__new__(NumeralFonts)
            one.share, one.families = 1.0, {name: files}
            out[name] = one
        return out

    def draw(self, rng: np.random.Generator, canvas: np.ndarray, value: int) -> None:
        """Numeral ``value`` drawn on the square ``canvas`` (uint8, in place) in 255, about
        as big as a die's numeral; a 6 is often marked (a bar or a dot below it), as on
        real dice, and now and then another numeral is too."""
        family = list(self.families.values())[int(rng.integers(len(self.families)))]
        glyph = family[int(rng.integers(len(family)))][value]
        n = canvas.shape[0]
        gh, gw = glyph.shape
        h = n * rng.uniform(0.42, 0.66)
        w = min(gw * h / gh * rng.uniform(0.85, 1.15), n * 0.8)
        cx, cy = n / 2 + rng.uniform(-0.04, 0.04) * n, n / 2 + rng.uniform(-0.04, 0.04) * n
        m = np.float32([[w / gw, 0, cx - w / 2], [0, h / gh, cy - h / 2]])
        shape = cv2.warpAffine(glyph, m, (n, n), flags=cv2.INTER_AREA)
        if rng.random() < 0.3:  # paint that spread, or an engraving's worn edge
            k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
            if rng.random() < 0.5:
                shape = cv2.dilate(shape, k)
            elif (thinner := cv2.erode(shape, k)).sum() > 0.6 * shape.sum():  # not a thin one
                shape = thinner
        np.maximum(canvas, shape, out=canvas)
        if rng.random() < (0.6 if value == 6 else 0.1):
            y = int(cy + h / 2 + n * rng.uniform(0.05, 0.09))
            t = max(2, int(n * rng.uniform(0.03, 0.05)))
            if rng.random() < 0.7:
                cv2.line(canvas, (int(cx - w / 2), y), (int(cx + w / 2), y), 255, t, cv2.LINE_AA)
            else:
                cv2.circle(canvas, (int(cx), y), t, 255, -1, cv2.LINE_AA)


def font_family(path: Path) -> str:
    """A font file's family: its name before the first ``-`` (DejaVuSans-Bold.ttf: DejaVuSans)."""
    return path.stem.split("-")[0]


def font_list(listing: Path) -> list[Path]:
    """The font files a list names (one a line; # starts a comment), each checked to exist;
    a clear error names the first one missing."""
    if not listing.is_file():
        raise FileNotFoundError(f"font list {listing} does not exist")
    lines = (line.split("#")[0].strip() for line in listing.read_text().splitlines())
    paths = [Path(line) for line in lines if line]
    if missing := [str(p) for p in paths if not p.is_file()]:
        raise FileNotFoundError(
            f"font list {listing}: {len(missing)} of its {len(paths)} font files are missing, "
            f"first {missing[0]}; install the Debian packages its comments name"
        )
    return paths


def _numerals(path: Path) -> dict[int, np.ndarray]:
    """The numerals 1..6 of font file ``path``, each cut to its ink (uint8, 128 px tall)."""
    if not path.is_file():  # cv2.FontFace quietly falls back to its own font
        raise FileNotFoundError(f"font file {path} does not exist")
    with path.open("rb") as f:
        if f.read(4) not in FONT_MAGIC:  # cv2.FontFace crashes on a file that is not a font
            raise ValueError(f"{path} is not a TrueType or OpenType font file")
    # never freed: OpenCV 5.0 can draw a new face in the shapes of one freed before it
    key = str(path.resolve())
    if key not in _FONT_FACES:
        _FONT_FACES[key] = cv2.FontFace(key)
    face = _FONT_FACES[key]
    out = {}
    for value in range(1, 7):
        canvas = np.zeros((256, 256), np.uint8)
        cv2.putText(canvas, str(value), (64, 192), 255, face, 128)
        ys, xs = np.nonzero(canvas > 8)
        if not len(xs):
            raise ValueError(f"{path} draws no numeral {value}: give fonts that have digits")
        out[value] = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()
    return out


def _draw_symbol(canvas: np.ndarray, name: str, n: int) -> None:
    c, r = n / 2, n * 0.3
    if name == "star":
        pts = [
            (
                c + (r if i % 2 == 0 else r * 0.45) * np.sin(i * np.pi / 5),
                c - (r if i % 2 == 0 else r * 0.45) * np.cos(i * np.pi / 5),
            )
            for i in range(10)
        ]
        cv2.fillPoly(canvas, [np.int32(pts)], 255, cv2.LINE_AA)
    elif name == "triangle":
        cv2.fillPoly(
            canvas,
            [np.int32([(c, c - r), (c + r, c + r * 0.8), (c - r, c + r * 0.8)])],
            255,
            cv2.LINE_AA,
        )
    elif name == "square":
        cv2.rectangle(
            canvas,
            (int(c - r * 0.8), int(c - r * 0.8)),
            (int(c + r * 0.8), int(c + r * 0.8)),
            255,
            -1,
        )
    elif name == "cross":
        t = int(r * 0.35)
        cv2.rectangle(canvas, (int(c - r), int(c - t)), (int(c + r), int(c + t)), 255, -1)
        cv2.rectangle(canvas, (int(c - t), int(c - r)), (int(c + t), int(c + r)), 255, -1)
    elif name == "ring":
        cv2.circle(canvas, (int(c), int(c)), int(r), 255, max(2, int(r * 0.35)), cv2.LINE_AA)
    elif name == "moon":
        cv2.circle(canvas, (int(c), int(c)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(canvas, (int(c + r * 0.5), int(c - r * 0.2)), int(r * 0.85), 0, -1, cv2.LINE_AA)
    elif name == "diamond":
        cv2.fillPoly(
            canvas,
            [np.int32([(c, c - r), (c + r * 0.7, c), (c, c + r), (c - r * 0.7, c)])],
            255,
            cv2.LINE_AA,
        )
    elif name == "bars":
        for k in (-1, 0, 1):
            y = int(c + k * r * 0.6)
            cv2.rectangle(
                canvas, (int(c - r), y - int(r * 0.15)), (int(c + r), y + int(r * 0.15)), 255, -1
            )
    else:
        raise ValueError(f"unknown symbol {name!r}; known: {', '.join(SYMBOLS)}")


def random_face(
    rng: np.random.Generator, kinds: tuple[str, ...] = ("pips", "numeral", "dot")
) -> Face:
    kind = str(rng.choice(kinds))
    if kind == "dot":
        return Face("dot", str(rng.choice(list(DOT_COLOURS))))
    if kind == "symbol":
        return Face("symbol", str(rng.choice(SYMBOLS)))
    return Face(kind, int(rng.integers(1, 7)))


def random_colours(rng: np.random.Generator, face: Face) -> tuple[np.ndarray, np.ndarray, float]:
    """Body colour, ink colour (BGR float32) and opacity (1 solid, lower translucent)."""
    style = rng.random()
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
) -> Die:
    """Draw one die on ``img`` (float32 BGR, in place) and return where it is.

    ``sides``: the side faces a slant shows carry their own pips (numeral, dot or symbol),
    as a real die's do, not only the body's colour. ``fonts``: see ``face_texture``."""
    body, ink, opacity = random_colours(rng, face)
    angle = rng.uniform(0, 2 * np.pi) if angle is None else angle
    slant = rng.uniform(0, 0.35) if slant is None else slant
    squash = 1 - slant * rng.uniform(0.3, 0.8)  # seen at an angle the top face is foreshortened
    cx, cy = centre
    half = size / 2
    corners = np.array([(-half, -half), (half, -half), (half, half), (-half, half)], np.float32)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    top = corners @ rot.T
    top[:, 1] *= squash
    top += (cx, cy)
    # the side face that shows when the die is seen at a slant, below the top face
    depth = np.array([rng.uniform(-0.3, 0.3) * slant, slant], np.float32) * size
    hull = cv2.convexHull(np.concatenate([top, top + depth]).astype(np.float32))[:, 0]
    h, w = img.shape[:2]
    # shadow
    shadow = np.zeros((h, w), np.float32)
    off = np.array([rng.uniform(-0.2, 0.2), rng.uniform(0.05, 0.25)], np.float32) * size
    cv2.fillPoly(shadow, [np.int32(hull + off)], 1.0, cv2.LINE_AA)
    k = int(size * 0.15) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0) * rng.uniform(0.2, 0.55)
    img *= (1 - shadow)[..., None]
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
    mask = np.zeros((n, n), np.float32)
    rr = int(n * rng.uniform(0.08, 0.2))
    cv2.rectangle(mask, (rr, 0), (n - 1 - rr, n - 1), 1.0, -1)
    cv2.rectangle(mask, (0, rr), (n - 1, n - 1 - rr), 1.0, -1)
    for x, y in ((rr, rr), (n - 1 - rr, rr), (rr, n - 1 - rr), (n - 1 - rr, n - 1 - rr)):
        cv2.circle(mask, (x, y), rr, 1.0, -1, cv2.LINE_AA)
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
    return Die(face, box, (float(cx), float(cy)), float(size))


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
        others = [Face("symbol", c) for c in SYMBOLS if c != face.value]
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
) -> tuple[np.ndarray, list[Die]]:
    """A table with dice on it: the BGR image and the dice, each with its box.

    ``mess`` things that are not dice (see ``clutter``) are drawn on the table first; their
    boxes are added to ``things`` if it is given. ``sides``: the dice may be seen at a
    steeper slant, their side faces drawn with their own pips (``draw_die``). ``fonts``:
    numerals are drawn in these fonts too (``face_texture``).
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
    dice = []
    for i, (x, y, s) in enumerate(spots):
        face = faces[i] if faces is not None else random_face(rng, kinds)
        lean = slant * rng.uniform(0.7, 1.0)
        dice.append(draw_die(rng, img, face, (x, y), s, slant=lean, sides=sides, fonts=fonts))
    img = lighting(rng, img)
    return finish(rng, img), dice


def roll_sequence(
    seed: int,
    values_per_roll: list[list[int]],
    h: int = 480,
    w: int = 640,
    rest_frames: int = 12,
    kind: str = "pips",
) -> Iterator[np.ndarray]:
    """Frames of dice being rolled again and again on one table, for the demo and tests,
    one at a time as they are drawn (the demo writes each to disk at once: its 114 frames
    of 640x480 in a list held about 100 MB).

    For each roll: a hand sweeps across, the dice tumble (moving, blurred) and then
    lie still for ``rest_frames`` frames showing ``values``.
    """
    rng = np.random.default_rng(seed)
    table = lighting(rng, background(rng, h, w))
    drawn = 0  # frames given so far: a still frame's sensor noise is seeded by its number
    size = 0.09 * min(h, w)
    for values in values_per_roll:
        faces = [Face(kind, v) for v in values]
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
