"""C51's judge (RULE.txt): after the clumps give way (C50), the tile peaks a die that gave way
had kept out are read, against the reader as shipped, the same models, stopping at the first
failure. C50's judge with C51's seeds, rule commit and bars. Each reader reads in a process
of its own (C48's judge's ``read`` and ``readings``): the shipped one from a git worktree at
the rule's commit, the candidate from this tree. The rendered pictures are made once, two at
a time, before any is read, and kept as PNG files in /tmp; the readers read a condition in
rounds, in turn, and a picture's time is the median of its rounds'. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c51/judge.py ../shared/data/dice
(``--read CONDITION OUT``: read one condition's pictures with the reader of the tree on
PYTHONPATH and write the readings to OUT, as JSON; the judge runs it.)
"""

import json
import statistics
import subprocess
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, enlarged, more, verdict

# What a later judge of the same method (c52/judge.py) sets before it reads: the candidate's
# name, its judge's file (run with --read), the rule's commit, where the pictures, the
# shipped tree and the readings are kept, and the seeds.
NAME = "C51"
FILE = __file__
TMP = "/tmp/c51-"
RULE_COMMIT = "66784e4"
ROOT = Path(__file__).resolve().parents[4]
SHIPPED_TREE = Path("/tmp/c51-shipped")
CACHE = Path("/tmp/c51-pictures")
C48 = earlier_judge("c48")
C49 = earlier_judge("c49")
SEEDS = {
    "a": range(110940, 110980),
    "b": range(110980, 111020),
    "c": range(111020, 111060),
    "d": range(111060, 111100),
}
ROUNDS = {"a": 1, "b": 3, "c": 3, "d": 3, "e": 1, "f": 1}
CONDITIONS = "abcdef"  # the conditions read, in order (a later judge may add its own)
# (condition, summed time bound against the shipped reader's)
TIME_BOUNDS = {"a": 1.5, "b": 1.1, "c": 1.1, "d": 1.1}
LABELS = {**C49.LABELS, "a": "a: rendered dense heaps of small dice, 4000x3000"}
# C49's bars but (a)'s confident misreads, allowed one more for each 200 more read right
CHECKS = {
    **C49.CHECKS,
    "a": lambda c, s, o: [
        more(c, s, "right", 100),
        at_most(c, s, "no_die", C48.per_200(c, s)),
        at_most(c, s, "wrong_when_sure", C48.per_200(c, s)),
        at_most(c, s, "unsure", 0),
        C48.net(o, 0),
    ],
}


def render_one(condition: str, seed: int):
    """The picture (image, labels) of ``condition`` at ``seed``, rendered."""
    if condition == "a":  # dense heaps, as session 65's look renders them
        sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
        from s65_dense_heaps import heap

        return heap(seed)
    shots = earlier_judge("c36").shots
    sizes = {"b": (40, 125), "c": (160, 320), "d": (320, 640)}[condition]
    dice = {"b": (3, 13), "c": (2, 7), "d": (2, 5)}[condition]
    mess = (lambda s: 6 * (s % 2)) if condition == "b" else (lambda s: 8)
    return next(shots(range(seed, seed + 1), 3000, 4000, dice, sizes, mess))


def _file(condition: str, seed: int) -> Path:
    return CACHE / condition / f"{seed}.png"


def _render_and_keep(job: tuple[str, int]) -> None:
    condition, seed = job
    img, truth = render_one(condition, seed)
    png = _file(condition, seed)
    png.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(png), img)
    assert np.array_equal(cv2.imread(str(png)), img), png  # lossless
    labels = [[label, [int(c) for c in box]] for label, box in truth]
    png.with_suffix(".json").write_text(json.dumps(labels))


def render() -> None:
    """Every rendered picture not yet in CACHE, made two at a time."""
    jobs = [
        (c, s)
        for c, seeds in SEEDS.items()
        for s in seeds
        if not _file(c, s).with_suffix(".json").exists()
    ]
    with Pool(2) as pool:
        pool.map(_render_and_keep, jobs, chunksize=1)


def pictures(condition: str, data: Path):
    """The pictures (image, labels) of ``condition`` ("a" to "f"), in order."""
    from companion.vision.evaluate import load_split

    if condition in SEEDS:
        return (
            (
                cv2.imread(str(_file(condition, s))),
                [
                    (v, tuple(b))
                    for v, b in json.loads(_file(condition, s).with_suffix(".json").read_text())
                ],
            )
            for s in SEEDS[condition]
        )
    dev = load_split(data, "dev")
    if condition == "e":
        return (
            picture
            for name in ("epanemu", "matteop65")
            for picture in enlarged(data, name, sorted(dev[name]), dev[name], clean=False)
        )
    return earlier_judge("c44").dev(data)


def in_rounds(condition: str, data: Path) -> dict:
    """Both readers' readings of ``condition``, read in ROUNDS rounds in turn (the candidate,
    then the shipped reader); each picture's time the median of its rounds'."""
    rounds = {NAME: [], "shipped": []}
    for _ in range(ROUNDS[condition]):
        rounds[NAME].append(C48.readings(ROOT, condition, data, FILE)["shots"])
        rounds["shipped"].append(C48.readings(SHIPPED_TREE, condition, data, FILE)["shots"])
    got = {}
    for who, runs in rounds.items():
        for run in runs[1:]:  # the same readings every round
            assert [s["dice"] for s in run] == [s["dice"] for s in runs[0]], who
        shots = [
            {**first, "s": statistics.median(r[i]["s"] for r in runs)}
            for i, first in enumerate(runs[0])
        ]
        Path(f"{TMP}{who}-{condition}.json").write_text(json.dumps(shots))
        got[who] = shots
    return got


def main(data: Path) -> None:
    tally = earlier_judge("c35").tally
    if not SHIPPED_TREE.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(SHIPPED_TREE), RULE_COMMIT], check=True
        )
    render()
    for condition in CONDITIONS:
        got = in_rounds(condition, data)
        shots = got[NAME]
        assert [s["truth"] for s in shots] == [s["truth"] for s in got["shipped"]]
        if condition == "f":
            same = [a["dice"] == b["dice"] for a, b in zip(shots, got["shipped"], strict=True)]
            verdict(
                LABELS["f"],
                NAME,
                {"photos": len(same), "the same": sum(same)},
                [(f"the same {sum(same)} of {len(same)}", all(same))],
            )
            continue
        readers = {name: C48.Replayed(g) for name, g in got.items()}
        truths = [(None, [(v, tuple(b)) for v, b in s["truth"]]) for s in shots]
        out = judging.tally_run(readers, truths, tally)
        checks = CHECKS[condition](out[NAME], out["shipped"], out)
        times = {name: sum(s["s"] for s in g) for name, g in got.items()}
        out["summed_s"] = {name: round(t, 3) for name, t in times.items()}
        if condition in TIME_BOUNDS:
            bound = TIME_BOUNDS[condition]
            checks.append(
                (
                    f"summed {times[NAME]:.3f} s <= {bound} x {times['shipped']:.3f}",
                    times[NAME] <= bound * times["shipped"],
                )
            )
        verdict(LABELS[condition], NAME, out, checks)  # ends at a FAIL
    print("(g): make test, run apart")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        C48.read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]), pictures)
    elif len(sys.argv) == 3 and sys.argv[2] == "--render":
        render()
    else:
        main(Path(sys.argv[1]))
