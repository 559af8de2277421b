"""A look after C34's verdict (dev only; decides nothing): C34 and C24 on the stressed dev
photos that the rule stopped before reading. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c34/look.py \
        ../shared/data/dice artifacts/c34/models models
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import look_stressed

look_stressed(*(Path(a) for a in sys.argv[1:4]), "C34")
