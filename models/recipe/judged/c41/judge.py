"""C41's judge (RULE.txt): the reader with C41's tile pass against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c41/judge.py ../shared/data/dice
"""

import importlib.util
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import enlarged, no_more_on_no_die, passes_marked, read_right, verdict

from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader, model_dir

HERE = Path(__file__).parent
RULE_COMMIT = "9a6310c"

# C40's judge, by its path (it loads C39's, which loads C37's, C35's and C36's)
spec = importlib.util.spec_from_file_location("judge_c40", HERE.parent / "c40" / "judge.py")
c40 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c40)
c39 = c40.c39
shots, one_set, run = c39.shots, c39.one_set, c39.run


def second_photos(data: Path) -> list[str]:
    """Condition (d)'s photos: every eighth from the second, not read before, the first 100."""
    names = sorted(load_split(data, "train")["epanemu"])
    done = c39.read_before(names) | set(c39.third_photos(data)) | set(c40.seventh_photos(data))
    return [n for n in names[1::8] if n not in done][:100]


def epanemu_at_6x(data: Path):
    files = load_split(data, "train")["epanemu"]
    return enlarged(data, "epanemu", second_photos(data), files, clean=True)


def matteop65_at_6x(data: Path):
    files = load_split(data, "train")["matteop65"]
    return enlarged(data, "matteop65", sorted(files)[3::8], files, clean=False)


def mosaics(data: Path):
    names = second_photos(data)
    for n in (3, 4):
        yield from judging.mosaics(data, names, n)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    shipped = c39.c37.c35.shipped_reader(RULE_COMMIT)
    readers = {"C41": DiceReader(model_dir(), threads=1), "shipped": shipped}
    marks = {"C41": passes_marked(), "shipped": passes_marked(type(shipped))}
    print("(d)'s photos:", len(second_photos(data)), flush=True)
    conditions = [
        (
            "a: wide shots",
            lambda: shots(
                range(103000, 103040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            lambda c, s: [read_right(c, s, 2), no_more_on_no_die(c, s)],
        ),
        (
            "b: one-set wide shots",
            lambda: one_set(range(104000, 104040)),
            lambda c, s: [read_right(c, s, 1), no_more_on_no_die(c, s)],
        ),
        (
            "c: phone-size shots",
            lambda: shots(range(105000, 105040), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s: [no_more_on_no_die(c, s), read_right(c, s)],
        ),
        (
            "d: epanemu train from the second, despeckled, at 6x",
            lambda: epanemu_at_6x(data),
            lambda c, s: [
                (
                    f"no die {c['no_die']} <= {s['no_die']} - 0.5 x {s['tile_no_die']}",
                    c["no_die"] <= s["no_die"] - 0.5 * s["tile_no_die"],
                ),
                read_right(c, s, 1),
                (
                    f"photos right {c['photos_right']} >= {s['photos_right']} + 2",
                    c["photos_right"] >= s["photos_right"] + 2,
                ),
            ],
        ),
        (
            "e: matteop65 train from the fourth at 6x",
            lambda: matteop65_at_6x(data),
            lambda c, s: [read_right(c, s), no_more_on_no_die(c, s)],
        ),
        (
            "f: 3x3 and 4x4 mosaics of (d)'s photos at 640 px a photo",
            lambda: mosaics(data),
            lambda c, s: [
                (
                    f"read right {c['right']} >= 0.96 x {s['right']}",
                    c["right"] >= 0.96 * s["right"],
                ),
                no_more_on_no_die(c, s),
            ],
        ),
    ]
    for label, pictures, checks in conditions:
        got = run(readers, pictures(), marks)
        verdict(label, "C41", got, checks(got["C41"], got["shipped"]))
    print("(a) to (f) PASS; (g) is make test")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
