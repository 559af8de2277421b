"""C61's judge (RULE.txt): a colour dot read again from its crop balanced (by its die's light
body, or else by the picture's measured cast), against the reader as shipped at the rule's
commit, the same models, stopping at the first failure. Each reader reads in a process of
its own (``judging.read_pair``): the shipped one from a git worktree at the rule's commit,
the candidate from this tree. The pictures are C60's judge's (``c60.pictures``, its rendered
rolls with this rule's seeds). Run from the repository's root:
    .venv/bin/python models/recipe/judged/c61/judge.py ../shared/data/dice
(``--read CONDITION OUT``: read one condition's pictures with the reader of the tree on
PYTHONPATH and write the readings to OUT, as JSON; the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
import judging
from judging import bars, earlier_judge, verdict

RULE_COMMIT = "e1acf65"  # the rule's commit
SHIPPED_TREE = Path("/tmp/c61-shipped")
c60 = earlier_judge("c60")
C60_PICTURES = c60.pictures  # kept: ``read`` puts this judge's own in its place
STRONG, WARM, COOL = c60.STRONG, c60.WARM, c60.COOL
# this rule's conditions as C60's judge's pictures name them: rendered rolls (C60's a, b
# and c) by seeds and gains; the Pi's two streams of (a)'s (C60's d); the dev photos as they
# are (C60's e) and under a cast (C60's f, g, h: by GAINS)
SEEDS = {
    "a": range(112580, 112700),
    "b": range(112700, 112820),
    "c": range(112820, 112940),
    "d": range(112940, 113060),
}
GAINS = {"a": STRONG, "b": WARM, "c": (1.0, 1.0, 1.0), "d": COOL, "h": WARM, "i": STRONG}
GAINS["j"] = COOL
AS_C60 = {"a": "a", "b": "a", "c": "a", "d": "a", "f": "d", "g": "e", "h": "f", "i": "f"}
AS_C60["j"] = "f"
LABELS = {
    "a": "a: rendered dot rolls under the strong warm cast",
    "b": "b: rendered dot rolls under the card's warm lamp",
    "c": "c: rendered dot rolls in the renderer's own light",
    "d": "d: rendered dot rolls under the card's cool light",
    "e": "e: (a) to (d) together",
    "f": "f: (a)'s rolls as the Pi's two streams (found halved, faces from the table)",
    "g": "g: the epanemu and matteop65 dev photos as they are (despeckled)",
    "h": "h: the dev photos under the card's warm lamp",
    "i": "i: the dev photos under the strong warm cast",
    "j": "j: the dev photos under the card's cool light",
}


def pictures(condition: str, data: Path):
    """``condition``'s pictures, as C60's judge makes its own with this rule's seeds and
    gains."""
    kind = AS_C60[condition]
    c60.SEEDS["a"] = SEEDS["a" if condition == "f" else condition] if kind in "ad" else ()
    c60.GAINS["a"] = GAINS.get(condition, STRONG)
    c60.GAINS["f"] = GAINS.get(condition)
    return C60_PICTURES(kind, data)


def read(condition: str, data: Path, out: Path) -> None:
    """C60's judge's ``read`` of this rule's ``condition``."""
    c60.pictures = lambda _kind, d: pictures(condition, d)
    c60.read(condition, data, out)


STRESSED = bars(right=-2, wrong=1, no_die=1, net=-1)  # the dev photos under a cast, as C60's
CHECKS = {
    "a": bars(right=12, wrong=0, no_die=0, net=5),
    "b": bars(right=0, wrong=1, no_die=0, net=0),
    "c": bars(right=-3, wrong=2, no_die=0, net=-2),
    "d": bars(right=0, wrong=1, no_die=0, net=0),
    "e": bars(wrong=0, net=5),
    "f": bars(right=8, wrong=0, net=3),
    "g": bars(right=0, wrong=0, no_die=0, net=0),
    "h": STRESSED,
    "i": STRESSED,
    "j": STRESSED,
}


def together(outs: list[dict]) -> dict:
    """The tallies of several conditions summed, their gained and lost counted together."""
    total = {"gained": [], "lost": []}
    for out in outs:
        for name in ("C61", "shipped"):
            for key, n in out[name].items():
                total.setdefault(name, {})[key] = total.get(name, {}).get(key, 0) + n
        for key in ("gained", "lost"):
            total[key] += [(len(total[key]), k) for k in out[key]]
    return total


def main(data: Path) -> None:
    rendered_outs = []
    for condition in "abcdefghij":
        if condition == "e":
            out = together(rendered_outs)
        else:
            out, _ = judging.read_pair("C61", __file__, condition, data, RULE_COMMIT, SHIPPED_TREE)
            out["pictures"] = out["C61"]["photos"]
        if condition in "abcd":
            rendered_outs.append(out)
        verdict(LABELS[condition], "C61", out, CHECKS[condition](out["C61"], out["shipped"], out))
    print("(k): make test, run apart")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]))
    else:
        main(Path(sys.argv[1]))
