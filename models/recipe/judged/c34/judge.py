"""C34's judge (RULE.txt): C33's conditions, in C33's order, dev only, against C24, stopping
at the first failure. Run from the repository's root, after run.sh:
    .venv/bin/python models/recipe/judged/c34/judge.py \
        ../shared/data/dice artifacts/c34/models models
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from c33.judge import main

if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:4]), name="C34")
