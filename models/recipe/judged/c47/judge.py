"""C47's judge (RULE.txt): the reader keeping a heap's dice past a pass's 60 hottest where
read surely, against the reader as shipped (reader.py at the rule's commit, loaded from
git), the same models, stopping at the first failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c47/judge.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "9f8dd82"

c45 = earlier_judge("c45")
c44, c39 = c45.c44, c45.c39
Timed = earlier_judge("c46").Timed  # a reader that keeps the time of each of its reads
tally, shots, net = c39.c37.c35.tally, c39.shots, c44.net


def per_200(c: dict, s: dict) -> int:
    """G / 200, rounded down: one more error allowed for each 200 more dice read right."""
    return max(0, (c["right"] - s["right"]) // 200)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {
        "C47": DiceReader(model_dir(), threads=1),
        "shipped": c39.c37.c35.shipped_reader(RULE_COMMIT),
    }
    crowded = {name: Timed(reader) for name, reader in readers.items()}
    conditions = [
        (
            "a: rendered crowded shots, 61 to 120 dice",
            crowded,
            lambda: shots(
                range(110440, 110480), 480, 640, (61, 121), (18, 32), lambda s: 6 * (s % 2)
            ),
            lambda c, s, o: [
                more(c, s, "right", 200),
                at_most(c, s, "no_die", per_200(c, s)),
                at_most(c, s, "wrong_when_sure", per_200(c, s)),
                at_most(c, s, "unsure", 0),
                net(o, 0),
            ],
        ),
        (
            "b: rendered crowded shots, 40 to 64 dice",
            readers,
            lambda: shots(
                range(110480, 110520), 480, 640, (40, 65), (22, 40), lambda s: 6 * (s % 2)
            ),
            lambda c, s, o: [
                more(c, s, "right", 0),
                at_most(c, s, "no_die", 0),
                at_most(c, s, "wrong_when_sure", 0),
                net(o, 0),
            ],
        ),
        (
            "c: rendered phone-size shots",
            readers,
            lambda: shots(range(110520, 110560), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s, o: [at_most(c, s, "no_die", 0), more(c, s, "right", 0)],
        ),
        (
            "d: the looks' 481 epanemu photos at 640 px (read before)",
            readers,
            lambda: c45.looked_at(data),
            lambda c, s, o: [
                more(c, s, "right", 10),
                at_most(c, s, "no_die", 0),
                at_most(c, s, "wrong_when_sure", 0),
                net(o, 0),
            ],
        ),
        (
            "e: dev as the benchmark reads them",
            readers,
            lambda: c44.dev(data),
            lambda c, s, o: [
                net(o, 0),
                more(c, s, "right", 0),
                at_most(c, s, "no_die", 0),
                at_most(c, s, "wrong_when_sure", 0),
            ],
        ),
    ]
    for label, judged, pictures, checks in conditions:
        out = judging.tally_run(judged, pictures(), tally)
        if judged is crowded:  # decides nothing
            for name, timed in crowded.items():
                print(f"  {name}: a read {1000 * np.median(timed.times):.1f} ms (median)")
        verdict(label, "C47", out, checks(out["C47"], out["shipped"], out))  # ends at a FAIL
    print("(f): make test, run apart")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
