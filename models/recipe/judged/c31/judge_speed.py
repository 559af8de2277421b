"""C31's condition (a): evaluate.speed on the bench's 60 frames, C24 and C31 alternately,
three times each, on this machine. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c31/judge_speed.py ../shared/data/dice C31_MODELS models
"""

import statistics
import sys
from pathlib import Path

from companion.vision.evaluate import speed
from companion.vision.reader import DiceReader

data, candidate, shipped = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
readers = {"C24": DiceReader(shipped), "C31": DiceReader(candidate)}
runs = {"C24": [], "C31": []}
for _ in range(3):
    for name, reader in readers.items():
        ms = speed(reader, data)["read_ms_median"]
        runs[name].append(ms)
        print(name, ms, flush=True)
c24, c31 = statistics.median(runs["C24"]), statistics.median(runs["C31"])
print(f"median of medians: C24 {c24} ms, C31 {c31} ms, ratio {c31 / c24:.3f}")
ok = c31 <= 25.0 and c31 <= 0.85 * c24
print("(a)", "PASS" if ok else "FAIL")
