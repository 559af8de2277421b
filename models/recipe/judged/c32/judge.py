"""C32's judge (RULE.txt), dev only, against C24, stopping at the first failure. Run from
the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c32/judge.py \
        ../shared/data/dice artifacts/c32/models models
"""

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import at_least, at_most, blur, dim, figures, net_at_least, stressed, verdict

from companion.vision.evaluate import compare, compare_streams

NAME = "C32"


def main(data: Path, candidate: Path, shipped: Path) -> None:
    f = figures(compare(data, "dev", candidate, shipped), NAME)
    verdict(
        "a: dev as they are",
        NAME,
        f,
        [
            net_at_least(f, -1),
            at_least(f, "recall", -0.3),
            at_least(f, "precision", -0.3),
            at_least(f, "value_accuracy", -0.3),
            at_most(f, "wrong_when_sure", 0.2),
        ],
    )
    with tempfile.TemporaryDirectory() as tmp:
        blurred = stressed(data, Path(tmp) / "blur", blur, 95)
        f = figures(compare(blurred, "dev", candidate, shipped), NAME)
        verdict(
            "b: dev blurred",
            NAME,
            f,
            [
                at_least(f, "recall", 3.0),
                net_at_least(f, 2),
                at_least(f, "precision", -1.0),
                at_most(f, "wrong_when_sure", 0.5),
            ],
        )
        dimmed = stressed(data, Path(tmp) / "dim", dim, 85)
        f = figures(compare(dimmed, "dev", candidate, shipped), NAME)
        verdict(
            "c: dev dimmed",
            NAME,
            f,
            [
                at_least(f, "recall", 1.0),
                net_at_least(f, 0),
                at_least(f, "precision", -1.0),
                at_most(f, "wrong_when_sure", 0.5),
            ],
        )
    halved = compare_streams(data, "dev", candidate, shipped)
    f = figures(halved["faces_from_the_analysis_picture"], NAME)
    verdict(
        "d: dev halved, faces from the halved picture",
        NAME,
        f,
        [
            net_at_least(f, -1),
            at_least(f, "recall", -0.5),
        ],
    )
    print("(a) to (d) PASS; (e) is make test")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]))
