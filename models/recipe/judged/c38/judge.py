"""C38's judge (RULE.txt): the reader with C38's tile pass against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c38/judge.py ../shared/data/dice
"""

import importlib.util
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import enlarged, no_more_on_no_die, read_right, verdict

from companion.vision.evaluate import load_split, source_photo
from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "3cdaa97"

spec = importlib.util.spec_from_file_location(
    "judge_c37", Path(__file__).parent.parent / "c37" / "judge.py"
)
c37 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c37)


def unread_sources(data: Path):
    """Condition (d)'s photos: one copy (the first by name) of each epanemu source photo
    none of whose copies is at a place 0 or 4 modulo 8 in the sorted train photos outside
    dev, the first 100; despeckled and enlarged 6x."""
    files = load_split(data, "train")["epanemu"]
    names = sorted(files)
    read = {source_photo(n) for k, n in enumerate(names) if k % 8 in (0, 4)}
    chosen, seen = [], set()
    for n in names:
        source = source_photo(n)
        if source not in read and source not in seen:
            seen.add(source)
            chosen.append(n)
    yield from enlarged(data, "epanemu", chosen[:100], files, clean=True)


def matteop65_at_6x(data: Path):
    files = load_split(data, "train")["matteop65"]
    return enlarged(data, "matteop65", sorted(files)[2::8], files, clean=False)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {"C38": DiceReader(model_dir(), threads=1), "C36": c37.shipped_reader(RULE_COMMIT)}

    conditions = [
        (
            "a: W4, wide shots",
            lambda: c37.shots(
                range(98000, 98040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            lambda c, s: [read_right(c, s, 6), no_more_on_no_die(c, s)],
        ),
        (
            "b: S2, one-set wide shots",
            lambda: c37.one_set(range(99000, 99040)),
            lambda c, s: [read_right(c, s, 4), no_more_on_no_die(c, s)],
        ),
        (
            "c: B2, phone-size shots",
            lambda: c37.shots(range(100000, 100040), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s: [no_more_on_no_die(c, s), read_right(c, s)],
        ),
        (
            "d: epanemu train, sources nothing read, despeckled, at 6x",
            lambda: unread_sources(data),
            lambda c, s: [
                (
                    f"photos right {c['photos_right']} >= {s['photos_right']} + 3",
                    c["photos_right"] >= s["photos_right"] + 3,
                ),
                no_more_on_no_die(c, s),
                read_right(c, s, 2),
            ],
        ),
        (
            "e: matteop65 train from the third at 6x",
            lambda: matteop65_at_6x(data),
            lambda c, s: [read_right(c, s), no_more_on_no_die(c, s)],
        ),
    ]
    for label, pictures, checks in conditions:
        got = c37.run(readers, pictures())
        verdict(label, "C38", got, checks(got["C38"], got["C36"]))
    print("(a) to (e) PASS; (f) is make test")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
