"""``companion bench threads``: how many onnxruntime threads read a frame fastest here.

The reader runs each model on ``[vision] threads`` threads (1 unless the config says
more). How much a second or third core helps depends on the board: on a 2-core x86
machine two threads read a frame in about 0.7 of one thread's time (hardware/README.md);
a Pi 4's, a Pi 5's and a Zero 2 W's four cores have never been measured here. So this
measures it where the device runs: a replayed roll's frames of dice lying still (the
frames the device reads), read by a reader on 1, 2, ... threads (up to the cores this
process may use, at most ``MOST``), in rounds whose order turns about, so that a drift in
the machine's speed falls on every count alike. One reader is held at a time (a Zero 2
W has 512 MB). ``deploy/install.sh`` writes the count it chooses into a new config.
"""

from __future__ import annotations

import statistics
import time

from companion.cli.bench.machine import machine
from companion.cli.bench.watch import ROLL
from companion.device.config import CameraConfig
from companion.training.scenes import roll_sequence
from companion.vision.reader import DiceReader

MOST = 4  # threads tried at most: a Pi has 4 cores, and the pages and the camera need one
# The fewest threads at most this much slower than the fastest are chosen: a core taken
# from the pages and the camera must buy a clear gain, not a drift of the machine's speed.
SLACK = 1.1


def choose(medians: dict[int, float], slack: float = SLACK) -> int:
    """The fewest threads whose median read is at most ``slack`` times the fastest's."""
    best = min(medians.values())
    return min(n for n, ms in medians.items() if ms <= best * slack)


def bench_threads(frames: int = 8, rounds: int = 3, most: int | None = None) -> dict:
    """Median ms a frame at each thread count, and the count ``choose`` picks."""
    cores = machine()["cores"] or 1
    counts = list(range(1, min(cores, most or MOST) + 1))
    sequence = list(roll_sequence(7, [ROLL], rest_frames=frames))
    still = sequence[-frames:]  # the dice lying still: what the device reads
    del sequence
    times: dict[int, list[float]] = {n: [] for n in counts}
    right = 0  # frames read as the roll they show (each count's last round): a real read
    for r in range(rounds):
        for n in counts if r % 2 == 0 else counts[::-1]:
            reader = DiceReader(threads=n, view=CameraConfig().view)  # as the device reads
            reader.read(still[0])  # warm up: the first run sets up onnxruntime's buffers
            for frame in still:
                t = time.perf_counter()
                dice = reader.read(frame)
                times[n].append((time.perf_counter() - t) * 1000)
                if r == rounds - 1:
                    right += sorted(d.value for d in dice) == sorted(ROLL)
            del reader
    medians = {n: statistics.median(t) for n, t in times.items()}
    return {
        "cores": cores,
        "read_ms_median": {str(n): round(ms, 2) for n, ms in medians.items()},
        "chosen": choose(medians),
        "frames": len(still),
        "rounds": rounds,
        "frames_read_right": right,  # of frames times the counts tried
        "note": "median milliseconds to read a still 640x480 frame of 5 dice, the reader on "
        "each number of onnxruntime threads in turn; chosen: the fewest threads at most "
        f"{round(100 * SLACK - 100)}% slower than the fastest ([vision] threads in the config)",
    }
