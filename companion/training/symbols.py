"""The symbols drawn on custom dice's faces: the shapes taught in the field (``companion
teach``) and My Island's commerce symbols, each filled on a face-sized mask that
``render.face_texture`` colours."""

from __future__ import annotations

import cv2
import numpy as np

# Symbols for custom dice taught in the field (see ``companion teach``).
SYMBOLS = ("star", "triangle", "square", "cross", "ring", "moon", "diamond", "bars")
# My Island's commerce dice, each symbol named as the face it stands for: a pick (Mining),
# a boat (Fishing), a tree (Logging), a cob of corn (Farming) and a palm island (My-Island).
COMMERCE = ("mining", "fishing", "logging", "farming", "my-island")


def draw_symbol(canvas: np.ndarray, name: str, n: int) -> None:
    """The symbol ``name`` filled (255) on the ``n``x``n`` mask ``canvas``."""
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
    elif name in COMMERCE:
        _draw_commerce(canvas, name, c, r)
    elif name == "bars":
        for k in (-1, 0, 1):
            y = int(c + k * r * 0.6)
            cv2.rectangle(
                canvas, (int(c - r), y - int(r * 0.15)), (int(c + r), y + int(r * 0.15)), 255, -1
            )
    else:
        raise ValueError(f"unknown symbol {name!r}; known: {', '.join(SYMBOLS)}")


def _draw_commerce(canvas: np.ndarray, name: str, c: float, r: float) -> None:
    """A commerce die's symbol, filled, about ``r`` from the centre ``c``."""

    def poly(points) -> None:
        cv2.fillPoly(
            canvas, [np.int32([(c + x * r, c + y * r) for x, y in points])], 255, cv2.LINE_AA
        )

    t = max(2, int(r * 0.22))
    if name == "mining":  # a pick: a handle across and a curved head at its top
        cv2.line(
            canvas,
            (int(c - r * 0.8), int(c + r * 0.8)),
            (int(c + r * 0.4), int(c - r * 0.4)),
            255,
            t,
            cv2.LINE_AA,
        )
        cv2.ellipse(
            canvas,
            (int(c + r * 0.25), int(c - r * 0.25)),
            (int(r * 0.95), int(r * 0.55)),
            -45,
            200,
            340,
            255,
            t + 1,
            cv2.LINE_AA,
        )
    elif name == "fishing":  # a boat: a hull and a sail on its mast
        poly([(-1, 0.35), (1, 0.35), (0.6, 0.85), (-0.6, 0.85)])
        poly([(-0.05, -0.95), (-0.05, 0.25), (-0.8, 0.25)])
        poly([(0.1, -0.7), (0.1, 0.25), (0.65, 0.25)])
    elif name == "logging":  # a fir tree: two tiers and a trunk
        poly([(0, -1), (0.6, -0.15), (-0.6, -0.15)])
        poly([(0, -0.5), (0.85, 0.5), (-0.85, 0.5)])
        cv2.rectangle(
            canvas, (int(c - r * 0.15), int(c + r * 0.5)), (int(c + r * 0.15), int(c + r)), 255, -1
        )
    elif name == "farming":  # a cob of corn between two leaves
        cv2.ellipse(
            canvas,
            (int(c), int(c - r * 0.2)),
            (int(r * 0.32), int(r * 0.75)),
            0,
            0,
            360,
            255,
            -1,
            cv2.LINE_AA,
        )
        poly([(0, 0.95), (-0.75, -0.1), (-0.45, 0.2), (-0.1, 0.6)])
        poly([(0, 0.95), (0.75, -0.1), (0.45, 0.2), (0.1, 0.6)])
    else:  # My-Island: a mound of land, a palm on it, a wave below
        cv2.ellipse(
            canvas,
            (int(c), int(c + r * 0.55)),
            (int(r * 0.9), int(r * 0.45)),
            0,
            180,
            360,
            255,
            -1,
            cv2.LINE_AA,
        )
        cv2.line(
            canvas,
            (int(c), int(c + r * 0.2)),
            (int(c + r * 0.15), int(c - r * 0.6)),
            255,
            t,
            cv2.LINE_AA,
        )
        for dx in (-0.7, 0.7):
            cv2.ellipse(
                canvas,
                (int(c + r * (0.15 + dx / 2)), int(c - r * 0.65)),
                (int(r * 0.4), int(r * 0.15)),
                15 if dx < 0 else -15,
                0,
                360,
                255,
                -1,
                cv2.LINE_AA,
            )
        cv2.ellipse(
            canvas,
            (int(c - r * 0.45), int(c + r * 0.9)),
            (int(r * 0.45), int(r * 0.2)),
            0,
            0,
            180,
            255,
            t,
            cv2.LINE_AA,
        )
        cv2.ellipse(
            canvas,
            (int(c + r * 0.45), int(c + r * 0.9)),
            (int(r * 0.45), int(r * 0.2)),
            0,
            180,
            360,
            255,
            t,
            cv2.LINE_AA,
        )
