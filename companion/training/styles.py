"""The harder looks of real dice, drawn for training a reader that does not depend on colour.

Gaming dice come in far more looks than white with black pips: dark bodies (black, navy,
purple, dark green, brown) with red, gold, green or blue pips; a coloured ink on a coloured
body, sometimes in low contrast (gold on orange); pastel and neon bodies; bodies marbled
in two colours, whose swirls cross the pips; glitter; translucent bodies. A reader trained
on a few plain looks reads these worst, so a face drawn with ``Face.body == "any"`` gets
one of them (or, some of the time, the plain palette of ``render.random_colours``).
"""

from __future__ import annotations

import cv2
import numpy as np

# pip and numeral inks, BGR
INKS: dict[str, tuple[int, int, int]] = {
    "white": (235, 235, 235),
    "black": (25, 25, 25),
    "red": (40, 40, 200),
    "gold": (50, 175, 215),
    "green": (70, 170, 60),
    "blue": (200, 110, 40),
    "silver": (180, 180, 180),
}
PLAIN = 0.4  # the share of "any" dice drawn in the plain palette
# the least an ink stands out from its body: a difference of grey level, or of colour
LEAST_GREY, LEAST_COLOUR = 22.0, 70.0


def _hsv(hue: float, sat: float, val: float) -> np.ndarray:
    hsv = np.uint8([[[int(hue) % 180, int(sat), int(val)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _grey(bgr: np.ndarray) -> float:
    return float(bgr @ np.float32([0.114, 0.587, 0.299]))


def stands_out(body: np.ndarray, ink: np.ndarray) -> bool:
    """Whether ``ink`` can be told from ``body`` at all: by grey level or by colour."""
    grey = abs(_grey(body) - _grey(ink))
    return grey >= LEAST_GREY or float(np.linalg.norm(body - ink)) >= LEAST_COLOUR


def wide_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float] | None:
    """Body colour, ink colour (BGR float32) and opacity of a die of any look, or None for
    one in the plain palette (``PLAIN`` of the time)."""
    style = rng.random()
    if style < PLAIN:
        return None
    for _ in range(20):
        ink_name = str(rng.choice(list(INKS)))
        ink = np.float32(INKS[ink_name]) * rng.uniform(0.75, 1.1)
        if style < 0.65:  # a dark body: black, navy, purple, dark green, brown
            body = _hsv(rng.integers(0, 180), rng.uniform(40, 255), rng.uniform(20, 90))
        elif style < 0.8:  # pastel or neon
            sat = rng.uniform(40, 110) if rng.random() < 0.5 else rng.uniform(200, 255)
            body = _hsv(rng.integers(0, 180), sat, rng.uniform(190, 255))
        else:  # a coloured body, its ink of another colour
            body = _hsv(rng.integers(0, 180), rng.uniform(120, 255), rng.uniform(90, 230))
        if stands_out(body, ink):
            break
    else:  # every draw too close: white or black ink, whichever stands out more
        ink = np.float32(INKS["white" if _grey(body) < 128 else "black"])
    opacity = 1.0 if rng.random() < 0.7 else rng.uniform(0.5, 0.8)
    return np.clip(body, 0, 255), np.clip(ink, 0, 255), opacity


def marble(rng: np.random.Generator, tile: np.ndarray) -> np.ndarray:
    """``tile`` (a face's body, n x n BGR float32) marbled: veins of a second colour that
    wind across it, as strong as the body's own colour in places."""
    n = tile.shape[0]
    noise = rng.normal(0, 1, (max(2, n // 6), max(2, n // 6))).astype(np.float32)
    noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), 1.0), (n, n), interpolation=cv2.INTER_CUBIC)
    veins = np.abs(np.sin(noise * rng.uniform(2.5, 7.0)))
    veins = (veins ** rng.uniform(0.5, 3.0) * rng.uniform(0.4, 1.0))[..., None]
    base = tile.reshape(-1, 3).mean(0)
    for _ in range(20):  # a second colour that shows on the body
        second = _hsv(rng.integers(0, 180), rng.uniform(0, 255), rng.uniform(30, 255))
        if float(np.linalg.norm(second - base)) >= LEAST_COLOUR:
            break
    return tile * (1 - veins) + second * veins


def glitter(rng: np.random.Generator, tile: np.ndarray) -> np.ndarray:
    """``tile`` with specks of glitter: small bright points scattered over the body."""
    n = tile.shape[0]
    out = tile.copy()
    for _ in range(int(n * n * rng.uniform(0.004, 0.015))):
        x, y = (int(v) for v in rng.integers(0, n, 2))
        colour = tuple(float(c) for c in rng.uniform(150, 255, 3))
        cv2.circle(out, (x, y), int(rng.integers(0, 2)), colour, -1)
    return out


def textured(rng: np.random.Generator, tile: np.ndarray) -> np.ndarray:
    """A die body of any look: plain, marbled in two colours or glittering."""
    look = rng.random()
    if look < 0.3:
        return marble(rng, tile)
    if look < 0.42:
        return glitter(rng, tile)
    return tile
