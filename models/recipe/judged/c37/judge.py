"""C37's judge (RULE.txt): the reader with C37's tile pass against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c37/judge.py ../shared/data/dice
"""

import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import count_photo, enlarged, no_more_on_no_die, read_right, verdict

from companion.vision import scenes
from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader, model_dir

HERE = Path(__file__).parent


def _judge(name: str, folder: str):
    """An earlier candidate's judge.py, loaded as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, HERE.parent / folder / "judge.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


c35 = _judge("judge", "c35")  # (C36's judge imports C35's by this name)
shipped_reader, tally = c35.shipped_reader, c35.tally
shots = _judge("judge_c36", "c36").shots

RULE_COMMIT = "2a6786a"


def one_set(seeds):
    """Wide shots whose dice are one set: sides lo to 1.4 lo, lo drawn per shot."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        lo = rng.uniform(40, 125)
        count = int(rng.integers(3, 9))
        img, found = scenes.scene(
            rng, 2400, 3200, count=count, size_range=(lo, 1.4 * lo), mess=8 * (seed % 2)
        )
        yield img, [(d.face.label, d.box) for d in found]


def train_at_6x(data: Path, name: str, clean: bool):
    """Every eighth train photo outside dev from the fifth (the first 100), enlarged 6x."""
    files = load_split(data, "train")[name]
    return enlarged(data, name, sorted(files)[4::8][:100], files, clean)


def run(readers: dict, pictures) -> dict:
    """C35's tallies, and the photos read entirely right (every die found and read right,
    and no box on no die)."""
    keys = ("photos", "photos_right", "dice", "found", "right", "wrong_when_sure")
    out = {name: dict.fromkeys((*keys, "unsure", "no_die"), 0) for name in readers}
    for img, truth in pictures:
        for name, reader in readers.items():
            t = out[name]
            before = (t["right"], t["no_die"])
            tally(reader.read(img), truth, t)
            count_photo(t, truth, before)
    return out


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {"C37": DiceReader(model_dir(), threads=1), "C36": shipped_reader(RULE_COMMIT)}
    conditions = [
        (
            "a: W3, wide shots",
            lambda: shots(
                range(94000, 94040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            lambda c, s: [
                read_right(c, s, 2),
                no_more_on_no_die(c, s),
            ],
        ),
        (
            "b: S, one-set wide shots",
            lambda: one_set(range(95000, 95040)),
            lambda c, s: [
                read_right(c, s, 1),
                no_more_on_no_die(c, s),
            ],
        ),
        (
            "c: B, phone-size shots",
            lambda: shots(range(96000, 96040), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s: [
                no_more_on_no_die(c, s),
                read_right(c, s),
            ],
        ),
        (
            "d: epanemu train from the fifth, despeckled, at 6x",
            lambda: train_at_6x(data, "epanemu", clean=True),
            lambda c, s: [
                (
                    f"no die {c['no_die']} <= 0.6 x {s['no_die']}",
                    c["no_die"] <= 0.6 * s["no_die"],
                ),
                read_right(c, s, 1),
                (
                    f"photos right {c['photos_right']} >= {s['photos_right']} + 3",
                    c["photos_right"] >= s["photos_right"] + 3,
                ),
            ],
        ),
        (
            "e: matteop65 train from the fifth at 6x",
            lambda: train_at_6x(data, "matteop65", clean=False),
            lambda c, s: [
                read_right(c, s),
                no_more_on_no_die(c, s),
            ],
        ),
    ]
    for label, pictures, checks in conditions:
        got = run(readers, pictures())
        verdict(label, "C37", got, checks(got["C37"], got["C36"]))
    print("(a) to (e) PASS; (f) is make test")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
