"""Session 78's look after C61 (deciding nothing): The First Island's roll of five colour-dot
dice as the device takes it, settled. Each rendered table (s77_dot_casts.table: five dot
dice, colours in turn from the seed, the cast laid on the scene's light) is a live rest of
20 still frames (bench_settle.live_frames: sensor noise, a sub-pixel shake, JPEG 90), read
frame by frame and settled by a Settler expecting five dice, as `bench settle` settles a
photo; the outcome is what the game is finally given (bench_settle.judge): the right roll, a
wrong one, a roll left to confirm, or none. Read by the reader as shipped (C61) and by the
same reader with its dot balance taken away (no crop taken for a dot: the reader before
C61), each fed the same frames.

Design seeds 121024 to 121083 (60 tables), under white light, the card's warm lamp and its
strong one. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s78_dot_rests.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from s77_dot_casts import is_grey, table

from companion.bench_settle import judge, live_frames
from companion.vision.reader import DiceReader
from companion.vision.settle import Frame, Reading, Settler
from companion.vision.watch import motion

SEEDS = range(121024, 121084)
LIGHTS = {
    "white light": (1.0, 1.0, 1.0),
    "the card's warm lamp": (0.75, 0.9, 1.05),
    "the card's strong warm lamp": (0.55, 0.85, 1.1),
}
OUTCOMES = ("right", "wrong", "confirm", "none")


def main() -> None:
    shipped = DiceReader()
    before = DiceReader()
    before._is_dot = np.zeros_like(before._is_dot)  # the reader before C61
    readers = {"C61": shipped, "before C61": before}
    for light, gains in LIGHTS.items():
        tally = {name: Counter() for name in readers}
        grey = 0
        for seed in SEEDS:
            img, truth = table(seed, gains)
            if is_grey(img):  # a grey camera: no dot can be told (tallied apart)
                grey += 1
                continue
            frames = live_frames(img, np.random.default_rng(seed), 21)
            for name, reader in readers.items():
                settler, events, prev = Settler(expected=len(truth)), [], None
                for i, f in enumerate(frames):
                    moved, prev = motion(prev, f)
                    found = reader.read(f) if moved <= Settler.motion_limit else []
                    readings = tuple(Reading(d.box, d.value, d.confidence) for d in found)
                    if (e := settler.feed(Frame(readings, moved))) is not None:
                        events.append((i, e))
                rest = judge(events, truth)
                tally[name][rest.outcome] += 1
                tally[name]["dice trusted wrong"] += rest.dice.count("wrong")
        print(f"{light}: {len(SEEDS) - grey} tables in colour ({grey} grey left out)")
        for name, c in tally.items():
            print(
                f"  {name:10s} "
                + ", ".join(f"{o} {c[o]}" for o in (*OUTCOMES, "dice trusted wrong")),
                flush=True,
            )


if __name__ == "__main__":
    main()
