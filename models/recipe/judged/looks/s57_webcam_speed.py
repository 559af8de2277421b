"""A measurement (session 57; decides nothing): what a USB webcam's 1280x720 frame costs
the shipped reader against the 640x640 frames `bench vision` times. Over 1024 px the reader
also reads tile by tile, and C39 runs the detector again on each die a tile keeps. The
frames: `bench vision`'s 60 (the first 640x640 photos of the data folder, sorted), each
also made 1280x720 (the photo at 720x720, reflected out at its sides to 1280 wide, so the
dice keep their shape and some are seen twice). On one thread, each frame read once first,
then the two sizes alternately in three passes; with the detector's runs a frame counted.
Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s57_webcam_speed.py ../shared/data/dice
"""

import statistics
import sys
import time
from pathlib import Path

import cv2

from companion.vision.reader import DiceReader, model_dir

PASSES = 3


def frames(data: Path, count: int = 60) -> list:
    out = []
    for path in sorted(data.glob("*/*.jpg")):
        img = cv2.imread(str(path))
        if img is not None and img.shape[:2] == (640, 640):
            out.append(img)
        if len(out) == count:
            break
    return out


def webcam(img):
    big = cv2.resize(img, (720, 720), interpolation=cv2.INTER_LINEAR)
    return cv2.copyMakeBorder(big, 0, 0, 280, 280, cv2.BORDER_REFLECT)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    runs = [0]
    detect = reader.detect

    def counted(*args, **kwargs):
        runs[0] += 1
        return detect(*args, **kwargs)

    reader.detect = counted
    sizes = {"640x640": frames(data)}
    sizes["1280x720"] = [webcam(f) for f in sizes["640x640"]]
    assert sizes["1280x720"][0].shape[:2] == (720, 1280)
    for fs in sizes.values():
        for f in fs:
            reader.read(f)
    times = {name: [] for name in sizes}
    counts = dict.fromkeys(sizes, 0)
    for _ in range(PASSES):
        for name, fs in sizes.items():
            for f in fs:
                runs[0] = 0
                t0 = time.perf_counter()
                reader.read(f)
                times[name].append(time.perf_counter() - t0)
                counts[name] += runs[0]
    for name in sizes:
        n = len(times[name])
        print(
            f"{name}: median {statistics.median(times[name]) * 1000:.2f} ms a frame over {n}"
            f" reads; the detector run {counts[name] / n:.2f} times a frame"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
