"""C41's judge (RULE.txt): the reader with C41's tile pass against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c41/judge.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, passes_marked

from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "9a6310c"

# C40's judge, by its path (it loads C39's, which loads C37's, C35's and C36's)
c40 = earlier_judge("c40")
c39 = c40.c39
shots, one_set, run = c39.shots, c39.one_set, c39.run


def second_photos(data: Path) -> list[str]:
    """Condition (d)'s photos: every eighth from the second, not read before, the first 100."""
    return c39.every_eighth(
        data,
        1,
        lambda names: (
            c39.read_before(names) | set(c39.third_photos(data)) | set(c40.seventh_photos(data))
        ),
    )


def epanemu_at_6x(data: Path):
    return c39.epanemu_6x(data, second_photos(data))


def matteop65_at_6x(data: Path):
    return c39.matteop65_6x(data, 3)


def mosaics(data: Path):
    return c39.mosaics_of(data, second_photos(data))


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    shipped = c39.c37.c35.shipped_reader(RULE_COMMIT)
    readers = {"C41": DiceReader(model_dir(), threads=1), "shipped": shipped}
    marks = {"C41": passes_marked(), "shipped": passes_marked(type(shipped))}
    print("(d)'s photos:", len(second_photos(data)), flush=True)
    conditions = c39.tile_rule(
        (103000, 104000, 105000),
        lambda: epanemu_at_6x(data),
        lambda: matteop65_at_6x(data),
        lambda: mosaics(data),
        2,
        (
            "d: epanemu train from the second, despeckled, at 6x",
            "e: matteop65 train from the fourth at 6x",
        ),
    )
    c39.judge_all(readers, marks, conditions, "C41")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
