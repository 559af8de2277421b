"""``companion bench watch``: what the camera loop costs a frame, roll by roll.

The loop of ``companion serve`` (``RollWatcher.step``) on a replayed roll: a hand, the
dice tumbling, then the dice left lying on the table, as they are between turns. Each
frame is timed from the camera's read to the settler's answer, and counted in one of
three phases: moving (nothing is read), reading (still frames until the roll is
reported) and at rest (after it). Frames are BMP files, so decoding them costs little,
as a camera's frames do; the reader runs on one thread, as on the Pi.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import cv2

from companion.config import CameraConfig
from companion.vision.camera import CameraSupervisor, ReplayCamera
from companion.vision.reader import DiceReader
from companion.vision.render import roll_sequence
from companion.vision.settle import Settler
from companion.vision.watch import RollWatcher

ROLL = [3, 1, 6, 2, 5]


def rss_mb() -> float:
    """The memory this process holds resident now, in MB (Linux's /proc, as on the Pi)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def bench_watch(rest_frames: int = 100) -> dict:
    frames = list(roll_sequence(7, [ROLL], rest_frames=rest_frames))
    count = len(frames)
    with tempfile.TemporaryDirectory() as tmp:
        for i, frame in enumerate(frames):
            cv2.imwrite(str(Path(tmp) / f"f{i:04d}.bmp"), frame)
        del frames, frame  # the rendered roll is the benchmark's, not the device's memory
        watcher = RollWatcher(
            CameraSupervisor(lambda: ReplayCamera(tmp, fps=0, loop=False)),
            DiceReader(threads=1, view=CameraConfig().view),  # as the device reads
            Settler(expected=len(ROLL)),
        )
        phases: dict[str, list[float]] = {"moving": [], "reading": [], "at_rest": []}
        events, resident = [], []
        for _ in range(count):
            t = time.perf_counter()
            event = watcher.step()
            ms = (time.perf_counter() - t) * 1000
            resident.append(rss_mb())
            if event is not None:
                events.append(event)
            if watcher.status == "reading":  # the watcher's word for a picture that moves
                phases["moving"].append(ms)
            else:
                phases["at_rest" if events and event is None else "reading"].append(ms)
    return {
        "frames": count,
        "rolls_reported": len(events),
        "rolls_read_right": sum(sorted(e.values) == sorted(ROLL) for e in events),
        **{f"{k}_frames": len(v) for k, v in phases.items()},
        **{f"{k}_ms_per_frame": round(statistics.median(v), 2) for k, v in phases.items() if v},
        "rss_mb_max": round(max(resident), 1),
        "note": "median milliseconds a frame of RollWatcher.step on a replayed roll (camera "
        "read included), one reader thread; at_rest: the dice left lying after their roll "
        "was reported; rss_mb_max: the most the process held resident after a frame",
    }
