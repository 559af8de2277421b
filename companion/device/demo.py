"""The embedded demo: a replayed camera showing dice being rolled, for `make run`.

The frames are drawn once by the dice renderer (companion.training.render) and kept
as JPEG files in the data folder, then replayed like a folder of camera frames. Like
dice on a real table, the replay holds still on the last roll until the game wants a
new one; then a hand sweeps in, the dice tumble and come to rest on the next roll. The
rolls have as many dice as the demo's game rolls (``demo_rolls``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.vision.camera import CameraError, ReplayCamera

log = logging.getLogger(__name__)

# The demo's rolls of five dice; the fourth shows one face three times (The First Island, the
# demo's default game, allows a reroll then). A game rolling fewer or more dice gets each roll
# cut to its count, or continued from its start.
ROLLS = [
    [1, 2, 3, 4, 5],
    [6, 1, 2, 2, 4],
    [3, 5, 6, 1, 3],
    [5, 5, 2, 5, 6],
    [2, 4, 6, 3, 1],
    [4, 1, 5, 6, 2],
]
FRAMES_PER_ROLL = 4 + 3 + 12  # hand, tumbling, at rest (see scenes.roll_sequence)
VERSION = 1


def demo_rolls(count: int = 5) -> list[list[int]]:
    """The demo's rolls with ``count`` dice each."""
    return [[roll[i % len(roll)] for i in range(count)] for roll in ROLLS]


def demo_frames(folder: Path, count: int = 5) -> Path:
    """The demo's camera frames of ``count`` dice in ``folder``, drawn the first time, and
    again whenever one is missing or empty (deleted, or written to a full disk): the demo
    counts its frames to know where each roll comes to rest."""
    rolls = demo_rolls(count)
    stamp = folder / "frames.json"
    want = {"version": VERSION, "rolls": rolls}
    names = [f"frame-{i:04d}.jpg" for i in range(len(rolls) * FRAMES_PER_ROLL)]
    try:
        whole = json.loads(stamp.read_text()) == want and all(
            (folder / n).stat().st_size > 0 for n in names
        )
    except (OSError, ValueError):
        whole = False
    if whole:
        return folder
    from companion.training.scenes import roll_sequence

    folder.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)  # until every frame is written again
    log.info("drawing the demo camera's frames in %s (once)", folder)
    for name, frame in zip(names, roll_sequence(2024, rolls), strict=True):
        jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        (folder / name).write_bytes(jpeg.tobytes())  # an OSError (a full disk) is raised
    stamp.write_text(json.dumps(want))
    return folder


class DemoCamera:
    """Replays the demo frames; between rolls it holds still until ``wants_roll()``."""

    def __init__(self, folder: Path, wants_roll: Callable[[], bool], fps: float = 6.0):
        self._replay = ReplayCamera(folder, fps=fps, loop=True)
        self.name = f"demo:{folder}"
        self.wants_roll = wants_roll
        self._held: np.ndarray | None = None
        self._in_roll = 0  # frames into the current roll

    def read(self) -> np.ndarray:
        if self._held is not None and not self.wants_roll():
            self._replay.pace()
            return self._held
        frame = self._replay.read()
        self._in_roll += 1
        if self._in_roll == FRAMES_PER_ROLL:  # at rest on this roll: hold it
            self._in_roll = 0
            self._held = frame
        else:
            self._held = None
        return frame

    def detail(self) -> None:
        return None

    def close(self) -> None:
        self._replay.close()


def open_demo_camera(folder: Path, wants_roll: Callable[[], bool], count: int = 5) -> DemoCamera:
    """The demo's camera, rolling ``count`` dice whenever ``wants_roll()``."""
    try:
        return DemoCamera(demo_frames(folder, count), wants_roll)
    except OSError as exc:
        raise CameraError(
            f"cannot draw the demo frames in {folder}: {exc}", code="camera/missing"
        ) from exc
