"""Session 58, a look (deciding nothing): at 640 px, where no tile pass runs, does C39's
check (``DiceReader._found_again``) tell the whole-picture pass's dice on no labelled die
from true ones? Every die the shipped reader reports on epanemu photos already read (the dev
photos and the train photos outside dev at places 0, 2, 4 and 6 modulo 8), despeckled, as
they are: whether it matches a labelled die, read with a face or unsure, its peak strong or
faint, and whether it is found again; each die on a labelled die not read right (unsure,
or misread), with the labelled value; and each photo not read entirely right. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s58_whole_again_640.py ../shared/data/dice
"""

import sys
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import looked_at_640

from companion.vision.evaluate import despeckle, match
from companion.vision.reader import DiceReader, box_side, neutral


def main(data: Path) -> None:
    reader = DiceReader()
    pictures = looked_at_640(data)
    tally: Counter = Counter()
    photos = Counter()
    for where, name, labels in pictures:
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        truth = [(str(v), box) for v, box in labels]
        faces = reader._faces_from(img, None)
        look = neutral(img)
        fine = reader._read_fine(faces, look)
        dice = reader._close_ups(faces, look, fine)
        found = [d for d, _ in dice]
        pairs = dict(match(found, truth))
        right = sum(1 for i, j in pairs.items() if str(found[i].value) == truth[j][0])
        for i, (d, heat) in enumerate(dice):
            on_die = i in pairs
            kind = (
                "die" if on_die else "no die",
                "sure" if d.value is not None else "unsure",
                "strong" if heat >= reader.detect_threshold else "faint",
                "again" if reader._found_again(look, d.box) else "not again",
            )
            tally[kind] += 1
            if on_die and str(d.value) != truth[pairs[i]][0]:
                print(
                    f"{where} {name[:40]} {'unsure' if d.value is None else 'misread'} "
                    f"{truth[pairs[i]][0]} at {d.box} side {box_side(d.box):.0f} "
                    f"{d.face} {d.confidence:.2f} heat {heat:.2f} {kind[3]}"
                )
            if not on_die:
                print(
                    f"{where} {name[:40]} no die at {d.box} side {box_side(d.box):.0f} "
                    f"{d.face} {d.confidence:.2f} heat {heat:.2f} {kind[3]}"
                )
        entirely = right == len(truth) and len(found) == len(truth)
        if not entirely:
            print(
                f"{where} {name[:40]} not entirely right: {len(truth) - len(pairs)} missed, "
                f"{len(pairs) - right} not read right, {len(found) - len(pairs)} on no die"
            )
        photos["right" if entirely else "not right"] += 1
        # would the photo be right if every die not found again were dropped?
        kept = [i for i, (d, _) in enumerate(dice) if reader._found_again(look, d.box)]
        kr = sum(1 for i in kept if i in pairs and str(found[i].value) == truth[pairs[i]][0])
        photos["right if dropped"] += kr == len(truth) and len(kept) == len(truth)
    print(f"{len(pictures)} photos; {dict(photos)}")
    for kind, n in sorted(tally.items()):
        print(" ".join(kind), n)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
