"""C32's judge (RULE.txt), dev only, against C24, stopping at the first failure. Run from
the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c32/judge.py \
        ../shared/data/dice artifacts/c32/models models
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import AS_THEY_ARE_AND_BLURRED, judge

CONDITIONS = [
    *AS_THEY_ARE_AND_BLURRED,
    (
        "c: dev dimmed",
        "dimmed",
        [
            ("recall", ">=", 1.0),
            ("net", ">=", 0),
            ("precision", ">=", -1.0),
            ("wrong_when_sure", "<=", 0.5),
        ],
    ),
    (
        "d: dev halved, faces from the halved picture",
        "halved",
        [("net", ">=", -1), ("recall", ">=", -0.5)],
    ),
]

if __name__ == "__main__":
    judge(*(Path(a) for a in sys.argv[1:4]), "C32", CONDITIONS)
    print("(a) to (d) PASS; (e) is make test")
