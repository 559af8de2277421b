"""A look after C42's verdict (deciding nothing): condition (e), which the rule stopped
before, the epanemu photos of (a) blurred (sigma 2, JPEG 95), read by both readers, and how
many boxes the rescue classifier was asked about and made dice, on those photos and on the
rendered shots of (c). The rescue classifier trained on blurred copies of these photos.
Run from the repository's root (with C42's reader change, reader.diff, applied):
    .venv/bin/python models/recipe/judged/c42/look_after.py ../shared/data/dice artifacts/c42/models
"""

import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging

from companion.vision.reader import DiceReader

judge = judging.earlier_judge("c42")


def counted(reader: DiceReader) -> dict:
    """Counts, in the returned dict, the boxes ``reader``'s rescue is asked about and those
    it makes dice."""
    seen = {"asked": 0, "made_dice": 0}
    rescued = reader._rescued
    nod = reader.classes.index("not-a-die")

    def counting(crops, probs, ask):
        out = rescued(crops, probs, ask)
        rows = [i for i, p in enumerate(probs) if i < len(ask) and ask[i] and p.argmax() == nod]
        seen["asked"] += len(rows)
        seen["made_dice"] += sum(1 for i in rows if out[i].argmax() != nod)
        return out

    reader._rescued = counting
    return seen


def main(data: Path, models: Path) -> None:
    cv2.setNumThreads(1)
    shipped = judge.c39.c37.c35.shipped_reader(judge.RULE_COMMIT)
    candidate = DiceReader(models, threads=1)
    seen = counted(candidate)
    readers = {"C42": candidate, "shipped": shipped}
    for label, pictures in (
        ("(c) rendered shots blurred", judge.rendered(judging.blur, 95)),
        ("(e) epanemu photos blurred", judge.epanemu(data, judging.blur, 95)),
    ):
        seen.update(asked=0, made_dice=0)
        out = judge.run(readers, pictures)
        print(label, json.dumps({**out, "rescue": dict(seen)}, indent=1), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
