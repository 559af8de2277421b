"""Session 75's probe (decides nothing; no rule, no candidate): does a die the cascade
leaves unsure read better from its crop stretched to full contrast? On the dev photos the
dice left unsure in photos of two or three dice are small (18 to 37 px) and dim: brown
dice with tan pips, yellow dice with ochre pips. After the shipped second look and before
the opinions, each die still unsure is read once more from its crop with its levels
stretched (the 1st and 99th percentiles of its pixels to 0 and 255), that reading
weighed as one of three with the looks before it. Read on the epanemu and matteop65 train
photos outside dev (never a judged split), the shipped reader and the probe each in a
process of its own. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s75_stretched_look.py ../shared/data/dice shipped
    .venv/bin/python models/recipe/judged/looks/s75_stretched_look.py ../shared/data/dice probe
"""

import sys
from pathlib import Path

import numpy as np

from companion.vision import cascade
from companion.vision.evaluate import evaluate
from companion.vision.reader import DiceReader, model_dir


def stretched(crop: np.ndarray) -> np.ndarray:
    """``crop`` with its 1st and 99th percentiles taken to 0 and 255 (a flat crop as it is)."""
    f = crop.astype(np.float32)
    lo, hi = np.percentile(f, 1), np.percentile(f, 99)
    if hi - lo < 8:
        return crop
    return np.clip((f - lo) * 255 / (hi - lo), 0, 255).astype(np.uint8)


SHIPPED = cascade.Cascade._look_again


def look_again(self, img, boxes, probs):
    """The shipped second look, then each die still unsure read from its stretched crop."""
    probs = SHIPPED(self, img, boxes, probs)
    again = self._unsure(probs)
    if not again:
        return probs
    more = self._run([stretched(self._crop(img, boxes[i])) for i in again])[0]
    probs = probs.copy()
    probs[again] = (probs[again] * 2 + more) / 3
    return probs


def main(data: Path, who: str) -> None:
    if who == "probe":
        cascade.Cascade._look_again = look_again
    report(who, evaluate(DiceReader(model_dir(), threads=1), data, "train"))


def report(who: str, out: dict) -> None:
    """The figures of ``evaluate``'s ``out`` a probe compares, a line a photo set."""
    for name in ("epanemu", "matteop65"):
        s = out["sets"][name]
        print(
            who,
            name,
            "photos entirely right",
            s["photos_entirely_right"],
            "value accuracy",
            s["value_accuracy"],
            "unsure",
            s["unsure"],
            "wrong when sure",
            s["wrong_when_sure"],
            "lost to",
            s["photos_lost_to"],
            "by crowding",
            s["by_crowding"],
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
