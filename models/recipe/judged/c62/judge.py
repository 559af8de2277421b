"""C62's judge (RULE.txt), against the shipped models, stopping at the first failure. Run
from the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c62/judge.py \
        ../shared/data/dice artifacts/c62/models models
(a) is the two detectors' speed, timed in turn; (b) and (c) are judging.judge's dev
photos as they are and halved (faces from the halved picture)."""

import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import AS_THEY_ARE_AND_BLURRED, judge, verdict

NAME = "C62"
CONDITIONS = [
    # the bounds C32's rule gave the dev photos as they are (judging.py), as C62's rule does
    ("b: dev as they are", "as they are", AS_THEY_ARE_AND_BLURRED[0][2]),
    (
        "c: dev halved, faces from the halved picture",
        "halved",
        [("net", ">=", -2), ("recall", ">=", -0.5), ("value_accuracy", ">=", -0.5)],
    ),
]


def median_ms(path: Path, runs: int = 30) -> float:
    """The detector's median over ``runs`` on one 512x512 frame's blocks, one thread."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = so.inter_op_num_threads = 1
    s = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    name = s.get_inputs()[0].name
    x = np.random.default_rng(0).integers(0, 256, (1, 256, 256, 12), dtype=np.uint8)
    for _ in range(5):
        s.run(None, {name: x})
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        s.run(None, {name: x})
        times.append((time.perf_counter() - t) * 1000)
    return float(np.median(times))


def speed_then(data: Path, candidate: Path, shipped: Path, name: str, conditions) -> None:
    """(a) the two detectors' speed, then ``conditions`` (judging.judge's), stopping at the
    first failure (C63's judge takes this too)."""
    mine, theirs = [], []
    for _ in range(2):
        theirs.append(median_ms(shipped / "dice-detector.onnx"))
        mine.append(median_ms(candidate / "dice-detector.onnx"))
    print(f"(a) detector medians: {name} {mine}, shipped {theirs} ms", flush=True)
    ratio = max(mine) / min(theirs)
    verdict("a: speed", name, {}, [(f"ratio {ratio:.3f} <= 0.85", ratio <= 0.85)])
    judge(data, candidate, shipped, name, conditions)


def main(data: Path, candidate: Path, shipped: Path, name: str = NAME) -> None:
    speed_then(data, candidate, shipped, name, CONDITIONS)
    print("(a) to (c) PASS; the rest is a later session's rule (RULE.txt)")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]))
