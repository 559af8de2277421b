"""A look after C60's verdict (deciding nothing): the conditions its rule stopped before,
(d) to (h), read by the candidate (its diff, candidate.diff, applied in a worktree of the
rule's commit, since the tree holds the shipped reader again) and the shipped reader, each
condition's figures printed, no condition stopping the look. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c60/look_after.py ../shared/data/dice
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

# C60's judge, by its path (a bare ``import judge`` can find another candidate's)
_spec = importlib.util.spec_from_file_location("judge_c60", Path(__file__).with_name("judge.py"))
judge = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(judge)

CANDIDATE_TREE = Path("/tmp/c60-candidate")


def main(data: Path) -> None:
    tally = judge.earlier_judge("c35").tally
    if not judge.SHIPPED_TREE.exists():  # the judge's worktree of the rule's commit
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(judge.SHIPPED_TREE), judge.RULE_COMMIT],
            check=True,
        )
    if not CANDIDATE_TREE.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(CANDIDATE_TREE), judge.RULE_COMMIT],
            check=True,
        )
        diff = Path(__file__).with_name("candidate.diff").resolve()
        subprocess.run(["git", "apply", str(diff)], check=True, cwd=CANDIDATE_TREE)
    for condition in "defgh":
        got = {
            "C60": judge.readings(CANDIDATE_TREE, condition, data),
            "shipped": judge.readings(judge.SHIPPED_TREE, condition, data),
        }
        shots = got["C60"]["shots"]
        readers = {name: judge.Replayed(g["shots"]) for name, g in got.items()}
        truths = [(None, [(v, tuple(b)) for v, b in s["truth"]]) for s in shots]
        out = judge.judging.tally_run(readers, truths, tally)
        out["cast_taken_out"] = sum(not s["untouched"] for s in got["shipped"]["shots"])
        out["pictures"] = len(shots)
        out["untouched_read_the_same"] = sum(
            a["dice"] == b["dice"]
            for a, b in zip(shots, got["shipped"]["shots"], strict=True)
            if b["untouched"]
        )
        checks = judge.CHECKS[condition](out["C60"], out["shipped"], out)
        print(f"({judge.LABELS[condition]})", json.dumps(out, indent=1), flush=True)
        for text, ok in checks:
            print(f"   {'would pass' if ok else 'would fail'}: {text}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
