"""C60's judge (RULE.txt): the faces read with a strong colour cast taken out, where the
detector's view already has it taken out, against the reader as shipped at the rule's
commit, the same models, stopping at the first failure. Each reader reads in a process of
its own (C48's way): the shipped one from a git worktree at the rule's commit, the
candidate from this tree. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c60/judge.py ../shared/data/dice
(``--read CONDITION OUT``: read one condition's pictures with the reader of the tree on
PYTHONPATH and write the readings to OUT, as JSON; the judge runs it.)
"""

import json
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.vision.reader import DOT_VALUE

RULE_COMMIT = "1eddc69"  # the rule's commit
ROOT = Path(__file__).resolve().parents[4]
SHIPPED_TREE = Path("/tmp/c60-shipped")
STRONG = (0.55, 0.85, 1.1)  # the model card's strong warm lamp (B, G, R gains)
WARM = (0.75, 0.9, 1.05)  # its warm lamp
COOL = (1.1, 0.95, 0.75)  # its cool light
SEEDS = {"a": range(112220, 112340), "b": range(112340, 112460), "c": range(112460, 112580)}
GAINS = {"a": STRONG, "b": WARM, "c": (1.0, 1.0, 1.0), "f": WARM, "g": STRONG, "h": COOL}
READ_AS = {v: k for k, v in DOT_VALUE.items()}  # a dot die's value back to its colour
LABELS = {
    "a": "a: rendered dot rolls under the strong warm cast",
    "b": "b: rendered dot rolls under the card's warm lamp",
    "c": "c: rendered dot rolls in the renderer's own light",
    "d": "d: (a)'s rolls as the Pi's two streams (found halved, faces from the table)",
    "e": "e: the epanemu and matteop65 dev photos as they are (despeckled)",
    "f": "f: the dev photos under the card's warm lamp",
    "g": "g: the dev photos under the strong warm cast",
    "h": "h: the dev photos under the card's cool light",
}


def cast(img: np.ndarray, gains) -> np.ndarray:
    """``img`` with its channels scaled by ``gains`` and clipped, through JPEG at 95."""
    lit = np.clip(img.astype(np.float32) * np.float32(gains) + 0.5, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, 95])[1], 1)


def dev_photos(data: Path):
    """The epanemu and matteop65 dev photos, despeckled as the benchmark reads them."""
    from companion.vision.evaluate import despeckle, load_split

    for name, files in load_split(data, "dev").items():
        if name in ("epanemu", "matteop65"):
            for fn in sorted(files):
                img = despeckle(cv2.imread(str(data / name / fn)))
                yield img, [(str(v), box) for v, box in files[fn]]


def pictures(condition: str, data: Path):
    """The pictures (image, detail picture or None, labels) of ``condition``, in order."""
    from s77_dot_casts import table

    def rolls(seeds, gains):
        for seed in seeds:
            img, truth = table(seed, gains)
            yield img, [(f"dot-{READ_AS[v]}", box) for v, box in truth]

    if condition in "abc":
        return ((img, None, truth) for img, truth in rolls(SEEDS[condition], GAINS[condition]))
    if condition == "d":
        return (
            (
                cv2.resize(img, (320, 240), interpolation=cv2.INTER_AREA),
                img,
                [(label, tuple(c / 2 for c in box)) for label, box in truth],
            )
            for img, truth in rolls(SEEDS["a"], STRONG)
        )
    if condition == "e":
        return ((img, None, truth) for img, truth in dev_photos(data))
    return ((cast(img, GAINS[condition]), None, truth) for img, truth in dev_photos(data))


def read(condition: str, data: Path, out: Path) -> None:
    """Read ``condition``'s pictures with this process's reader; each picture's readings,
    labels, whether its tree's ``neutral`` leaves it untouched, and read time to ``out``."""
    import companion
    from companion.vision.pictures import neutral
    from companion.vision.reader import DiceReader, model_dir

    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    shots = []
    for img, detail, truth in pictures(condition, data):
        t = time.perf_counter()
        found = reader.read(img, detail)
        took = time.perf_counter() - t
        dice = [
            {"value": d.value, "face": d.face, "box": list(d.box), "confidence": d.confidence}
            for d in found
        ]
        shots.append(
            {
                "dice": dice,
                "truth": [[v, list(b)] for v, b in truth],
                "untouched": neutral(img) is img,
                "s": took,
            }
        )
    out.write_text(json.dumps({"code": companion.__file__, "shots": shots}))


def readings(tree: Path, condition: str, data: Path) -> dict:
    """``condition`` read by the reader of ``tree``, in a process of its own: C48's
    ``readings`` running this judge's ``--read`` (its output in /tmp/c60-TREE-CONDITION.json)."""
    return earlier_judge("c48").readings(tree, condition, data, str(Path(__file__).resolve()))


net = earlier_judge("c44").net  # pictures entirely right gained less lost
Replayed = earlier_judge("c48").Replayed


def rendered(right: int, more_net: int):
    return lambda c, s, o: [
        more(c, s, "right", right),
        at_most(c, s, "wrong_when_sure", 0),
        at_most(c, s, "no_die", 0),
        net(o, more_net),
    ]


def stressed(c, s, o):
    return [
        more(c, s, "right", -2),
        at_most(c, s, "wrong_when_sure", 1),
        at_most(c, s, "no_die", 1),
        net(o, -1),
    ]


CHECKS = {
    "a": rendered(15, 5),
    "b": rendered(3, 0),
    "c": rendered(-1, 0),
    "d": lambda c, s, o: [
        more(c, s, "right", 10),
        at_most(c, s, "wrong_when_sure", 0),
        net(o, 3),
    ],
    "e": lambda c, s, o: [
        more(c, s, "right", -1),
        at_most(c, s, "wrong_when_sure", 0),
        at_most(c, s, "no_die", 0),
        net(o, 0),
    ],
    "f": stressed,
    "g": stressed,
    "h": stressed,
}


def main(data: Path) -> None:
    tally = earlier_judge("c35").tally
    if not SHIPPED_TREE.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(SHIPPED_TREE), RULE_COMMIT], check=True
        )
    for condition in "abcdefgh":
        got = {
            "C60": readings(ROOT, condition, data),
            "shipped": readings(SHIPPED_TREE, condition, data),
        }
        shots = got["C60"]["shots"]
        assert [s["truth"] for s in shots] == [s["truth"] for s in got["shipped"]["shots"]]
        readers = {name: Replayed(g["shots"]) for name, g in got.items()}
        truths = [(None, [(v, tuple(b)) for v, b in s["truth"]]) for s in shots]
        out = judging.tally_run(readers, truths, tally)
        out["cast_taken_out"] = sum(not s["untouched"] for s in got["shipped"]["shots"])
        out["pictures"] = len(shots)
        checks = CHECKS[condition](out["C60"], out["shipped"], out)
        if condition == "e":
            same = [
                a["dice"] == b["dice"]
                for a, b in zip(shots, got["shipped"]["shots"], strict=True)
                if b["untouched"]
            ]
            checks.insert(
                0, (f"untouched photos read the same: {sum(same)} of {len(same)}", all(same))
            )
        verdict(LABELS[condition], "C60", out, checks)  # ends at a FAIL
    print("(i): make test, run apart")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]))
    else:
        main(Path(sys.argv[1]))
