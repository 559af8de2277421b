"""C52's judge (RULE.txt): the clumps given way smallest first, a larger die holding a
clump's centre keeping none of its peaks out, and the small dice already read inside a clump
counted with it, against the reader as shipped, the same models, stopping at the first
failure. C51's judge (``judging.later_judge``) with C52's name, seeds, rule commit
and places in /tmp. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c52/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import later_judge, run_later_judge

# (a)'s bar: 40 more read right (not C51's 100; the design read 21 more in 8 heaps)
C51 = later_judge("C52", __file__, "8b2cef7", 111100, 40)

if __name__ == "__main__":
    run_later_judge(C51)
