"""Read once after C36 was shipped, to show what it changed (decides nothing): the reader
before C36 (reader.py at the rule's commit) on the held-out photos enlarged six times, as
`companion bench vision --enlarge 6` reads them with the shipped reader. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/c36/before_at_6x.py ../shared/data/dice
"""

import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent / "c35"))
from judge import shipped_reader

from companion.vision.evaluate import evaluate

cv2.setNumThreads(1)
found = evaluate(shipped_reader("a2187aa"), Path(sys.argv[1]), "heldout", streams=(6.0, False))
print(json.dumps(found["all"]))
for name, rates in found["sets"].items():
    print(name, json.dumps(rates))
