"""Session 61's look (deciding nothing): what the shipped reader gets wrong on the matteop65
photos it is trained on and the dev ones (oblique webcam frames, read before by judges and
looks), photo by photo: each box on no labelled die (its face, confidence and box), each
labelled die missed, read unsure or read wrong. The verdicts by eye are in
s61_matteop65_train.txt. The shipped reader and models, one thread. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s61_matteop65_train.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader


def faults(found, truth) -> list[str]:
    """What is wrong in one photo's reading ``found`` against its labels ``truth``."""
    pairs = match(found, [(str(v), b) for v, b in truth])
    paired, labelled = {i for i, _ in pairs}, {j for _, j in pairs}
    out = [
        f"no die: read {d.face} {d.confidence:.2f} at {d.box}"
        for i, d in enumerate(found)
        if i not in paired
    ]
    out += [f"missed: {v} at {b}" for j, (v, b) in enumerate(truth) if j not in labelled]
    for i, j in pairs:
        d, label = found[i], str(truth[j][0])
        if d.value is None:
            out.append(f"unsure: {label} read {d.confidence:.2f}")
        elif d.face != label:
            out.append(f"wrong: {label} read {d.face} {d.confidence:.2f}")
    return out


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(threads=1)
    for split in ("train", "dev"):
        files = load_split(data, split)["matteop65"]
        wrong = 0
        for name in sorted(files):
            img = cv2.imread(str(data / "matteop65" / name), cv2.IMREAD_UNCHANGED)
            said = faults(reader.read(img), files[name])
            if said:
                wrong += 1
                print(f"{split} {name} ({len(files[name])} dice): " + "; ".join(said))
        print(f"{split}: {len(files)} photos, {wrong} not read entirely right")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
