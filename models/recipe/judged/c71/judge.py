"""C71's judge (RULE.txt): the reader with C71's front-face rule against the reader as
shipped (reader.py at the rule's commit, loaded from git), the same models, stopping at the
first failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c71/judge.py ../shared/data/dice RULE_COMMIT
(RULE_COMMIT: the commit of RULE.txt, before the change; RESULT.txt names it.)
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader, model_dir

c44 = earlier_judge("c44")
tally, shots, dev, net = c44.tally, c44.shots, c44.dev, c44.net


def unseen_photos(data: Path) -> list[str]:
    """Condition (a)'s photos: the epanemu train photos outside dev at places 1, 2 and 3
    modulo 4 (the design look read places 0 modulo 4)."""
    names = sorted(load_split(data, "train")["epanemu"])
    return [n for k, n in enumerate(names) if k % 4]


def main(data: Path, rule_commit: str) -> None:
    cv2.setNumThreads(1)
    readers = {
        "C71": DiceReader(model_dir(), threads=1),
        "shipped": c44.c39.c37.c35.shipped_reader(rule_commit),
    }
    print("(a)'s photos:", len(unseen_photos(data)), flush=True)
    conditions = [
        (
            "a: epanemu train at places 1 to 3 modulo 4, despeckled, at 640 px",
            lambda: judging.epanemu_train(data, unseen_photos(data)),
            lambda c, s, o: [
                more(c, s, "right", -1),
                at_most(c, s, "no_die", 0),
                net(o, 0),
                at_most(c, s, "wrong_when_sure", 0),
            ],
        ),
        (
            "b: rendered table shots, side faces drawn",
            lambda: shots(
                range(121200, 121260), 480, 640, (3, 9), (30, 90), lambda s: 6 * (s % 2), sides=True
            ),
            lambda c, s, o: [more(c, s, "right", 0), at_most(c, s, "no_die", 0)],
        ),
        (
            "c: rendered crowded tables",
            lambda: shots(range(121300, 121340), 480, 640, (30, 61), (30, 50), lambda s: 0),
            lambda c, s, o: [more(c, s, "right", -1), at_most(c, s, "no_die", 0), net(o, 0)],
        ),
        (
            "d: dev as the benchmark reads them",
            lambda: dev(data),
            lambda c, s, o: [
                net(o, 0),
                more(c, s, "right", 0),
                at_most(c, s, "no_die", 0),
                at_most(c, s, "wrong_when_sure", 0),
            ],
        ),
    ]
    for label, pictures, checks in conditions:
        out = judging.tally_run(readers, pictures(), tally)
        verdict(label, "C71", out, checks(out["C71"], out["shipped"], out))  # ends at a FAIL
    print("(e): make test, run apart")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
