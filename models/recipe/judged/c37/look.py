"""A look after C37's verdict (decides nothing): condition (d)'s photos read by the shipped
reader, each box on no labelled die with the pass that found it ("whole" picture or
"tile"), and for a tile's box whether every other classifier the card names reads it alike
(C37's check, done here beside the shipped reader). Run from the repository's root:
    .venv/bin/python models/recipe/judged/c37/look.py ../shared/data/dice
"""

import collections
import importlib.util
import sys
from pathlib import Path

import cv2

from companion.vision.evaluate import match
from companion.vision.reader import DiceReader, box_side, model_dir

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import passes_marked

# C37's judge, by its path (it loads C35's judge as "judge")
spec = importlib.util.spec_from_file_location("judge_c37", Path(__file__).parent / "judge.py")
judge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(judge)
cv2.setNumThreads(1)
reader = DiceReader(model_dir(), threads=1)
origin = passes_marked()
others = [(reader._faces, reader.looks), *reader._opinions]  # the veto is the second opinion
stats = collections.Counter()
for n, (img, truth) in enumerate(judge.train_at_6x(Path(sys.argv[1]), "epanemu", clean=True)):
    origin.clear()
    found = reader.read(img)
    matched = {i for i, _ in match(found, truth)}
    for i, d in enumerate(found):
        if i in matched:
            continue
        where = origin.get(id(d), "whole")
        crop = [reader._crop(img, d.box)]
        reads = []
        for session, looks in others:
            p = reader._classify(session, crop, looks)[0][0]
            reads.append((reader.classes[int(p.argmax())], round(float(p.max()), 2)))
        alike = all(c == d.face and p >= reader.min_confidence for c, p in reads[1:])
        stats[f"{where}{' alike' if where == 'tile' and alike else ''}"] += 1
        print(n, where, "side", box_side(d.box), "read", d.face, reads, "alike" if alike else "")
print(dict(stats))
