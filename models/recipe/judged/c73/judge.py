"""C73's judge (RULE.txt): C72's conditions on fresh seeds, C73's models
(artifacts/c73/models, made by run.sh) against the shipped models. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/c73/judge.py ../shared/data/dice artifacts/c73/models
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge

if __name__ == "__main__":
    earlier_judge("c72").main(
        Path(sys.argv[1]), Path(sys.argv[2]), "C73", range(932000, 932040), range(933000, 933060)
    )
