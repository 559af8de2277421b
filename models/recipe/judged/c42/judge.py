"""C42's judge (RULE.txt): the reader with the card's rescue classifier (artifacts/c42/models:
the shipped models and card, plus C34's stage quantized as dice-rescue.onnx) against the
reader as shipped (reader.py at the rule's commit, loaded from git, the shipped models),
stopping at the first failure. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c42/judge.py ../shared/data/dice artifacts/c42/models
"""

import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging
from judging import earlier_judge, verdict

from companion.bench_numerals import bench_numerals
from companion.vision import scenes
from companion.vision.evaluate import despeckle, load_split
from companion.vision.fonts import NumeralFonts, font_list
from companion.vision.reader import DiceReader

RULE_COMMIT = "d6a9543"

c41 = earlier_judge("c41")
c40, c39 = c41.c40, c41.c39
tally = c39.c37.c35.tally


def read_before(data: Path, names: list[str]) -> set[str]:
    """The epanemu train photos outside dev (``names``) that judges before C42 read."""
    return (
        c39.read_before(names)
        | set(c39.third_photos(data))
        | set(c40.seventh_photos(data))
        | set(c41.second_photos(data))
    )


def fourth_photos(data: Path) -> list[str]:
    """The epanemu photos: every eighth from the fourth (place 3), not read before, the
    first 100."""
    return c39.every_eighth(data, 3, lambda names: read_before(data, names))


def through_jpeg(img, quality: int):
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)


def epanemu(data: Path, change=None, quality: int = 95):
    files = load_split(data, "train")["epanemu"]
    for name in fourth_photos(data):
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        if change is not None:
            img = through_jpeg(change(img), quality)
        yield img, [(str(v), box) for v, box in files[name]]


def matteop65(data: Path):
    files = load_split(data, "train")["matteop65"]
    for name in sorted(files)[5::8]:
        yield cv2.imread(str(data / "matteop65" / name)), [(str(v), b) for v, b in files[name]]


def rendered(change, quality: int):
    for seed in range(106000, 106060):
        rng = np.random.default_rng(seed)
        count = int(rng.integers(3, 9))
        img, dice = scenes.scene(
            rng, 480, 640, count=count, size_range=(30, 90), mess=6 if seed % 2 else 0
        )
        yield through_jpeg(change(img), quality), [(d.face.label, d.box) for d in dice]


def run(readers: dict, pictures) -> dict:
    """``judging.tally_run`` with C35's tallies."""
    return judging.tally_run(readers, pictures, tally)


def speed(readers: dict, data: Path, rounds: int = 3) -> dict:
    """Both readers alternately on ``bench vision``'s 60 frames, ``rounds`` times: the
    median ms a frame of each over every timed read."""
    frames = []
    for path in sorted(data.glob("*/*.jpg")):
        img = cv2.imread(str(path))
        if img is not None and img.shape[:2] == (640, 640):
            frames.append(img)
        if len(frames) == 60:
            break
    times = {name: [] for name in readers}
    for reader in readers.values():
        for img in frames:
            reader.read(img)
    for _ in range(rounds):
        for name, reader in readers.items():
            for img in frames:
                t0 = time.perf_counter()
                reader.read(img)
                times[name].append(time.perf_counter() - t0)
    return {name: round(statistics.median(t) * 1000, 2) for name, t in times.items()}


def main(data: Path, models: Path) -> None:
    cv2.setNumThreads(1)
    shipped = c39.c37.c35.shipped_reader(RULE_COMMIT)
    readers = {"C42": DiceReader(models, threads=1), "shipped": shipped}
    assert readers["C42"]._rescue is not None, "the candidate's card names no rescue"
    print("(a)'s photos:", len(fourth_photos(data)), flush=True)

    def more(c, s, key, by):
        return (f"{key} {c[key]} >= {s[key]} + {by}", c[key] >= s[key] + by)

    def at_most(c, s, key, by):
        return (f"{key} {c[key]} <= {s[key]} + {by}", c[key] <= s[key] + by)

    conditions = [
        (
            "a: epanemu photos as they are",
            lambda: epanemu(data),
            lambda c, s, o: [
                (
                    f"net {len(o['gained'])} - {len(o['lost'])} >= 0",
                    len(o["gained"]) >= len(o["lost"]),
                ),
                more(c, s, "right", 0),
                at_most(c, s, "no_die", 1),
                at_most(c, s, "wrong_when_sure", 1),
            ],
        ),
        (
            "b: matteop65 photos as they are",
            lambda: matteop65(data),
            lambda c, s, o: [more(c, s, "photos_right", 0), at_most(c, s, "no_die", 0)],
        ),
        (
            "c: rendered shots blurred",
            lambda: rendered(judging.blur, 95),
            lambda c, s, o: [
                more(c, s, "right", 4),
                at_most(c, s, "no_die", 2),
                at_most(c, s, "wrong_when_sure", 2),
            ],
        ),
        (
            "d: rendered shots dimmed",
            lambda: rendered(judging.dim, 85),
            lambda c, s, o: [more(c, s, "right", 0), at_most(c, s, "no_die", 1)],
        ),
        (
            "e: epanemu photos blurred (reported only)",
            lambda: epanemu(data, judging.blur, 95),
            lambda c, s, o: [],
        ),
    ]
    for label, pictures, checks in conditions:
        out = run(readers, pictures())
        c, s = out["C42"], out["shipped"]
        verdict(label, "C42", out, checks(c, s, out))  # ends the judge at a failure
    ms = speed(readers, data)
    verdict(
        "f: speed",
        "C42",
        ms,
        [(f"{ms['C42']} <= 1.03 x {ms['shipped']}", ms["C42"] <= 1.03 * ms["shipped"])],
    )
    fonts = NumeralFonts(font_list(Path("models/recipe/heldout-fonts.txt")), share=1.0)
    numerals = bench_numerals(fonts, models)["all"]
    verdict(
        "g: numerals in the held-out fonts",
        "C42",
        numerals,
        [
            (f"wrong {numerals['wrong']} <= 100", numerals["wrong"] <= 100),
            (f"right {numerals['right']} >= 1629", numerals["right"] >= 1629),
        ],
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
