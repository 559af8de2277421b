"""Session 79's look (decides nothing; no rule, no candidate): how long a 640x640 frame's read
would take if the detector cost nothing. Session 76's look (`s76_speed_parts.py`) gives each
part's mean over the frames; the mean is raised by crowded tables, whose many dice cost the
classifiers, where the detector costs about the same in every frame. Here each read is timed
with the time its detector runs took (the full pass and the coarse one), and the medians over
every read are given: of the whole read, of the detector's runs, and of the read less them.
The frames and the timing as `bench vision`'s speed figure's (`evaluate.speed_frames`: the
first 60 photos of 640x640 under the data folder, one thread, each read once to warm up), in
3 passes. Then the two detectors the reader holds, the shipped one and the small one it runs
for the coarse pass (the detector shipped before session 37), are each timed alone on the
same 512x512 letterboxed frame, as the full pass feeds its detector: 40 runs after 5 to warm
up, median, twice in turn. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s79_speed_without_detector.py ../shared/data/dice
"""

import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import onnxruntime as ort

from companion.machine import machine
from companion.vision.evaluate import speed_frames
from companion.vision.pictures import letterbox
from companion.vision.reader import STRIDE_COARSEST, DiceReader, model_dir

RUN = ort.InferenceSession.run
DETECTORS: set[int] = set()
SPENT = [0.0]  # the detectors' time in the read being timed


def timed_run(self, *args, **kwargs):
    if id(self) not in DETECTORS:
        return RUN(self, *args, **kwargs)
    t0 = time.perf_counter()
    out = RUN(self, *args, **kwargs)
    SPENT[0] += time.perf_counter() - t0
    return out


def main(data: Path) -> None:
    frames = list(speed_frames(data))
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    DETECTORS.update({id(reader._detector), id(reader._coarse[0])})
    ort.InferenceSession.run = timed_run
    for img in frames:
        reader.read(img)
    reads, detectors = [], []
    for _ in range(3):
        for img in frames:
            SPENT[0] = 0.0
            t0 = time.perf_counter()
            reader.read(img)
            reads.append(time.perf_counter() - t0)
            detectors.append(SPENT[0])
    rest = [r - d for r, d in zip(reads, detectors, strict=True)]
    print(json.dumps(machine()))
    print(f"{len(frames)} frames, 3 passes, medians over the {len(reads)} reads:")
    print(f"  a read: {statistics.median(reads) * 1000:.2f} ms")
    print(f"  its detector runs (full and coarse): {statistics.median(detectors) * 1000:.2f} ms")
    print(f"  the read less its detector runs: {statistics.median(rest) * 1000:.2f} ms")
    ort.InferenceSession.run = RUN
    boxed, _ = letterbox(frames[0], reader.detect_size, STRIDE_COARSEST)
    pair = {
        "shipped detector": (reader._detector, reader._detector_input),
        "small detector": reader._coarse,
    }
    for turn in (1, 2):
        said = []
        for name, (session, take) in pair.items():
            feed = {"image": take(boxed[None])}
            for _ in range(5):
                session.run(None, feed)
            times = []
            for _ in range(40):
                t0 = time.perf_counter()
                session.run(None, feed)
                times.append(time.perf_counter() - t0)
            said.append(f"{name} {statistics.median(times) * 1000:.2f} ms")
        print(f"turn {turn}, a {boxed.shape[1]}x{boxed.shape[0]} frame alone: {', '.join(said)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
