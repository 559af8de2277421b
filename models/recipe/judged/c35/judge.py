"""C35's judge (RULE.txt): the reader with C35's tile pass against the reader as shipped
(C24: reader.py at the rule's commit, loaded from git), the same models. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/c35/judge.py ../shared/data/dice
"""

import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import reader_at, verdict

from companion.vision import scenes
from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "1cab01f"  # the rule's commit: the reader as shipped


def shipped_reader(commit: str = RULE_COMMIT) -> DiceReader:
    """The reader as it was at ``commit``, the shipped models."""
    return reader_at(commit).DiceReader(model_dir(), threads=1)


def tally(found, truth, t: dict) -> None:
    """``truth``: (label, box) pairs; a found die is right when its value is read and its
    face is the label."""
    pairs = match(found, truth)
    t["dice"] += len(truth)
    t["found"] += len(pairs)
    sure = [(found[i].face, truth[j][0]) for i, j in pairs if found[i].value is not None]
    t["right"] += sum(1 for read, label in sure if read == label)
    t["wrong_when_sure"] += sum(1 for read, label in sure if read != label)
    t["unsure"] += sum(1 for i, _ in pairs if found[i].value is None)
    t["no_die"] += len(found) - len(pairs)


def wide_shots():
    for seed in range(90000, 90040):
        rng = np.random.default_rng(seed)
        count = int(rng.integers(3, 9))
        img, dice = scenes.scene(
            rng, 2400, 3200, count=count, size_range=(40, 125), mess=6 if seed % 2 else 0
        )
        yield img, [(d.face.label, d.box) for d in dice]


def mosaics(data: Path):
    files = load_split(data, "dev")["epanemu"]
    names = sorted(files)
    for k in range(0, len(names), 9):
        canvas = np.full((3840, 3840, 3), 114, np.uint8)
        truth = []
        for n, fn in enumerate(names[k : k + 9]):
            img = cv2.imread(str(data / "epanemu" / fn))
            img = cv2.resize(img, (1280, 1280), interpolation=cv2.INTER_LINEAR)
            oy, ox = (n // 3) * 1280, (n % 3) * 1280
            canvas[oy : oy + 1280, ox : ox + 1280] = img
            for value, (x0, y0, x1, y1) in files[fn]:
                truth.append((str(value), (2 * x0 + ox, 2 * y0 + oy, 2 * x1 + ox, 2 * y1 + oy)))
        yield canvas, truth


def run(readers: dict, pictures) -> dict:
    keys = ("dice", "found", "right", "wrong_when_sure", "unsure", "no_die")
    out = {name: dict.fromkeys(keys, 0) for name in readers}
    for img, truth in pictures:
        for name, reader in readers.items():
            tally(reader.read(img), truth, out[name])
    return out


def timing(readers: dict, img: np.ndarray) -> dict:
    times = {name: [] for name in readers}
    for reader in readers.values():
        reader.read(img)
    for _ in range(5):
        for name, reader in readers.items():
            t0 = time.perf_counter()
            reader.read(img)
            times[name].append(time.perf_counter() - t0)
    return {name: round(statistics.median(t) * 1000, 1) for name, t in times.items()}


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {"C35": DiceReader(model_dir(), threads=1), "C24": shipped_reader()}
    w = run(readers, wide_shots())
    c, s = w["C35"], w["C24"]
    verdict(
        "a: W",
        "C35",
        w,
        [
            (f"read right {c['right']} >= {s['right']} + 3", c["right"] >= s["right"] + 3),
            (f"no die {c['no_die']} <= {s['no_die']} + 1", c["no_die"] <= s["no_die"] + 1),
            (f"found {c['found']} >= {s['found']}", c["found"] >= s["found"]),
        ],
    )
    m = run(readers, mosaics(data))
    c, s = m["C35"], m["C24"]
    verdict(
        "b: M",
        "C35",
        m,
        [
            (f"read right {c['right']} >= {s['right']}", c["right"] >= s["right"]),
            (f"no die {c['no_die']} <= {s['no_die']} + 1", c["no_die"] <= s["no_die"] + 1),
            (
                f"wrong when sure {c['wrong_when_sure']} <= {s['wrong_when_sure']}",
                c["wrong_when_sure"] <= s["wrong_when_sure"],
            ),
        ],
    )
    img, _ = next(wide_shots())
    big = cv2.resize(img, (4000, 3000), interpolation=cv2.INTER_LINEAR)
    t = timing(readers, big)
    # (c): ms to read a 4000x3000 picture, the median of 5 alternated
    verdict("c", "C35", t, [(f"{t['C35']} <= 1.15 x {t['C24']}", t["C35"] <= 1.15 * t["C24"])])
    print("(a) to (c) PASS; (d) is make test")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
