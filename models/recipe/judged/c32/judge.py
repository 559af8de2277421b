"""C32's judge (RULE.txt), dev only, against C24, stopping at the first failure. Run from
the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c32/judge.py \
        ../shared/data/dice artifacts/c32/models models
"""

import csv
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from companion.vision.evaluate import compare, compare_streams, is_dev


def stressed(data: Path, out: Path, change, quality: int) -> Path:
    """The dev photos of every set in ``data``, each changed by ``change`` and saved as JPEG."""
    for labels in sorted(data.glob("*/labels.csv")):
        with open(labels) as f:
            rows = [r for r in csv.DictReader(f) if r["split"] == "train" and is_dev(r["filename"])]
        if not rows:
            continue
        folder = out / labels.parent.name
        folder.mkdir(parents=True)
        with open(folder / "labels.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        for name in sorted({r["filename"] for r in rows}):
            img = change(cv2.imread(str(labels.parent / name)))
            # through JPEG at ``quality``, then written under the photo's own name (a PNG
            # set's file stays a PNG, holding the JPEG's pixels)
            jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
            cv2.imwrite(str(folder / name), cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    return out


def blur(img):
    return cv2.GaussianBlur(img, (0, 0), 2.0)


noise = np.random.default_rng(0)


def dim(img):
    dark = img.astype(np.float32) * 0.4 + noise.normal(0, 2.0, img.shape)
    return np.clip(dark + 0.5, 0, 255).astype(np.uint8)


def figures(c: dict) -> dict:
    mine, theirs, p = c["all"], c["against_all"], c["photos_entirely_right"]
    keys = (
        "recall",
        "precision",
        "value_accuracy",
        "unsure",
        "wrong_when_sure",
        "photos_entirely_right",
    )
    return {
        "C32": {k: mine[k] for k in keys},
        "C24": {k: theirs[k] for k in keys},
        "gained": p["gained"],
        "lost": p["lost"],
        "net": p["net"],
        "gained_photos": p["gained_photos"],
        "lost_photos": p["lost_photos"],
    }


def points(f, key):
    return round(100 * (f["C32"][key] - f["C24"][key]), 2)


def verdict(name, f, checks):
    print(f"({name})", json.dumps(f, indent=1), flush=True)
    failed = [text for text, ok in checks if not ok]
    for text, ok in checks:
        print(f"   {'PASS' if ok else 'FAIL'}: {text}", flush=True)
    if failed:
        print(f"({name}) FAIL: the rule stops here. C32 not shipped.")
        sys.exit(1)


def main(data: Path, candidate: Path, shipped: Path) -> None:
    f = figures(compare(data, "dev", candidate, shipped))
    verdict(
        "a: dev as they are",
        f,
        [
            (f"net {f['net']} >= -1", f["net"] >= -1),
            (f"recall {points(f, 'recall')} >= -0.3", points(f, "recall") >= -0.3),
            (f"precision {points(f, 'precision')} >= -0.3", points(f, "precision") >= -0.3),
            (
                f"value accuracy {points(f, 'value_accuracy')} >= -0.3",
                points(f, "value_accuracy") >= -0.3,
            ),
            (
                f"wrong when sure {points(f, 'wrong_when_sure')} <= +0.2",
                points(f, "wrong_when_sure") <= 0.2,
            ),
        ],
    )
    with tempfile.TemporaryDirectory() as tmp:
        f = figures(
            compare(stressed(data, Path(tmp) / "blur", blur, 95), "dev", candidate, shipped)
        )
        verdict(
            "b: dev blurred",
            f,
            [
                (f"recall {points(f, 'recall')} >= +3.0", points(f, "recall") >= 3.0),
                (f"net {f['net']} >= +2", f["net"] >= 2),
                (f"precision {points(f, 'precision')} >= -1.0", points(f, "precision") >= -1.0),
                (
                    f"wrong when sure {points(f, 'wrong_when_sure')} <= +0.5",
                    points(f, "wrong_when_sure") <= 0.5,
                ),
            ],
        )
        f = figures(compare(stressed(data, Path(tmp) / "dim", dim, 85), "dev", candidate, shipped))
        verdict(
            "c: dev dimmed",
            f,
            [
                (f"recall {points(f, 'recall')} >= +1.0", points(f, "recall") >= 1.0),
                (f"net {f['net']} >= 0", f["net"] >= 0),
                (f"precision {points(f, 'precision')} >= -1.0", points(f, "precision") >= -1.0),
                (
                    f"wrong when sure {points(f, 'wrong_when_sure')} <= +0.5",
                    points(f, "wrong_when_sure") <= 0.5,
                ),
            ],
        )
    halved = compare_streams(data, "dev", candidate, shipped)
    ways = [k for k in halved if k != "analysis_scale"]
    f = figures(halved[ways[0]])
    print("(d) way:", ways[0])
    verdict(
        "d: dev halved, faces from the halved picture",
        f,
        [
            (f"net {f['net']} >= -1", f["net"] >= -1),
            (f"recall {points(f, 'recall')} >= -0.5", points(f, "recall") >= -0.5),
        ],
    )
    print("(a) to (d) PASS; (e) is make test")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]))
