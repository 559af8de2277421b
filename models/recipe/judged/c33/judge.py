"""C33's judge (RULE.txt), dev only, against C24, stopping at the first failure. Run from
the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c33/judge.py \
        ../shared/data/dice artifacts/c33/models models
The stressed dev photos are made as C32's judge made them (judged/judging.py)."""

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import AS_THEY_ARE_AND_BLURRED, judge, verdict

NAME = "C33"
CONDITIONS = [
    *AS_THEY_ARE_AND_BLURRED,
    (
        "c: dev dimmed",
        "dimmed",
        [("net", ">=", -1), ("recall", ">=", -0.5), ("wrong_when_sure", "<=", 0.5)],
    ),
    (
        "d: dev halved, faces from the halved picture",
        "halved",
        [("net", ">=", -1), ("value_accuracy", ">=", -0.5), ("wrong_when_sure", "<=", 0.3)],
    ),
]


def numerals(models: Path) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "bench",
            "numerals",
            "--models",
            str(models),
            "--fonts",
            "models/recipe/heldout-fonts.txt",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def main(data: Path, candidate: Path, shipped: Path, name: str = NAME) -> None:
    judge(data, candidate, shipped, name, CONDITIONS)
    got = numerals(candidate)
    mine, opencv = got["all"], got["opencv_faces"]
    print("(e)", json.dumps({"all": mine, "opencv_faces": opencv}, indent=1), flush=True)
    checks = [
        (f"wrong {mine['wrong']} <= 110", mine["wrong"] <= 110),
        (f"right {mine['right']} >= 1600", mine["right"] >= 1600),
        (f"OpenCV's faces {opencv['right']} >= 118", opencv["right"] >= 118),
    ]
    verdict("e: unseen-font numerals", name, {}, checks)
    print("(a) to (e) PASS; (f) is make test")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]))
