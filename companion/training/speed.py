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
# ``speed_by_dice``'s bands of labelled dice in a frame, and the frames timed in each
DICE_BANDS = ((1, 5), (6, 10), (11, 15), (16, 60))
BAND_FRAMES = 20


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


def crowd_frames(data: Path, sets: dict, low: int, high: int, count: int = BAND_FRAMES):
    """Up to ``count`` frames of 640x640 holding ``low`` to ``high`` labelled dice: the
    middle 640x640 of each whole-table photo in ``sets`` (``evaluate.load_split``'s
    {set: {file: labels}}) at least that size, a photo of another size first scaled so its
    shorter side is 640; the dice counted are those whose centre lies in the frame."""
    frames = []
    for name, files in sorted(sets.items()):
        for fn, labels in sorted(files.items()):
            if len(frames) == count:
                return frames
            if not low <= len(labels) <= 3 * high:  # a frame cut from it may hold fewer
                continue
            img = cv2.imread(str(data / name / fn))
            if img is None or min(img.shape[:2]) < 320:
                continue
            k = 640 / min(img.shape[:2])
            img = cv2.resize(img, None, fx=k, fy=k) if k != 1 else img
            y0, x0 = (img.shape[0] - 640) // 2, (img.shape[1] - 640) // 2
            inside = sum(
                x0 <= (b[0] + b[2]) / 2 * k < x0 + 640 and y0 <= (b[1] + b[3]) / 2 * k < y0 + 640
                for _, b in labels
            )
            if low <= inside <= high:
                frames.append(img[y0 : y0 + 640, x0 : x0 + 640])
    return frames


def speed_by_dice(reader: DiceReader, data: Path, sets: dict) -> dict:
    """Median ms to read a 640x640 frame on one thread, by how many dice it holds
    (``DICE_BANDS``; ``crowd_frames``), each frame read once to warm and then three times."""
    cv2.setNumThreads(1)
    out = {}
    for low, high in DICE_BANDS:
        frames = crowd_frames(data, sets, low, high)
        if not frames:
            continue
        for img in frames:
            reader.read(img)
        timed = []
        for _ in range(3):
            for img in frames:
                t0 = time.perf_counter()
                reader.read(img)
                timed.append(time.perf_counter() - t0)
        out[f"{low} to {high}"] = {
            "frames": len(frames),
            "read_ms_median": round(statistics.median(timed) * 1000, 2),
        }
    return out
