"""C58's judge (RULE.txt): a faint tile die read less than surely (heat under STRONG,
confidence under SURE) kept only where the detector finds it again at CLOSE px too, against
the reader as shipped, the same models, stopping at the first failure. C51's judge
(``judging.later_judge``) with C58's name, seeds, rule commit and places in /tmp, (a)'s bar
4 fewer read right at most, (e) asking the boxes on no die be halved with 1 fewer read right
at most, and a condition of its own after (f): (h), 3x3 mosaics of the epanemu and
matteop65 dev photos at 2x, 1 fewer read right at most, as RULE.txt sets them. Run
from the repository's root:
    .venv/bin/python models/recipe/judged/c58/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "looks"))
from judging import at_most, later_judge, more, run_later_judge
from s74_tile_specks import mosaics

RULE_COMMIT = "259c301"  # the rule's commit
# (a)'s bar: at most 4 fewer read right (the design lost 1 of 2,796 in 16 heaps)
C51 = later_judge("C58", __file__, RULE_COMMIT, 112060, -4)
# (e): at most 1 fewer read right, the boxes on no die at most half the shipped reader's,
# rounded down, no more confident misreads, photos entirely right no fewer
C51.CHECKS["e"] = lambda c, s, o: [
    more(c, s, "right", -1),
    at_most(c, s, "no_die", -((s["no_die"] + 1) // 2)),
    at_most(c, s, "wrong_when_sure", 0),
    C51.C48.net(o, 0),
]
# (h): the dev photos' mosaics, their dice small in a big picture, as real small dice are
C51.CONDITIONS = "abcdefh"
C51.ROUNDS["h"] = 1
C51.LABELS["h"] = "h: 3x3 mosaics of the dev photos at 2x (3840 px)"
C51.CHECKS["h"] = lambda c, s, o: [
    more(c, s, "right", -1),
    at_most(c, s, "no_die", 0),
    at_most(c, s, "wrong_when_sure", 0),
    C51.C48.net(o, 0),
]
shown = C51.pictures


def pictures(condition: str, data: Path):
    """The pictures (image, labels) of ``condition``: (h)'s mosaics, or C51's."""
    if condition != "h":
        return shown(condition, data)
    return (
        (img, truth)
        for name, count in (("epanemu", 10), ("matteop65", 2))
        for _, img, truth in mosaics(data, name, count, "dev")
    )


C51.pictures = pictures

if __name__ == "__main__":
    run_later_judge(C51)
