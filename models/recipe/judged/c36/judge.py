"""C36's judge (RULE.txt): the reader with C36's tile pass against the reader as shipped
(C24: reader.py at the rule's commit, loaded from git), the same models, stopping at the
first failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c36/judge.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "c35"))
from judge import run, shipped_reader
from judging import no_more_on_no_die, read_right, verdict

from companion.vision import scenes
from companion.vision.evaluate import despeckle, load_split
from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "a2187aa"


def shots(seeds, h, w, dice, sizes, mess, **scene):
    """Rendered shots, one a seed: ``dice`` (a range) dice of ``sizes`` (a range of px),
    ``mess(seed)`` things that are not dice; ``scene``, more of scenes.scene's options."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        count = int(rng.integers(*dice))
        img, found = scenes.scene(
            rng, h, w, count=count, size_range=sizes, mess=mess(seed), **scene
        )
        yield img, [(d.face.label, d.box) for d in found]


def enlarged(data: Path, name: str, clean: bool):
    files = load_split(data, "dev")[name]
    for fn in sorted(files):
        img = cv2.imread(str(data / name / fn))
        img = despeckle(img) if clean else img
        img = cv2.resize(img, None, fx=6, fy=6, interpolation=cv2.INTER_LINEAR)
        yield img, [(str(v), tuple(6 * c for c in box)) for v, box in files[fn]]


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {"C36": DiceReader(model_dir(), threads=1), "C24": shipped_reader(RULE_COMMIT)}
    conditions = [
        (
            "a: B, phone-size shots",
            lambda: shots(range(92000, 92040), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s: [
                no_more_on_no_die(c, s),
                read_right(c, s),
            ],
        ),
        (
            "b: W2, wide shots",
            lambda: shots(
                range(91000, 91040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            lambda c, s: [
                read_right(c, s, 2),
                no_more_on_no_die(c, s),
            ],
        ),
        (
            "c: matteop65 dev at 6x",
            lambda: enlarged(data, "matteop65", clean=False),
            lambda c, s: [
                read_right(c, s),
                no_more_on_no_die(c, s),
            ],
        ),
        (
            "d: epanemu dev despeckled at 6x",
            lambda: enlarged(data, "epanemu", clean=True),
            lambda c, s: [
                (f"no die {c['no_die']} <= {s['no_die']} / 2", c["no_die"] <= s["no_die"] / 2),
                read_right(c, s, 1),
            ],
        ),
    ]
    for label, pictures, checks in conditions:
        got = run(readers, pictures())
        verdict(label, "C36", got, checks(got["C36"], got["C24"]))
    print("(a) to (d) PASS; (e) is make test")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
