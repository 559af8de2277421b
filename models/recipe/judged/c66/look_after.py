"""A look after C66's verdict (deciding nothing; the rule stopped at (a)): the dev photos as
they are, read by the candidate and the shipped models, as the rule's (b) would have read
them. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c66/look_after.py \
        ../shared/data/dice artifacts/c66/models models
A later candidate stopped at (a) is looked at the same way with its name last (C70:
    ... artifacts/c70/models models C70)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, judge

if __name__ == "__main__":
    data, candidate, shipped = (Path(a) for a in sys.argv[1:4])
    name = sys.argv[4] if len(sys.argv) > 4 else "C66"
    judge(
        data, candidate, shipped, f"{name} (after the verdict)", earlier_judge("c63").CONDITIONS[:1]
    )
