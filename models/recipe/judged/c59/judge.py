"""C59's judge (RULE.txt), dev only, against the shipped models, stopping at the first
failure. Run from the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c59/judge.py \
        ../shared/data/dice artifacts/c59/models models
The stressed dev photos are made as C32's judge made them (judged/judging.py); the numerals
are read as C33's judge read them."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, judge, verdict

NAME = "C59"
CONDITIONS = [
    (
        "a: dev halved, faces from the halved picture",
        "halved",
        [("net", ">=", 3), ("value_accuracy", ">=", 0.5), ("wrong_when_sure", "<=", 0.3)],
    ),
    (
        "b: dev as they are",
        "as they are",
        [
            ("net", ">=", 0),
            ("recall", ">=", -0.3),
            ("precision", ">=", -0.3),
            ("value_accuracy", ">=", -0.1),
            ("wrong_when_sure", "<=", 0.2),
        ],
    ),
    ("c: dev blurred", "blurred", [("net", ">=", -1), ("wrong_when_sure", "<=", 0.5)]),
    ("d: dev dimmed", "dimmed", [("net", ">=", -1), ("wrong_when_sure", "<=", 0.5)]),
]


def main(data: Path, candidate: Path, shipped: Path, name: str = NAME) -> None:
    judge(data, candidate, shipped, name, CONDITIONS)
    got = earlier_judge("c33").numerals(candidate)
    mine, opencv = got["all"], got["opencv_faces"]
    print("(e)", json.dumps({"all": mine, "opencv_faces": opencv}, indent=1), flush=True)
    checks = [
        (f"wrong {mine['wrong']} <= 100", mine["wrong"] <= 100),
        (f"right {mine['right']} >= 1629", mine["right"] >= 1629),
        (f"OpenCV's faces {opencv['right']} >= 120", opencv["right"] >= 120),
    ]
    verdict("e: unseen-font numerals", name, {}, checks)
    print("(a) to (e) PASS; (f) is make test")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]))
