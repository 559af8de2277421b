"""From camera frames to roll events: the live half of the dice reader.

``RollWatcher.step()`` takes one frame from the camera, measures how much of the
picture moved, reads the dice, and feeds the settle tracker; it returns the
``Settled`` event the frame completes, if any. Once it has seen the table empty,
that picture checks the reader's findings (see ``companion.vision.table``).
``status`` says what the device is doing for the table page: "waiting for a roll",
"reading", or "camera lost".
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import cv2
import numpy as np

from companion.vision.reader import DiceReader
from companion.vision.settle import Frame, Reading, Settled, Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.table import EmptyTable

log = logging.getLogger(__name__)


def motion(prev: np.ndarray | None, frame: np.ndarray) -> tuple[float, np.ndarray]:
    """Share of the picture that changed since ``prev`` (a small blurred grey copy), and the
    small blurred grey copy of ``frame``."""
    small = cv2.cvtColor(
        cv2.resize(frame, (160, 120), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    )
    small = cv2.GaussianBlur(small, (5, 5), 0)
    return (1.0 if prev is None else changed(prev, small)), small


def changed(a: np.ndarray, b: np.ndarray) -> float:
    """Share of the pixels of two small grey copies (``motion``) that differ."""
    return float((cv2.absdiff(a, b) > 18).mean())


# The smallest die width, in the 640-pixel analysis frame, the reader finds reliably
# (hardware/README.md, "Camera placement"; the camera view says the same, web/static/camera.js).
WANTED_PX = 25


def die_width(dice) -> int | None:
    """The median width of ``dice`` (their boxes' longer sides) in pixels; None for none."""
    sides = sorted(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice)
    return int(sides[len(sides) // 2]) if sides else None


def shown(die) -> str:
    """What a person is shown for ``die`` (a reading): its value, "?" where it was read
    unsure, and for a colour-dotted die its colour (the value is the face's place in the
    game's order: a yellow dot is a 1, and a player looks for yellow)."""
    if die.value is None:
        return "?"
    face = getattr(die, "face", "")
    return face[4:] if face.startswith("dot-") else str(die.value)


def draw(img: np.ndarray, dice, title: str = "", phone: bool = False) -> np.ndarray:
    """``img`` with each die's box and value drawn, sized for the picture (``phone``: and
    for reading it on a phone, at about half its size); with its confidence too, unless the
    tag would then hide another die or its tag (a heap)."""
    out = img.copy()
    scale, thick = _pen(img, phone, die_width(dice))
    tags: list[tuple[int, int, int, int]] = []
    for i, d in enumerate(dice):
        value = shown(d)
        text = f"{value} {d.confidence:.2f}"
        # In a heap the whole tag would hide the dice beside it, or their tags: the value
        # alone, then.
        place = _tag_place(out.shape, d.box, text, scale, thick)
        others = [o.box for j, o in enumerate(dice) if j != i] + tags
        if any(_overlap(place, o) for o in others):
            text = value
            place = _tag_place(out.shape, d.box, text, scale, thick)
        tags.append(place)
        _tag(out, d.box, text, d.value is not None, scale, thick, place)
    if title:
        cv2.putText(
            out,
            title,
            (8, int(28 * scale)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8 * scale,
            (255, 255, 255),
            thick + 1,
            cv2.LINE_AA,
        )
    return out


def draw_roll(img: np.ndarray, boxes, values) -> np.ndarray:
    """A roll as the pages show it to a person who confirms it: each die boxed with its
    number in reading order, the order of the dice in the confirm list, and what the camera
    read (? where it was unsure)."""
    out = img.copy()
    scale, thick = _pen(img, phone=True)
    for n, (box, value) in enumerate(zip(boxes, values, strict=True), 1):
        _tag(out, box, f"{n}: {'?' if value is None else value}", value is not None, scale, thick)
    return out


def _pen(img: np.ndarray, phone: bool = False, die: int | None = None) -> tuple[float, int]:
    """Text scale and line width for a picture of this size; bigger for a picture read on a
    phone, at about half its size. With ``die``, the dice's width (``die_width``), no bigger
    than for a picture whose dice are ``WANTED_PX`` wide a 640 px: sized by a phone photo of
    a heap alone, a tag is taller than the dice and hides them."""
    scale = max(img.shape[:2]) / 640
    if die:
        scale = min(scale, max(0.5, die / WANTED_PX))
    thick = max(1, round(2 * scale))
    return (1.6 * scale, thick + 1) if phone else (scale, thick)


def _tag_place(shape, box, text: str, scale: float, thick: int) -> tuple[int, int, int, int]:
    """Where the tag with ``text`` for the die in ``box`` goes (x0, y0, x1, y1) in a picture
    of ``shape``: on the box's top edge; for a die at the picture's top edge, under its box
    instead (inside it if that is the bottom edge too), and never off the side."""
    h, w = shape[:2]
    x0, y0, _, y1 = map(int, box)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, thick)
    tag = th + 6
    top = y0 - tag if y0 >= tag else (y1 if y1 + tag <= h else y0)
    left = max(0, min(x0, w - tw - 4))
    return left, top, left + tw + 4, top + tag


def _overlap(a, b) -> bool:
    """Whether the rectangles ``a`` and ``b`` (x0, y0, x1, y1) share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _tag(out: np.ndarray, box, text: str, sure: bool, scale: float, thick: int, place=None) -> None:
    """Draw ``box`` and ``text`` on a tag at its edge (at ``place``, if worked out already):
    green for a die read, orange if not."""
    colour = (40, 200, 40) if sure else (0, 140, 255)
    x0, y0, x1, y1 = map(int, box)
    cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
    left, top, right, bottom = place or _tag_place(out.shape, box, text, scale, thick)
    cv2.rectangle(out, (left, top), (right, bottom), colour, -1)
    cv2.putText(
        out,
        text,
        (left + 2, bottom - 4),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.6 * scale,
        (0, 0, 0),
        thick,
        cv2.LINE_AA,
    )


class RollWatcher:
    """Camera, reader and settle tracker, one frame at a time."""

    def __init__(
        self,
        camera: CameraSupervisor,
        reader: DiceReader,
        settler: Settler | None = None,
        expected: Callable[[], int | None] | None = None,
    ):
        self.camera, self.reader = camera, reader
        self.settler = settler or Settler()
        self.expected = expected
        self.status = "waiting for a roll"
        self.table = EmptyTable()  # learned when the camera sees the table empty
        self._prev: np.ndarray | None = None
        self._last: tuple[np.ndarray, list] | None = None  # the last frame read, and its dice
        self.frame: np.ndarray | None = None  # the camera's latest frame (None while lost)
        self.dice: list = []  # the dice read in it (none while the picture moves)

    def step(self) -> Settled | None:
        frame = self.frame = self.camera.read()
        if frame is None:
            self.status = "camera lost"
            self.dice = []
            self._prev = self._last = None
            self.table.forget()  # it may come back looking somewhere else
            return None
        moved, self._prev = motion(self._prev, frame)
        if self.expected is not None:
            self.settler.expected = self.expected()
        dice = []
        if moved <= self.settler.motion_limit:  # no need to read a moving picture
            dice = self._read(frame, self._prev)
        self.dice = dice
        event = self.settler.feed(
            Frame(tuple(Reading(d.box, d.value, d.confidence) for d in dice), moved)
        )
        self.status = "reading" if moved > self.settler.motion_limit else "waiting for a roll"
        return event

    def _read(self, frame: np.ndarray, small: np.ndarray) -> list:
        """The dice in a still frame. Once the settler has read this rest (and any window it
        reads again while a roll waits for a person), a picture that is the same as the last
        one read is not read again: dice left on the table between turns cost next to
        nothing, and the Pi stays cool and free to serve the pages."""
        if (
            self._last is not None
            and self.settler.done
            and changed(self._last[0], small) <= self.settler.motion_limit
        ):
            return self._last[1]
        # the faces read from the camera's larger picture of this frame, if it gives one
        detail = self.camera.detail()
        dice = self.table.check(frame, self.reader.read(frame, detail), self.reader, detail)
        self._last = (small, dice)
        if log.isEnabledFor(logging.DEBUG):  # `companion -v`: what each still frame showed
            log.debug(
                "read %d dice: %s",
                len(dice),
                " ".join(
                    f"{'?' if d.value is None else d.value}({d.confidence:.2f})" for d in dice
                ),
            )
        return dice
