"""A look after C66's verdict (deciding nothing; the rule stopped at (a)): the dev photos as
they are, read by the candidate and the shipped models, as the rule's (b) would have read
them. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c66/look_after.py \
        ../shared/data/dice artifacts/c66/models models"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, judge

if __name__ == "__main__":
    data, candidate, shipped = (Path(a) for a in sys.argv[1:4])
    judge(data, candidate, shipped, "C66 (after the verdict)", earlier_judge("c63").CONDITIONS[:1])
