"""C43's judge (RULE.txt): C43's models (artifacts/c43/models, made by run.sh) against the
shipped models read by the reader as shipped (reader.py at the rule's commit, loaded from
git), stopping at the first failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c43/judge.py ../shared/data/dice artifacts/c43/models
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.bench_numerals import bench_numerals
from companion.vision.evaluate import load_split
from companion.vision.fonts import NumeralFonts, font_list
from companion.vision.reader import DiceReader, model_dir

RULE_COMMIT = "a58451e"

c42 = earlier_judge("c42")
c39 = c42.c39
tally, shots = c39.c37.c35.tally, c39.shots


def sixth_photos(data: Path) -> list[str]:
    """Condition (c)'s photos: every eighth epanemu train photo outside dev from the sixth
    (place 5), not read before, the first 100."""
    return c39.every_eighth(
        data, 5, lambda names: c42.read_before(data, names) | set(c42.fourth_photos(data))
    )


def epanemu(data: Path):
    return judging.epanemu_train(data, sixth_photos(data))


def matteop65(data: Path):
    files = load_split(data, "train")["matteop65"]
    for name in sorted(files)[7::8]:
        yield cv2.imread(str(data / "matteop65" / name)), [(str(v), b) for v, b in files[name]]


def table_shots():
    """Condition (b)'s shots: 640x480, 3 to 8 dice of 30 to 90 px, mess 6 in every other."""
    return shots(range(108000, 108060), 480, 640, (3, 9), (30, 90), lambda s: 6 * (s % 2))


def run(readers: dict, pictures) -> dict:
    """``judging.tally_run`` with C35's tallies."""
    return judging.tally_run(readers, pictures, tally)


def main(data: Path, models: Path) -> None:
    cv2.setNumThreads(1)
    readers = {
        "C43": DiceReader(models, threads=1),
        "shipped": c39.c37.c35.shipped_reader(RULE_COMMIT),
    }
    print("(c)'s photos:", len(sixth_photos(data)), flush=True)
    conditions = [
        (
            "a: rendered phone-size shots",
            lambda: shots(range(107000, 107040), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
            lambda c, s, o: [
                (f"no_die {c['no_die']} <= 7", c["no_die"] <= 7),
                (f"right {c['right']} >= 160", c["right"] >= 160),
            ],
        ),
        (
            "b: rendered table shots",
            table_shots,
            lambda c, s, o: [more(c, s, "right", -2), at_most(c, s, "no_die", 0)],
        ),
        (
            "c: epanemu photos as they are",
            lambda: epanemu(data),
            lambda c, s, o: [
                (
                    f"net {len(o['gained'])} - {len(o['lost'])} >= -1",
                    len(o["gained"]) - len(o["lost"]) >= -1,
                ),
                more(c, s, "right", -3),
                at_most(c, s, "no_die", 1),
                at_most(c, s, "wrong_when_sure", 1),
            ],
        ),
        (
            "d: matteop65 photos as they are",
            lambda: matteop65(data),
            lambda c, s, o: [more(c, s, "photos_right", -1), at_most(c, s, "no_die", 0)],
        ),
    ]
    for label, pictures, checks in conditions:
        out = run(readers, pictures())
        verdict(label, "C43", out, checks(out["C43"], out["shipped"], out))  # ends at a FAIL
    judging.judge(
        data,
        models,
        model_dir(),
        "C43",
        [("e: dev as they are", "as they are", judging.AS_THEY_ARE_AND_BLURRED[0][2])],
    )
    fonts = NumeralFonts(font_list(Path("models/recipe/heldout-fonts.txt")), share=1.0)
    numerals = bench_numerals(fonts, models)
    held, opencv = numerals["all"], numerals["opencv_faces"]
    verdict(
        "f: numerals",
        "C43",
        {"held_out_fonts": held, "opencv_faces": opencv},
        [
            (f"wrong {held['wrong']} <= 100", held["wrong"] <= 100),
            (f"right {held['right']} >= 1600", held["right"] >= 1600),
            (f"OpenCV's faces right {opencv['right']} >= 118", opencv["right"] >= 118),
        ],
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
