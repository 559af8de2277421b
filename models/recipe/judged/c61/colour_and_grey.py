"""A look after C61's verdict (deciding nothing): the judge's rendered conditions (a) to (d)
split into colour pictures and the renderer's 5% of grey ones (a grey camera, where no dot's
colour can be told and a dot is rightly left unsure). Reads the judge's own readings, as
judge.py left them in /tmp (c61-main-X.json, the candidate; c61-c61-shipped-X.json, the
reader at the rule's commit), and renders each table again only to tell whether it is grey.
Run from the repository's root after judge.py:
    .venv/bin/python models/recipe/judged/c61/colour_and_grey.py
"""

import json
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
from judging import earlier_judge
from s77_dot_casts import is_grey, table

judge = earlier_judge("c61")
KEYS = ("tables", "dice", "right", "wrong_when_sure", "unsure", "no_die")


def main() -> None:
    tally = earlier_judge("c35").tally
    for cond in "abcd":
        gains, seeds = judge.GAINS[cond], judge.SEEDS[cond]
        grey = [is_grey(table(seed, gains)[0]) for seed in seeds]
        print(judge.LABELS[cond])
        for tree, name in (("main", "C61"), ("c61-shipped", "shipped")):
            shots = json.loads(Path(f"/tmp/c61-{tree}-{cond}.json").read_text())["shots"]
            t = {True: Counter(), False: Counter()}
            for g, s in zip(grey, shots, strict=True):
                found = [SimpleNamespace(**{**d, "box": tuple(d["box"])}) for d in s["dice"]]
                tally(found, [(v, tuple(b)) for v, b in s["truth"]], t[g])
                t[g]["tables"] += 1
            for g, what in ((False, "in colour"), (True, "grey")):
                print(f"  {name:8s} {what}: " + ", ".join(f"{k} {t[g][k]}" for k in KEYS))


if __name__ == "__main__":
    main()
