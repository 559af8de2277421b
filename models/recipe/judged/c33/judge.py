"""C33's judge (RULE.txt), dev only, against C24, stopping at the first failure. Run from
the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c33/judge.py \
        ../shared/data/dice artifacts/c33/models models
The stressed dev photos are made as C32's judge made them (judged/judging.py)."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import at_least, at_most, blur, dim, figures, net_at_least, stressed, verdict

from companion.vision.evaluate import compare, compare_streams

NAME = "C33"


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
                net_at_least(f, -1),
                at_least(f, "recall", -0.5),
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
            at_least(f, "value_accuracy", -0.5),
            at_most(f, "wrong_when_sure", 0.3),
        ],
    )
    got = numerals(candidate)
    mine, opencv = got["all"], got["opencv_faces"]
    print("(e)", json.dumps({"all": mine, "opencv_faces": opencv}, indent=1), flush=True)
    checks = [
        (f"wrong {mine['wrong']} <= 110", mine["wrong"] <= 110),
        (f"right {mine['right']} >= 1600", mine["right"] >= 1600),
        (f"OpenCV's faces {opencv['right']} >= 118", opencv["right"] >= 118),
    ]
    verdict("e: unseen-font numerals", NAME, {}, checks)
    print("(a) to (e) PASS; (f) is make test")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]))
