"""C44's judge (RULE.txt): the reader with C44's `decode` against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c44/judge.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "90e4664"

c43 = earlier_judge("c43")
c42, c39 = c43.c42, c43.c39
tally, shots = c39.c37.c35.tally, c39.shots


def eighth_photos(data: Path) -> list[str]:
    """Condition (a)'s photos: every eighth epanemu train photo outside dev from the eighth
    (place 7), not read before, the first 100."""
    return c39.every_eighth(
        data,
        7,
        lambda names: (
            c42.read_before(data, names)
            | set(c42.fourth_photos(data))
            | set(c43.sixth_photos(data))
        ),
    )


def epanemu(data: Path):
    return judging.epanemu_train(data, eighth_photos(data))


def side_shots():
    """Condition (b)'s shots: 640x480, 3 to 8 dice of 30 to 90 px seen at the steeper slant
    with their side faces drawn, 6 things that are not dice in every other."""
    return shots(
        range(109000, 109060), 480, 640, (3, 9), (30, 90), lambda s: 6 * (s % 2), sides=True
    )


def dev(data: Path):
    """The dev photos of the photo sets, as the benchmark reads them."""
    for name, files in load_split(data, "dev").items():
        if name in ("epanemu", "matteop65"):
            for fn in sorted(files):
                img = cv2.imread(str(data / name / fn), cv2.IMREAD_UNCHANGED)
                yield img, [(str(v), box) for v, box in files[fn]]


def net(o: dict, least: int):
    gained, lost = len(o["gained"]), len(o["lost"])
    return (f"net {gained} - {lost} >= {least}", gained - lost >= least)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {
        "C44": DiceReader(model_dir(), threads=1),
        "shipped": c39.c37.c35.shipped_reader(RULE_COMMIT),
    }
    print("(a)'s photos:", len(eighth_photos(data)), flush=True)
    conditions = [
        (
            "a: epanemu train from the eighth, despeckled, at 640 px",
            lambda: epanemu(data),
            lambda c, s, o: [
                more(c, s, "right", 1),
                at_most(c, s, "no_die", 1),
                net(o, 0),
                at_most(c, s, "wrong_when_sure", 1),
            ],
        ),
        (
            "b: rendered table shots, side faces drawn",
            side_shots,
            lambda c, s, o: [more(c, s, "right", 0), at_most(c, s, "no_die", 0)],
        ),
        (
            "c: rendered phone-size shots",
            lambda: shots(range(109100, 109140), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s, o: [at_most(c, s, "no_die", 1), more(c, s, "right", -1)],
        ),
        (
            "d: (a)'s photos at 6x",
            lambda: c39.epanemu_6x(data, eighth_photos(data)),
            lambda c, s, o: [
                at_most(c, s, "no_die", 2),
                more(c, s, "right", -1),
                net(o, -1),
            ],
        ),
        (
            "e: dev as the benchmark reads them",
            lambda: dev(data),
            lambda c, s, o: [
                net(o, 0),
                more(c, s, "right", 0),
                at_most(c, s, "no_die", 3),
                at_most(c, s, "wrong_when_sure", 1),
            ],
        ),
    ]
    for label, pictures, checks in conditions:
        out = judging.tally_run(readers, pictures(), tally)
        verdict(label, "C44", out, checks(out["C44"], out["shipped"], out))  # ends at a FAIL
    print("(f): make test, run apart")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
