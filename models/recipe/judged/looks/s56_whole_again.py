"""A look after C39 shipped (session 56; decides nothing, judges no candidate): would C39's
check (``DiceReader._found_again``) tell the whole-picture pass's small dice in a big
picture from its boxes on things that are not dice? Each die the whole-picture pass finds
under SMALL of a big picture's longer side, matched to a label or not, with whether it is
found again. Pictures already looked at: C37's condition (d) (epanemu at 6x), C37's look's
rendered one-set shots (93000 to 93059), and s56_mosaic_boxes.py's mosaics. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s56_whole_again.py ../shared/data/dice
"""

import collections
import importlib.util
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import passes_marked, small_whole_dice
from s56_mosaic_boxes import mosaics

from companion.vision.reader import DiceReader, model_dir

HERE = Path(__file__).parent
spec = importlib.util.spec_from_file_location("judge_c37", HERE.parent / "c37" / "judge.py")
c37 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c37)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    sources = {
        "epanemu at 6x": lambda: c37.train_at_6x(data, "epanemu", clean=True),
        "rendered one-set": lambda: c37.one_set(range(93000, 93060)),
        "mosaics": lambda: (p for n in (3, 4) for p in mosaics(data, n)),
    }
    for name, pictures in sources.items():
        seen = collections.Counter()
        for img, truth in pictures():
            for d, true, again in small_whole_dice(reader, origin, img, truth):
                true = "on a labelled die" if true else "on no labelled die"
                sure = "unsure" if d.value is None else "read"
                seen[f"{true}, {sure}, {'found again' if again else 'not found again'}"] += 1
        print(name)
        for k, v in sorted(seen.items()):
            print(f"  {v:5d}  {k}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
