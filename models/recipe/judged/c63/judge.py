"""C63's judge (RULE.txt), against the shipped models, stopping at the first failure. Run
from the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c63/judge.py \
        ../shared/data/dice artifacts/c63/models models [NAME]
(a) is the two detectors' speed, timed in turn as C62's judge times them; (b) to (e) are
judging.judge's dev photos as they are, halved (faces from the halved picture), blurred
and dimmed."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import AS_THEY_ARE_AND_BLURRED, earlier_judge

NAME = "C63"
STRESSED = [
    ("net", ">=", -2),
    ("recall", ">=", -0.5),
    ("value_accuracy", ">=", -0.5),
    ("wrong_when_sure", "<=", 0.3),
]
CONDITIONS = [
    # the bounds C32's rule gave the dev photos as they are (judging.py), as C63's rule does
    ("b: dev as they are", "as they are", AS_THEY_ARE_AND_BLURRED[0][2]),
    (
        "c: dev halved, faces from the halved picture",
        "halved",
        [("net", ">=", -2), ("recall", ">=", -0.5), ("value_accuracy", ">=", -0.5)],
    ),
    ("d: dev blurred", "blurred", STRESSED),
    ("e: dev dimmed", "dimmed", STRESSED),
]


def main(data: Path, candidate: Path, shipped: Path, name: str = NAME) -> None:
    earlier_judge("c62").speed_then(data, candidate, shipped, name, CONDITIONS)
    print("(a) to (e) PASS; shipped if make test passes with it in models/ (RULE.txt)")


if __name__ == "__main__":
    # a fourth argument names the candidate (C64 and C65 are judged by this judge)
    main(*(Path(a) for a in sys.argv[1:4]), *sys.argv[4:5])
