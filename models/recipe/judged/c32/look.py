"""A look after C32's verdict (dev only; decides nothing): C32 and C24 on the stressed dev
photos that the rule stopped before reading. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c32/look.py \
        ../shared/data/dice artifacts/c32/models models
"""

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import blur, dim, figures, stressed

from companion.vision.evaluate import compare

data, candidate, shipped = (Path(a) for a in sys.argv[1:4])
with tempfile.TemporaryDirectory() as tmp:
    for name, change, quality in (("blurred", blur, 95), ("dimmed", dim, 85)):
        photos = stressed(data, Path(tmp) / name, change, quality)
        f = figures(compare(photos, "dev", candidate, shipped), "C32")
        print(name, json.dumps(f, indent=1), flush=True)
