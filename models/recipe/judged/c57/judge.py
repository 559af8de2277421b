"""C57's judge (RULE.txt): a tile peak under SPECK (0.33) times the smallest side of the
whole-picture dice read with a face not taken, against the reader as shipped, the same
models, stopping at the first failure. C51's judge (``judging.later_judge``) with C57's
name, seeds, rule commit and places in /tmp, (a)'s bar no loss, and (e) asking the boxes on
no die be halved, as RULE.txt sets them. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c57/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import at_most, later_judge, more, run_later_judge

# (a)'s bar: no fewer read right (the design read the same 16 heaps identically)
C51 = later_judge("C57", __file__, "6e2bfc4", 111900, 0)
# (e): as (b), and the boxes on no die at most half the shipped reader's, rounded down
C51.CHECKS["e"] = lambda c, s, o: [
    more(c, s, "right", 0),
    at_most(c, s, "no_die", -((s["no_die"] + 1) // 2)),
    at_most(c, s, "wrong_when_sure", 0),
    C51.C48.net(o, 0),
]

if __name__ == "__main__":
    run_later_judge(C51)
