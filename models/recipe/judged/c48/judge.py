"""C48's judge (RULE.txt): a tile's detector run keeping up to 200 dice, against the reader
as shipped, the same models, stopping at the first failure. Reader.py at a commit no longer
holds the tile pass (tiles.py does), so each reader reads in a process of its own: the
shipped one from a git worktree at the rule's commit, the candidate from this tree. Run from
the repository's root:
    .venv/bin/python models/recipe/judged/c48/judge.py ../shared/data/dice
(``--read CONDITION OUT``: read one condition's pictures with the reader of the tree on
PYTHONPATH and write the readings to OUT, as JSON; the judge runs it.)
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, enlarged, more, verdict

RULE_COMMIT = "24807e3"
ROOT = Path(__file__).resolve().parents[4]
SHIPPED_TREE = Path("/tmp/c48-shipped")


def pictures(condition: str, data: Path):
    """The pictures (image, labels) of ``condition`` ("a" to "d"), in order."""
    from companion.vision.evaluate import load_split

    if condition == "a":  # dense heaps, as session 65's look renders them
        sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
        from s65_dense_heaps import heap

        return (heap(seed) for seed in range(110560, 110600))
    if condition == "b":
        shots = earlier_judge("c36").shots
        return shots(range(110600, 110640), 3000, 4000, (3, 13), (40, 125), lambda s: 6 * (s % 2))
    dev = load_split(data, "dev")
    if condition == "c":
        return (
            picture
            for name in ("epanemu", "matteop65")
            for picture in enlarged(data, name, sorted(dev[name]), dev[name], clean=False)
        )
    return earlier_judge("c44").dev(data)


def read(condition: str, data: Path, out: Path, pictures=pictures) -> None:
    """Read ``condition``'s pictures (``pictures(condition, data)``, this judge's unless
    given) with this process's reader; each picture's readings, labels and read time to
    ``out``."""
    import companion
    from companion.vision.reader import DiceReader, model_dir

    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    shots = []
    for img, truth in pictures(condition, data):
        t = time.perf_counter()
        found = reader.read(img)
        took = time.perf_counter() - t
        dice = [
            {"value": d.value, "face": d.face, "box": list(d.box), "confidence": d.confidence}
            for d in found
        ]
        shots.append({"dice": dice, "truth": [[v, list(b)] for v, b in truth], "s": took})
    out.write_text(json.dumps({"code": companion.__file__, "shots": shots}))


def readings(tree: Path, condition: str, data: Path, judge: str = __file__) -> dict:
    """``condition`` read by the reader of ``tree``, in a process of its own: ``judge``'s
    ``--read`` (this judge's unless given)."""
    out = Path(f"/tmp/{Path(judge).parent.name}-{tree.name}-{condition}.json")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run(
        [sys.executable, judge, str(data.resolve()), "--read", condition, str(out)],
        check=True,
        cwd=tree,
        env=env,
    )
    got = json.loads(out.read_text())
    assert got["code"].startswith(str(tree)), (got["code"], tree)  # the right tree's reader
    return got


class Replayed:
    """A reader that gives back readings made in another process, picture by picture."""

    def __init__(self, shots: list):
        self.shots = iter(shots)

    def read(self, img) -> list:
        return [SimpleNamespace(**{**d, "box": tuple(d["box"])}) for d in next(self.shots)["dice"]]


net = earlier_judge("c44").net  # photos entirely right gained less lost


def per_200(c: dict, s: dict) -> int:
    """G / 200, rounded down: one more error allowed for each 200 more dice read right."""
    return max(0, (c["right"] - s["right"]) // 200)


CHECKS = {
    "a": lambda c, s, o: [
        more(c, s, "right", 100),
        at_most(c, s, "no_die", per_200(c, s)),
        at_most(c, s, "wrong_when_sure", per_200(c, s)),
        at_most(c, s, "unsure", 0),
        net(o, 0),
    ],
    "b": lambda c, s, o: [
        more(c, s, "right", 0),
        at_most(c, s, "no_die", 0),
        at_most(c, s, "wrong_when_sure", 0),
        net(o, 0),
    ],
}
CHECKS["c"] = CHECKS["b"]
LABELS = {
    "a": "a: rendered dense heaps of small dice, 4000x3000",
    "b": "b: rendered phone-size shots, 3 to 12 dice",
    "c": "c: the dev photos at 6x (read before)",
    "d": "d: the dev photos at their size: every reading the same",
}


def main(data: Path) -> None:
    tally = earlier_judge("c35").tally
    if not SHIPPED_TREE.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(SHIPPED_TREE), RULE_COMMIT], check=True
        )
    for condition in "abcd":
        got = {
            "C48": readings(ROOT, condition, data),
            "shipped": readings(SHIPPED_TREE, condition, data),
        }
        shots = got["C48"]["shots"]
        assert [s["truth"] for s in shots] == [s["truth"] for s in got["shipped"]["shots"]]
        if condition == "d":
            same = [
                a["dice"] == b["dice"]
                for a, b in zip(got["C48"]["shots"], got["shipped"]["shots"], strict=True)
            ]
            verdict(
                LABELS["d"],
                "C48",
                {"photos": len(same), "the same": sum(same)},
                [(f"the same {sum(same)} of {len(same)}", all(same))],
            )
            continue
        readers = {name: Replayed(g["shots"]) for name, g in got.items()}
        truths = [(None, [(v, tuple(b)) for v, b in s["truth"]]) for s in shots]
        out = judging.tally_run(readers, truths, tally)
        checks = CHECKS[condition](out["C48"], out["shipped"], out)
        times = {name: statistics.median(s["s"] for s in g["shots"]) for name, g in got.items()}
        out["median_s"] = {name: round(t, 3) for name, t in times.items()}
        if condition == "a":
            bound = 1.25 * times["shipped"]
            checks.append(
                (
                    f"median {times['C48']:.3f} s <= 1.25 x {times['shipped']:.3f}",
                    times["C48"] <= bound,
                )
            )
        verdict(LABELS[condition], "C48", out, checks)  # ends at a FAIL
    print("(e): make test, run apart")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]))
    else:
        main(Path(sys.argv[1]))
