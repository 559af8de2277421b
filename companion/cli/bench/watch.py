"""``companion bench watch``: what the camera loop costs a frame, roll by roll.

The loop of ``companion serve`` (``RollWatcher.step``) on a replayed roll: a hand, the
dice tumbling, then the dice left lying on the table, as they are between turns. Each
frame is timed from the camera's read to the settler's answer, and counted in one of
three phases: moving (nothing is read), reading (still frames until the roll is
reported) and at rest (after it). Frames are BMP files, so decoding them costs little,
as a camera's frames do; the reader runs on one thread, as the device does unless
``[vision] threads`` says otherwise (``--threads`` gives the same).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from companion.device.config import CameraConfig
from companion.training.scenes import roll_sequence
from companion.vision.camera import CameraError, ReplayCamera
from companion.vision.pi_camera import i420_to_bgr
from companion.vision.reader import DiceReader
from companion.vision.settle import Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.watch import RollWatcher

ROLL = [3, 1, 6, 2, 5]


def rss_mb() -> float:
    """The memory this process holds resident now, in MB (Linux's /proc, as on the Pi)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def bench_watch(rest_frames: int = 100, threads: int = 1) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        count = 0
        for i, frame in enumerate(roll_sequence(7, [ROLL], rest_frames=rest_frames)):
            cv2.imwrite(str(Path(tmp) / f"f{i:04d}.bmp"), frame)
            # the Pi camera's main stream beside it: twice the size, as I420
            main = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
            np.save(Path(tmp) / f"f{i:04d}.npy", cv2.cvtColor(main, cv2.COLOR_BGR2YUV_I420))
            count += 1
        del frame, main  # the rendered roll is the benchmark's, not the device's memory
        found = _timed(
            CameraSupervisor(lambda: ReplayCamera(tmp, fps=0, loop=False)), count, threads
        )
        pairs = [(p, p.with_suffix(".npy")) for p in sorted(Path(tmp).glob("*.bmp"))]
        streams = _timed(CameraSupervisor(lambda: TwoStreams(pairs)), count, threads)
    return {
        "frames": count,
        "reader_threads": threads,
        **found,
        "with_main_stream": {
            k: v for k, v in streams.items() if k.endswith(("ms_per_frame", "right", "max"))
        },
        "note": "median milliseconds a frame of RollWatcher.step on a replayed roll (camera "
        "read included), the reader on reader_threads onnxruntime threads; at_rest: the dice "
        "left lying after their roll was reported; rss_mb_max: the most the process held "
        "resident after a frame; with_main_stream: the same roll given as the Pi camera "
        "gives it, each frame with a main stream twice its size from which the faces are read",
    }


def _timed(camera: CameraSupervisor, count: int, threads: int = 1) -> dict:
    """The watcher's frames on ``camera``, timed and counted by phase."""
    watcher = RollWatcher(
        camera,
        DiceReader(threads=threads, view=CameraConfig().view),  # as the device reads
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
        "rolls_reported": len(events),
        "rolls_read_right": sum(sorted(e.values) == sorted(ROLL) for e in events),
        **{f"{k}_frames": len(v) for k, v in phases.items()},
        **{f"{k}_ms_per_frame": round(statistics.median(v), 2) for k, v in phases.items() if v},
        "rss_mb_max": round(max(resident), 1),
    }


class TwoStreams:
    """Saved frames as the Pi camera gives them (``PiCamera``): each read frame (a BMP) has
    its main stream (an I420 array twice its size, .npy) beside it, turned into BGR only
    when the reader asks for it."""

    name = "two streams"

    def __init__(self, pairs: list[tuple[Path, Path]]):
        self._pairs = iter(pairs)
        self._main: np.ndarray | None = None
        self._detail: np.ndarray | None = None

    def read(self) -> np.ndarray:
        frame, main = next(self._pairs, (None, None))
        if frame is None:
            raise CameraError("the saved frames have ended", code="camera/ended")
        self._main, self._detail = np.load(main), None
        return cv2.imread(str(frame))

    def detail(self) -> np.ndarray | None:
        if self._detail is None and self._main is not None:
            self._detail = i420_to_bgr(self._main, self._main.shape[1])
        return self._detail

    def close(self) -> None:
        pass
