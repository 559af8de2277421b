"""Numerals 1..6 in the shapes of font files, for the renderer's numeral dice (``render``).

A classifier that learned numerals only from OpenCV's own few faces read other fonts'
numerals poorly, so numeral faces are drawn in the shapes of
real font files too; ``companion bench numerals`` measures fonts never trained on.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

FONT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")
_FONT_FACES: dict[str, object] = {}


class NumeralFonts:
    """Numerals 1..6 in the shapes of font files (TrueType or OpenType), so that rendered
    numeral dice are not all in OpenCV's own few faces: a classifier that learned numerals
    only from those read other fonts' numerals poorly.

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
