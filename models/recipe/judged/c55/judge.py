"""C55's judge (RULE.txt): a die over 1.6 times one taken tile peak read inside it giving
way to it where a tile peak lies beside it, against the reader as shipped, the same
models, stopping at the first failure. C51's judge (``judging.later_judge``) with
C55's name, seeds, rule commit and places in /tmp, as C54's judge set them. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/c55/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import later_judge, run_later_judge

# (a)'s bar: 20 more read right (the design read 9 more in 8 heaps)
C51 = later_judge("C55", __file__, "204d106", 111580, 20)

if __name__ == "__main__":
    run_later_judge(C51)
