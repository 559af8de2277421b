"""C30 (a) and (c): dev halved, C30 against C24 photo by photo, faces from the halved picture
and from the photo. Since then `companion bench vision --split dev --pi-streams --against`."""

import json
import math
import sys
from pathlib import Path

from companion.vision.evaluate import evaluate
from companion.vision.reader import DiceReader

data, cand, base = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
out = {}
for way, detail in (("analysis", False), ("photo", True)):
    res = {}
    for name, models in (("c30", cand), ("c24", base)):
        per = {}
        r = evaluate(
            DiceReader(models, threads=1), data, "dev", per_photo=per, streams=(0.5, detail)
        )
        res[name] = (r, per)
    (a, pa), (b, pb) = res["c30"], res["c24"]
    gained = sorted(k for k in pa if pa[k] and not pb[k])
    lost = sorted(k for k in pa if pb[k] and not pa[k])
    out[way] = {
        "c30": a["all"],
        "c24": b["all"],
        "gained": gained,
        "lost": lost,
        "net": len(gained) - len(lost),
        "two_sigma": 2 * math.sqrt(len(gained) + len(lost)),
    }
print(json.dumps(out, indent=1))
