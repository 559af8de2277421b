"""A look after C61's verdict (deciding nothing): the judge's rendered conditions (a) to (d)
split into colour pictures and the renderer's 5% of grey ones (a grey camera, where no dot's
colour can be told and a dot is rightly left unsure); and, in colour, which dots were read
wrong as which and which were left unsure (the confusions added after the first run, the
tallies unchanged). Reads the judge's own readings, as
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


def confused(shots: list, grey: list) -> str:
    """The colour pictures' dice read wrong with confidence (label, read as) and left unsure,
    by label."""
    from companion.vision.evaluate import match

    wrong, unsure = Counter(), Counter()
    for g, s in zip(grey, shots, strict=True):
        if g:
            continue
        found = [SimpleNamespace(**{**d, "box": tuple(d["box"])}) for d in s["dice"]]
        truth = [(v, tuple(b)) for v, b in s["truth"]]
        for i, j in match(found, truth):
            label = truth[j][0][4:]
            if found[i].value is None:
                unsure[label] += 1
            elif found[i].face != truth[j][0]:
                wrong[(label, found[i].face.removeprefix("dot-"))] += 1
    said = ", ".join(f"{a} as {b} {n}" for (a, b), n in wrong.most_common()) or "none"
    left = ", ".join(f"{a} {n}" for a, n in unsure.most_common()) or "none"
    return f"read wrong: {said}; unsure: {left}"


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
            print(f"  {name:8s} in colour, " + confused(shots, grey))


if __name__ == "__main__":
    main()
