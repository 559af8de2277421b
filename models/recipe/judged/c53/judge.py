"""C53's judge (RULE.txt): C52's clump pass run again on its own result while the pass
before let a die give way (at most 5 passes), against the reader as shipped, the same
models, stopping at the first failure. C51's judge (``judging.later_judge``) with
C53's name, seeds, rule commit and places in /tmp, as C52's judge set them. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/c53/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import later_judge, run_later_judge

# (a)'s bar: 20 more read right (the design read 12 more in 8 heaps)
C51 = later_judge("C53", __file__, "1250cb6", 111260, 20)

if __name__ == "__main__":
    run_later_judge(C51)
