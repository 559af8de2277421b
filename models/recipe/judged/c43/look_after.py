"""A look after C43's verdict (deciding nothing): the conditions the rule stopped before,
(b) to (f), each read and printed without stopping, and for (a) the boxes on no die each
reader drew. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c43/look_after.py ../shared/data/dice artifacts/c43/models
"""

import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging

from companion.bench_numerals import bench_numerals
from companion.bench_vision import compare
from companion.vision.evaluate import match
from companion.vision.fonts import NumeralFonts, font_list
from companion.vision.reader import DiceReader, model_dir

judge = judging.earlier_judge("c43")


def main(data: Path, models: Path) -> None:
    cv2.setNumThreads(1)
    readers = {
        "C43": DiceReader(models, threads=1),
        "shipped": judge.c39.c37.c35.shipped_reader(judge.RULE_COMMIT),
    }
    phone = judge.shots(range(107000, 107040), 3000, 4000, (2, 7), (160, 320), lambda s: 8)
    for k, (img, truth) in enumerate(phone):
        for name, reader in readers.items():
            found = reader.read(img)
            matched = {i for i, _ in match(found, truth)}
            for i, d in enumerate(found):
                if i not in matched:
                    print(f"(a) shot {k} {name} no die at {d.box} {d.face} {d.confidence:.2f}")
    for label, pictures in (
        ("b: rendered table shots", judge.table_shots()),
        ("c: epanemu photos as they are", judge.epanemu(data)),
        ("d: matteop65 photos as they are", judge.matteop65(data)),
    ):
        print(f"({label})", json.dumps(judge.run(readers, pictures), indent=1), flush=True)
    dev = judging.figures(compare(data, "dev", models, model_dir()), "C43")
    print("(e: dev as they are)", json.dumps(dev, indent=1), flush=True)
    fonts = NumeralFonts(font_list(Path("models/recipe/heldout-fonts.txt")), share=1.0)
    numerals = bench_numerals(fonts, models)
    print(
        "(f: numerals)",
        json.dumps(
            {"held_out_fonts": numerals["all"], "opencv_faces": numerals["opencv_faces"]}, indent=1
        ),
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
