"""C39's judge (RULE.txt): the reader with C39's tile pass against the reader as shipped
(reader.py at the rule's commit, loaded from git), the same models, stopping at the first
failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c39/judge.py ../shared/data/dice
"""

import importlib.util
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import count_photo, enlarged, no_more_on_no_die, passes_marked, read_right, verdict

from companion.vision.evaluate import load_split, match, source_photo
from companion.vision.reader import DiceReader, model_dir

HERE = Path(__file__).parent
RULE_COMMIT = "9872366"

# C37's judge, by its path (it loads C35's judge as "judge", and C36's)
spec = importlib.util.spec_from_file_location("judge_c37", HERE.parent / "c37" / "judge.py")
c37 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c37)
shots, one_set, tally = c37.shots, c37.one_set, c37.tally


def read_before(names: list[str]) -> set[str]:
    """The epanemu train photos outside dev read before this rule: every eighth from the
    first and from the fifth, and C38's condition (d) (the first copy of each source none of
    whose copies is at a place 0 or 4 modulo 8)."""
    done = {n for k, n in enumerate(names) if k % 8 in (0, 4)}
    read = {source_photo(n) for n in done}
    seen = set()
    for n in names:
        if source_photo(n) not in read and source_photo(n) not in seen:
            seen.add(source_photo(n))
            done.add(n)
    return done


def every_eighth(data: Path, start: int, done_before) -> list[str]:
    """Every eighth epanemu train photo outside dev from place ``start`` (0 the first), in
    name order, leaving out ``done_before(names)`` (the photos read before), the first 100."""
    names = sorted(load_split(data, "train")["epanemu"])
    done = done_before(names)
    return [n for n in names[start::8] if n not in done][:100]


def epanemu_6x(data: Path, names: list[str]):
    """The epanemu train photos ``names``, despeckled, at 6x."""
    files = load_split(data, "train")["epanemu"]
    return enlarged(data, "epanemu", names, files, clean=True)


def matteop65_6x(data: Path, start: int):
    """Every eighth matteop65 train photo outside dev from place ``start``, at 6x."""
    files = load_split(data, "train")["matteop65"]
    return enlarged(data, "matteop65", sorted(files)[start::8], files, clean=False)


def mosaics_of(data: Path, names: list[str]):
    """3x3, then 4x4 mosaics of the epanemu photos ``names``, despeckled, at 640 px a photo
    (only whole mosaics)."""
    for n in (3, 4):
        yield from judging.mosaics(data, names, n)


def third_photos(data: Path) -> list[str]:
    """Condition (d)'s photos: every eighth from the third, not read before, the first 100."""
    return every_eighth(data, 2, read_before)


def epanemu_at_6x(data: Path):
    return epanemu_6x(data, third_photos(data))


def matteop65_at_6x(data: Path):
    return matteop65_6x(data, 6)


def mosaics(data: Path):
    return mosaics_of(data, third_photos(data))


def run(readers: dict, pictures, marks: dict) -> dict:
    """C37's tallies, and each reader's boxes on no labelled die drawn by the tile pass."""
    keys = ("photos", "photos_right", "dice", "found", "right", "wrong_when_sure")
    out = {name: dict.fromkeys((*keys, "unsure", "no_die", "tile_no_die"), 0) for name in readers}
    for img, truth in pictures:
        for name, reader in readers.items():
            t, origin = out[name], marks[name]
            origin.clear()
            found = reader.read(img)
            before = (t["right"], t["no_die"])
            tally(found, truth, t)
            matched = {i for i, _ in match(found, truth)}
            t["tile_no_die"] += sum(
                1 for i, d in enumerate(found) if i not in matched and origin.get(id(d)) == "tile"
            )
            count_photo(t, truth, before)
    return out


def tile_rule(seeds, epanemu, matteop65, mosaics, photos_more: int, names) -> list:
    """C39's conditions (a) to (f), as (label, pictures, checks): the rendered shots from
    ``seeds`` (three starts, 40 shots each), then ``epanemu``, ``matteop65`` and
    ``mosaics`` (each a function giving its pictures) with (d) asking ``photos_more``
    photos entirely right; ``names`` the labels of (d) and (e). C41's rule asks the same."""
    wide, one, phone = seeds
    return [
        (
            "a: wide shots",
            lambda: shots(
                range(wide, wide + 40), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            lambda c, s: [read_right(c, s, 2), no_more_on_no_die(c, s)],
        ),
        (
            "b: one-set wide shots",
            lambda: one_set(range(one, one + 40)),
            lambda c, s: [read_right(c, s, 1), no_more_on_no_die(c, s)],
        ),
        (
            "c: phone-size shots",
            lambda: shots(range(phone, phone + 40), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s: [no_more_on_no_die(c, s), read_right(c, s)],
        ),
        (
            names[0],
            epanemu,
            lambda c, s: [
                (
                    f"no die {c['no_die']} <= {s['no_die']} - 0.5 x {s['tile_no_die']}",
                    c["no_die"] <= s["no_die"] - 0.5 * s["tile_no_die"],
                ),
                read_right(c, s, 1),
                (
                    f"photos right {c['photos_right']} >= {s['photos_right']} + {photos_more}",
                    c["photos_right"] >= s["photos_right"] + photos_more,
                ),
            ],
        ),
        (names[1], matteop65, lambda c, s: [read_right(c, s), no_more_on_no_die(c, s)]),
        (
            "f: 3x3 and 4x4 mosaics of (d)'s photos at 640 px a photo",
            mosaics,
            lambda c, s: [
                (
                    f"read right {c['right']} >= 0.96 x {s['right']}",
                    c["right"] >= 0.96 * s["right"],
                ),
                no_more_on_no_die(c, s),
            ],
        ),
    ]


def judge_all(readers: dict, marks: dict, conditions: list, name: str) -> None:
    """Runs ``conditions`` in order on ``readers`` (``name``'s and "shipped"), stopping at
    the first that fails."""
    for label, pictures, checks in conditions:
        got = run(readers, pictures(), marks)
        verdict(label, name, got, checks(got[name], got["shipped"]))
    print("(a) to (f) PASS; (g) is make test")


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    shipped = c37.c35.shipped_reader(RULE_COMMIT)
    readers = {"C39": DiceReader(model_dir(), threads=1), "shipped": shipped}
    marks = {"C39": passes_marked(), "shipped": passes_marked(type(shipped))}
    conditions = tile_rule(
        (97000, 98000, 99000),
        lambda: epanemu_at_6x(data),
        lambda: matteop65_at_6x(data),
        lambda: mosaics(data),
        3,
        (
            "d: epanemu train from the third, despeckled, at 6x",
            "e: matteop65 train from the seventh at 6x",
        ),
    )
    judge_all(readers, marks, conditions, "C39")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
