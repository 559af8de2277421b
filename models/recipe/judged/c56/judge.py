"""C56's judge (RULE.txt): in C55's case (one tile die read inside a die over 1.6 times
it, a tile peak beside it) the one die need cover no share of the box, against the reader
as shipped, the same models, stopping at the first failure. C51's judge
(``judging.later_judge``) with C56's name, seeds, rule commit and places in /tmp, as C55's
judge set them. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c56/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import later_judge, run_later_judge

# (a)'s bar: 15 more read right (the design read 13 more in 16 heaps)
C51 = later_judge("C56", __file__, "ac981d8", 111740, 15)

if __name__ == "__main__":
    run_later_judge(C51)
