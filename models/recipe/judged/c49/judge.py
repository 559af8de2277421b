"""C49's judge (RULE.txt): a clump of small dice boxed as one die by the whole-picture pass of
a big picture gives way to the tile dice read inside it, against the reader as shipped, the
same models, stopping at the first failure. Each reader reads in a process of its own (C48's
judge's ``read`` and ``readings``): the shipped one from a git worktree at the rule's commit,
the candidate from this tree. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c49/judge.py ../shared/data/dice
(``--read CONDITION OUT``: read one condition's pictures with the reader of the tree on
PYTHONPATH and write the readings to OUT, as JSON; the judge runs it.)
"""

import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, enlarged, more, verdict

RULE_COMMIT = "3622f3f"
ROOT = Path(__file__).resolve().parents[4]
SHIPPED_TREE = Path("/tmp/c49-shipped")
C48 = earlier_judge("c48")
# (condition, median time bound against the shipped reader's)
TIME_BOUNDS = {"a": 1.5, "b": 1.1, "c": 1.1, "d": 1.1}


def pictures(condition: str, data: Path):
    """The pictures (image, labels) of ``condition`` ("a" to "f"), in order."""
    from companion.vision.evaluate import load_split

    shots = earlier_judge("c36").shots
    if condition == "a":  # dense heaps, as session 65's look renders them
        sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
        from s65_dense_heaps import heap

        return (heap(seed) for seed in range(110640, 110680))
    if condition == "b":
        return shots(range(110680, 110720), 3000, 4000, (3, 13), (40, 125), lambda s: 6 * (s % 2))
    if condition == "c":
        return shots(range(110720, 110760), 3000, 4000, (2, 7), (160, 320), lambda s: 8)
    if condition == "d":
        return shots(range(110760, 110780), 3000, 4000, (2, 5), (320, 640), lambda s: 8)
    dev = load_split(data, "dev")
    if condition == "e":
        return (
            picture
            for name in ("epanemu", "matteop65")
            for picture in enlarged(data, name, sorted(dev[name]), dev[name], clean=False)
        )
    return earlier_judge("c44").dev(data)


def no_worse(c: dict, s: dict, o: dict) -> list:
    return [
        more(c, s, "right", 0),
        at_most(c, s, "no_die", 0),
        at_most(c, s, "wrong_when_sure", 0),
        C48.net(o, 0),
    ]


CHECKS = {
    "a": lambda c, s, o: [
        more(c, s, "right", 100),
        at_most(c, s, "no_die", C48.per_200(c, s)),
        at_most(c, s, "wrong_when_sure", 0),
        at_most(c, s, "unsure", 0),
        C48.net(o, 0),
    ],
    "b": no_worse,
    "c": no_worse,
    "d": no_worse,
    "e": no_worse,
}
LABELS = {
    "a": "a: rendered dense heaps of small dice, 4000x3000",
    "b": "b: rendered phone-size shots, 3 to 12 dice of 40 to 125 px",
    "c": "c: rendered phone-size shots, 2 to 6 dice of 160 to 320 px",
    "d": "d: rendered phone-size shots, 2 to 4 dice of 320 to 640 px",
    "e": "e: the dev photos at 6x (read before)",
    "f": "f: the dev photos at their size: every reading the same",
}


def main(data: Path) -> None:
    tally = earlier_judge("c35").tally
    if not SHIPPED_TREE.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(SHIPPED_TREE), RULE_COMMIT], check=True
        )
    for condition in "abcdef":
        got = {
            "C49": C48.readings(ROOT, condition, data, __file__),
            "shipped": C48.readings(SHIPPED_TREE, condition, data, __file__),
        }
        shots = got["C49"]["shots"]
        assert [s["truth"] for s in shots] == [s["truth"] for s in got["shipped"]["shots"]]
        if condition == "f":
            same = [
                a["dice"] == b["dice"]
                for a, b in zip(got["C49"]["shots"], got["shipped"]["shots"], strict=True)
            ]
            verdict(
                LABELS["f"],
                "C49",
                {"photos": len(same), "the same": sum(same)},
                [(f"the same {sum(same)} of {len(same)}", all(same))],
            )
            continue
        readers = {name: C48.Replayed(g["shots"]) for name, g in got.items()}
        truths = [(None, [(v, tuple(b)) for v, b in s["truth"]]) for s in shots]
        out = judging.tally_run(readers, truths, tally)
        checks = CHECKS[condition](out["C49"], out["shipped"], out)
        times = {name: statistics.median(s["s"] for s in g["shots"]) for name, g in got.items()}
        out["median_s"] = {name: round(t, 3) for name, t in times.items()}
        if condition in TIME_BOUNDS:
            bound = TIME_BOUNDS[condition]
            checks.append(
                (
                    f"median {times['C49']:.3f} s <= {bound} x {times['shipped']:.3f}",
                    times["C49"] <= bound * times["shipped"],
                )
            )
        verdict(LABELS[condition], "C49", out, checks)  # ends at a FAIL
    print("(g): make test, run apart")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        C48.read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]), pictures)
    else:
        main(Path(sys.argv[1]))
