"""C40's judge (RULE.txt): the reader with C40's change against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c40/judge.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, no_more_on_no_die, passes_marked, read_right

from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "4691dcf"

# C39's judge, by its path (it loads C37's, which loads C35's and C36's)
c39 = earlier_judge("c39")
shots, one_set, run = c39.shots, c39.one_set, c39.run


def seventh_photos(data: Path) -> list[str]:
    """Condition (d)'s photos: every eighth from the seventh, not read before, the first 100."""
    return c39.every_eighth(
        data, 6, lambda names: c39.read_before(names) | set(c39.third_photos(data))
    )


def epanemu_at_6x(data: Path):
    return c39.epanemu_6x(data, seventh_photos(data))


def matteop65_at_6x(data: Path):
    return c39.matteop65_6x(data, 1)


def mosaics(data: Path):
    return c39.mosaics_of(data, seventh_photos(data))


def lost_for_removed(c: dict, s: dict, share: float = 1.0) -> tuple[str, bool]:
    """Dice found by the shipped reader and not by C40 against its boxes on no die taken away."""
    lost, removed = s["found"] - c["found"], s["no_die"] - c["no_die"]
    return (f"lost {lost} <= {share} x removed {removed}", lost <= share * removed)


def three(c: dict, s: dict) -> list:
    return [read_right(c, s), no_more_on_no_die(c, s), lost_for_removed(c, s)]


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    shipped = c39.c37.c35.shipped_reader(RULE_COMMIT)
    readers = {"C40": DiceReader(model_dir(), threads=1), "shipped": shipped}
    marks = {"C40": passes_marked(), "shipped": passes_marked(type(shipped))}
    print("(d)'s photos:", len(seventh_photos(data)), flush=True)
    conditions = [
        (
            "a: wide shots",
            lambda: shots(
                range(100000, 100040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            three,
        ),
        ("b: one-set wide shots", lambda: one_set(range(101000, 101040)), three),
        (
            "c: phone-size shots",
            lambda: shots(range(102000, 102040), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            three,
        ),
        (
            "d: epanemu train from the seventh, despeckled, at 6x",
            lambda: epanemu_at_6x(data),
            lambda c, s: [
                read_right(c, s),
                no_more_on_no_die(c, s),
                (
                    f"photos right {c['photos_right']} >= {s['photos_right']}",
                    c["photos_right"] >= s["photos_right"],
                ),
                lost_for_removed(c, s),
            ],
        ),
        ("e: matteop65 train from the second at 6x", lambda: matteop65_at_6x(data), three),
        (
            "f: 3x3 and 4x4 mosaics of (d)'s photos at 640 px a photo",
            lambda: mosaics(data),
            lambda c, s: [
                (
                    f"no die {c['no_die']} <= 0.8 x {s['no_die']}",
                    c["no_die"] <= 0.8 * s["no_die"],
                ),
                read_right(c, s),
                lost_for_removed(c, s, 0.5),
            ],
        ),
    ]
    c39.judge_all(readers, marks, conditions, "C40")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
