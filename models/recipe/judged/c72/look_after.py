"""A look after C72's verdict (deciding nothing): condition (a)'s tables band by band, read
by the shipped models, by C72's, and by each with no veto and no second opinions (their
card's ``veto`` and ``second_opinion`` taken out), to see what the first classifier
learned and what the rest of the cascade makes of it. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c72/look_after.py artifacts/c72/models
"""

import json
import shutil
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge

from companion.vision.reader import DiceReader, model_dir

c72 = earlier_judge("c72")
low_views, tally = c72.low_views, c72.tally


def bare(models: Path, into: Path) -> Path:
    """A copy of ``models`` whose card asks no veto and no second opinion."""
    shutil.copytree(models, into)
    card = json.loads((into / "dice.json").read_text())
    card.pop("veto")
    card.pop("second_opinion")
    (into / "dice.json").write_text(json.dumps(card, indent=1))
    return into


def main(candidate: Path) -> None:
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        folders = {
            "shipped": model_dir(),
            "C72": candidate,
            "shipped, first classifier alone": bare(model_dir(), Path(tmp) / "s"),
            "C72, first classifier alone": bare(candidate, Path(tmp) / "c"),
        }
        readers = {name: DiceReader(f, threads=1) for name, f in folders.items()}
        for band in ((20, 30), (30, 40), (40, 50), (60, 90)):
            for name, reader in readers.items():
                t = dict.fromkeys(
                    ("dice", "found", "right", "wrong_when_sure", "unsure", "no_die"), 0
                )
                for img, truth in low_views([band]):
                    tally(reader.read(img), truth, t)
                print(f"{band[0]}-{band[1]} degrees", name, t, flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
