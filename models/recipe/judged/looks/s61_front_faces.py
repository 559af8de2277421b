"""Session 61's look (deciding nothing; no candidate was made of it): could a box under another
be told for that die's front face by reading the two boxes as one? On the matteop65 train and
dev photos and the 481 epanemu photos of session 58's and 59's looks (all read before), the
shipped reader's dice are paired where B lies under A (B's top in A's lower half or at most a
quarter of A's height below it, and their widths overlapping by 0.6 of the narrower); each
pair's union box is read. A line a pair: set, photo, whether B is on a labelled die, A's and
B's readings, the union's reading. The summary counts the pairs a test would drop: B's face
beside A's on a die (neither the same nor the opposite face) and the union read as A's face
at 0.7 or more. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s61_front_faces.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging

from companion.vision.evaluate import despeckle, load_split, match
from companion.vision.reader import DiceReader


def under(found) -> list[tuple[int, int]]:
    """The pairs (a, b) of dice in ``found`` where b's box lies under a's, as a die's front
    face lies under its top face in a slanted photo."""
    out = []
    for a, da in enumerate(found):
        for b, db in enumerate(found):
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, _) = da.box, db.box
            high = ay1 - ay0
            if a == b or not (by0 >= ay0 + 0.5 * high and by0 - ay1 <= 0.25 * high):
                continue
            if min(ax1, bx1) - max(ax0, bx0) >= 0.6 * min(ax1 - ax0, bx1 - bx0):
                out.append((a, b))
    return out


def pictures(data: Path):
    for split in ("train", "dev"):
        files = load_split(data, split)["matteop65"]
        for name in sorted(files):
            img = cv2.imread(str(data / "matteop65" / name), cv2.IMREAD_UNCHANGED)
            yield "matteop65", name, img, [(str(v), b) for v, b in files[name]]
    for _, name, labels in judging.looked_at_640(data):
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        yield "epanemu", name, img, [(str(v), b) for v, b in labels]


def beside(a: str, b: str) -> bool:
    """Whether faces ``a`` and ``b`` can be a die's top and front face."""
    return a.isdigit() and b.isdigit() and a != b and int(a) + int(b) != 7


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(threads=1)
    dropped = {}
    for where, name, img, truth in pictures(data):
        found = reader.read(img)
        labelled = dict(match(found, truth))
        for a, b in under(found):
            da, db = found[a], found[b]
            box = (
                min(da.box[0], db.box[0]),
                da.box[1],
                max(da.box[2], db.box[2]),
                db.box[3],
            )
            union = reader.read_boxes(img, [box])
            u = f"{union[0].face} {union[0].confidence:.2f}" if union else "none"
            kind = "a labelled die" if b in labelled else "no labelled die"
            print(
                f"{where} {name}: B on {kind}; A {da.face} {da.confidence:.2f}, "
                f"B {db.face} {db.confidence:.2f}; union {u}"
            )
            as_a = union and union[0].face == da.face and union[0].confidence >= 0.7
            if as_a and beside(da.face, db.face):
                dropped[where, kind] = dropped.get((where, kind), 0) + 1
    for (where, kind), n in sorted(dropped.items()):
        print(f"the test would drop, {where}: {n} B on {kind}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
