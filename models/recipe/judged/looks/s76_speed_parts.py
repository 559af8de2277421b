"""Session 76's look (decides nothing; no rule, no candidate): where a 640x640 frame's read
goes. The frames and the timing are `bench vision`'s speed figure's (`evaluate.speed_frames`: the
first 60 photos of 640x640 under the data folder, one thread, each read once to warm up),
here in 3 passes, with each onnxruntime session's runs timed apart: the detector, the coarse
detector, the face classifier, and the card's other classifiers (second opinions and veto,
which may share a session). What is left is the reader's own Python and OpenCV work. Run
from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s76_speed_parts.py ../shared/data/dice
"""

import collections
import statistics
import sys
import time
from pathlib import Path

import cv2
import onnxruntime as ort

from companion.vision.evaluate import speed_frames
from companion.vision.reader import DiceReader, model_dir

SPENT: dict = collections.defaultdict(float)
CALLS: collections.Counter = collections.Counter()
NAMES: dict = {}
RUN = ort.InferenceSession.run


def timed_run(self, *args, **kwargs):
    t0 = time.perf_counter()
    out = RUN(self, *args, **kwargs)
    name = NAMES.get(id(self), "other classifiers")
    SPENT[name] += time.perf_counter() - t0
    CALLS[name] += 1
    return out


def main(data: Path) -> None:
    frames = list(speed_frames(data))  # read in several passes (speed_frames yields them)
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    NAMES[id(reader._detector)] = "detector"
    NAMES[id(reader._coarse[0])] = "coarse detector"
    NAMES[id(reader._faces)] = "face classifier"
    ort.InferenceSession.run = timed_run
    for img in frames:
        reader.read(img)
    SPENT.clear()
    CALLS.clear()
    reads = []
    for _ in range(3):
        for img in frames:
            t0 = time.perf_counter()
            reader.read(img)
            reads.append(time.perf_counter() - t0)
    n = len(reads)
    median, mean = statistics.median(reads) * 1000, statistics.mean(reads) * 1000
    print(f"{len(frames)} frames, 3 passes: a read's median {median:.2f} ms, mean {mean:.2f} ms")
    for name, spent in sorted(SPENT.items(), key=lambda kv: -kv[1]):
        print(f"  {name}: {spent / n * 1000:.2f} ms a frame on average, {CALLS[name] / n:.2f} runs")
    rest = (sum(reads) - sum(SPENT.values())) / n * 1000
    print(f"  the reader's own work: {rest:.2f} ms a frame on average")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
