"""C72's judge (RULE.txt): C72's models (artifacts/c72/models, made by run.sh) against the
shipped models, the same reader (the candidate changes no code of it), view "slanted", one
thread, stopping at the first failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c72/judge.py ../shared/data/dice artifacts/c72/models
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import at_most, earlier_judge, more, verdict

from companion.bench_numerals import bench_numerals
from companion.vision.fonts import NumeralFonts, font_list
from companion.vision.reader import DiceReader, model_dir

c44 = earlier_judge("c44")
tally, shots = c44.c39.c37.c35.tally, c44.shots

SEEDS = range(930000, 930040)  # condition (a)'s and (b)'s tables
SHOTS = range(931000, 931060)  # condition (c)'s


def low_views(bands, seeds=SEEDS):
    """Condition (a)'s and (b)'s tables: ``seeds`` seen from each band of degrees in
    ``bands``, 640x480, 2 to 7 dice of 40 to 90 px, pips, numerals and dots."""
    for band in bands:
        yield from shots(seeds, 480, 640, (2, 8), (40, 90), lambda s: 0, elevation=band)


def main(data: Path, models: Path, name: str = "C72", seeds=SEEDS, shot_seeds=SHOTS) -> None:
    """The rule's conditions for the candidate ``name`` in ``models`` (C73's judge asks the
    same on other seeds)."""
    cv2.setNumThreads(1)
    readers = {name: DiceReader(models, threads=1), "shipped": DiceReader(model_dir(), threads=1)}
    conditions = [
        (
            "a: rendered low views, 20 to 50 degrees",
            lambda: low_views([(20, 30), (30, 40), (40, 50)], seeds),
            lambda c, s: [
                (
                    f"right {c['right']} >= {s['right']} + 5% of {c['dice']}",
                    c["right"] >= s["right"] + 0.05 * c["dice"],
                ),
                at_most(c, s, "wrong_when_sure", 0),
            ],
        ),
        (
            "b: the same tables seen from 60 to 90 degrees",
            lambda: low_views([(60, 90)], seeds),
            lambda c, s: [more(c, s, "right", -2), at_most(c, s, "wrong_when_sure", 1)],
        ),
        (
            "c: rendered table shots, side faces drawn",
            lambda: shots(
                shot_seeds, 480, 640, (3, 9), (30, 90), lambda s: 6 * (s % 2), sides=True
            ),
            lambda c, s: [more(c, s, "right", -2), at_most(c, s, "no_die", 1)],
        ),
    ]
    for label, pictures, checks in conditions:
        out = judging.tally_run(readers, pictures(), tally)
        verdict(label, name, out, checks(out[name], out["shipped"]))  # ends at a FAIL
    judging.judge(
        data,
        models,
        model_dir(),
        name,
        [("d: dev as they are", "as they are", judging.AS_THEY_ARE_AND_BLURRED[0][2])],
    )
    fonts = NumeralFonts(font_list(Path("models/recipe/heldout-fonts.txt")), share=1.0)
    mine, theirs = bench_numerals(fonts, models)["all"], bench_numerals(fonts)["all"]
    verdict(
        "e: numerals in held-out fonts",
        name,
        {name: mine, "shipped": theirs},
        [
            (
                f"right {mine['right']} >= {theirs['right']} - 24",
                mine["right"] >= theirs["right"] - 24,
            ),
            (
                f"wrong {mine['wrong']} <= {theirs['wrong']} + 12",
                mine["wrong"] <= theirs["wrong"] + 12,
            ),
        ],
    )
    print("(f): make test, run apart")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
