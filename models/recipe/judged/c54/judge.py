"""C54's judge (RULE.txt): a die over 1.6 times one taken tile peak read inside it giving
way to it, against the reader as shipped, the same
models, stopping at the first failure. C51's judge (its method, conditions and bars) with
C54's name, seeds, rule commit and places in /tmp, as C53's judge set them. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/c54/judge.py ../shared/data/dice
(``--render``: render the pictures only; ``--read CONDITION OUT``: read one condition's
pictures with the reader of the tree on PYTHONPATH and write the readings to OUT, as JSON;
the judge runs it.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import at_most, earlier_judge, more

C51 = earlier_judge("c51")
C51.NAME = "C54"
C51.FILE = __file__
C51.TMP = "/tmp/c54-"
C51.RULE_COMMIT = "3f1de0a"
C51.SHIPPED_TREE = Path("/tmp/c54-shipped")
C51.CACHE = Path("/tmp/c54-pictures")
# (a)'s bar: 40 more read right (the design read 19 more in 8 heaps)
C51.CHECKS = {
    **C51.CHECKS,
    "a": lambda c, s, o: [
        more(c, s, "right", 40),
        at_most(c, s, "no_die", C51.C48.per_200(c, s)),
        at_most(c, s, "wrong_when_sure", C51.C48.per_200(c, s)),
        at_most(c, s, "unsure", 0),
        C51.C48.net(o, 0),
    ],
}
C51.SEEDS = {
    "a": range(111420, 111460),
    "b": range(111460, 111500),
    "c": range(111500, 111540),
    "d": range(111540, 111580),
}

if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        C51.C48.read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]), C51.pictures)
    elif len(sys.argv) == 3 and sys.argv[2] == "--render":
        C51.render()
    else:
        C51.main(Path(sys.argv[1]))
