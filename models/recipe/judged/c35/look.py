"""A look after C35's verdict (decides nothing): the 3x3 mosaics of the epanemu dev photos
that the rule stopped before reading. Run from the repository's root with C35's reader in
place (reader.diff applied):
    .venv/bin/python models/recipe/judged/c35/look.py ../shared/data/dice
"""

import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
from judge import mosaics, run, shipped_reader

from companion.vision.reader import DiceReader, model_dir

cv2.setNumThreads(1)
readers = {"C35": DiceReader(model_dir(), threads=1), "C24": shipped_reader()}
print("M", json.dumps(run(readers, mosaics(Path(sys.argv[1]))), indent=1))
