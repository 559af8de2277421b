"""How fast the dice reader reads a frame: ``companion bench vision``'s speed figure."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.vision.reader import DiceReader

SPEED_PASSES = 5  # timed passes over the speed frames (``speed``)


def speed_frames(data: Path, count: int = 60) -> Iterator[np.ndarray]:
    """The frames ``speed`` times, one at a time: the first ``count`` photos of 640x640 under
    ``data``, or, where there are none, the first ``count`` photos of any size resized to
    640x640. One at a time, so that ``speed`` holds its frames as JPEG files, not 60 decoded
    frames (74 MB) that would count in the benchmark's peak memory."""
    given = 0
    for path in sorted(data.glob("*/*.jpg")):
        if given == count:
            return
        img = cv2.imread(str(path))
        if img is not None and img.shape[:2] == (640, 640):
            given += 1
            yield img
    if not given:  # no 640x640 photos: use any, resized
        for path in sorted(data.glob("*/*.jpg"))[:count]:
            yield cv2.resize(cv2.imread(str(path)), (640, 640))


def speed(reader: DiceReader, data: Path, count: int = 60, passes: int = SPEED_PASSES) -> dict:
    """Median ms to read a 640x640 frame, and to decode the same JPEG, on one thread.

    Each frame is read once to warm the reader, then timed in ``passes`` passes over all the
    frames: a shared machine's speed drifts over seconds to minutes (the development
    machine's by up to a quarter), and one pass's median moves with it. The
    median is over every timed read; each pass's median is reported too, so the drift
    shows."""
    frames = [cv2.imencode(".jpg", img)[1] for img in speed_frames(data, count)]
    cv2.setNumThreads(1)
    for buf in frames:
        reader.read(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    decode: list[float] = []
    read: list[list[float]] = []
    for _ in range(passes):
        read.append([])
        for buf in frames:
            t0 = time.perf_counter()
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            decode.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            reader.read(img)
            read[-1].append(time.perf_counter() - t0)
    d = statistics.median(decode) * 1000
    r = statistics.median(t for timed in read for t in timed) * 1000
    return {
        "frames": len(frames),
        "passes": passes,
        "read_ms_median": round(r, 2),
        "read_ms_median_by_pass": [round(statistics.median(t) * 1000, 2) for t in read],
        "jpeg_decode_ms_median": round(d, 2),
        "read_to_decode_ratio": round(r / d, 1),
    }
