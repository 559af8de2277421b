"""A look after C32's verdict (dev only; decides nothing): where C24 loses the dice of the
blurred dev photos, whole-photo sets (epanemu, matteop65). For each labelled die: is there
a detector peak on it at the detection threshold, only at the faint threshold, or none;
and of those with a peak, what the full reader finally reports (and, for a die with a peak
at the threshold that is not reported, what the first classifier alone calls that box).
Run from the repository's root:
    .venv/bin/python models/recipe/judged/c32/look_blur.py ../shared/data/dice
"""

import collections
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import blur, stressed

from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader, DieReading, neutral

data = Path(sys.argv[1])
reader = DiceReader(threads=1)
with tempfile.TemporaryDirectory() as tmp:
    for name, folder in (("as they are", data), ("blurred", stressed(data, Path(tmp), blur, 95))):
        count = collections.Counter()
        for set_name, files in load_split(folder, "dev").items():
            if set_name not in ("epanemu", "matteop65"):
                continue
            for filename, truth in files.items():
                img = cv2.imread(str(folder / set_name / filename))
                # the detector sees the picture as the reader shows it (a cast taken out)
                peaks = reader.detect(neutral(img), reader.faint_threshold)
                faint = [DieReading(b, None, h, "") for b, h in peaks]
                read = reader.read(img)
                peak = {j: faint[i].confidence for i, j in match(faint, truth)}
                final = {j: read[i] for i, j in match(read, truth)}
                for j, (value, _) in enumerate(truth):
                    heat = peak.get(j)
                    where = (
                        "no peak"
                        if heat is None
                        else "peak >= detect"
                        if heat >= reader.detect_threshold
                        else "faint peak only"
                    )
                    die = final.get(j)
                    if die is None and where == "peak >= detect":
                        # what the first classifier alone calls the peak's box
                        box = faint[next(i for i, k in match(faint, truth) if k == j)].box
                        probs = reader.classify(img, [box])[0][0]
                        count[
                            ("  dropped, first classifier says", reader.classes[probs.argmax()])
                        ] += 1
                    got = (
                        "not reported"
                        if die is None
                        else "unsure"
                        if die.value is None
                        else "right"
                        if die.value == value
                        else "wrong"
                    )
                    count[(where, got)] += 1
        dice = sum(n for key, n in count.items() if not key[0].startswith(" "))
        print(name, dice, "dice")
        for key, n in sorted(count.items()):
            print("  ", key, n)
