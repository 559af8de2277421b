"""C45's judge (RULE.txt): the reader with C45's `decode` against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c45/judge.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.vision.evaluate import despeckle
from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "edfe7a4"

c44 = earlier_judge("c44")
c39 = c44.c39
tally, shots, net = c39.c37.c35.tally, c39.shots, c44.net


def looked_at(data: Path):
    """Condition (d)'s photos: the 481 epanemu photos of session 58's and 59's looks,
    despeckled, at their size (640 px), with their labels."""
    for _, name, labels in judging.looked_at_640(data):
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        yield img, [(str(v), box) for v, box in labels]


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {
        "C45": DiceReader(model_dir(), threads=1),
        "shipped": c39.c37.c35.shipped_reader(RULE_COMMIT),
    }
    conditions = [
        (
            "a: rendered crowded shots, 40 to 64 dice",
            lambda: shots(
                range(110000, 110040), 480, 640, (40, 65), (22, 40), lambda s: 6 * (s % 2)
            ),
            lambda c, s, o: [
                more(c, s, "right", 10),
                at_most(c, s, "no_die", 2),
                net(o, 1),
                at_most(c, s, "wrong_when_sure", 1),
            ],
        ),
        (
            "b: rendered table shots, side faces drawn",
            lambda: shots(
                range(110100, 110160), 480, 640, (3, 9), (30, 90), lambda s: 6 * (s % 2), sides=True
            ),
            lambda c, s, o: [more(c, s, "right", 0), at_most(c, s, "no_die", 0)],
        ),
        (
            "c: rendered phone-size shots",
            lambda: shots(range(110200, 110240), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s, o: [at_most(c, s, "no_die", 1), more(c, s, "right", -1)],
        ),
        (
            "d: the looks' 481 epanemu photos at 640 px (read before)",
            lambda: looked_at(data),
            lambda c, s, o: [
                more(c, s, "right", 1),
                at_most(c, s, "no_die", 6),
                net(o, 0),
                at_most(c, s, "wrong_when_sure", 0),
            ],
        ),
        (
            "e: dev as the benchmark reads them",
            lambda: c44.dev(data),
            lambda c, s, o: [
                net(o, 0),
                more(c, s, "right", 0),
                at_most(c, s, "no_die", 1),
                at_most(c, s, "wrong_when_sure", 0),
            ],
        ),
    ]
    for label, pictures, checks in conditions:
        out = judging.tally_run(readers, pictures(), tally)
        verdict(label, "C45", out, checks(out["C45"], out["shipped"], out))  # ends at a FAIL
    print("(f): make test, run apart")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
