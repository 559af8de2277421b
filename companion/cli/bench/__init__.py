"""``companion bench``: the benchmarks, each in its own module, run by name and reported
as JSON with the machine they were measured on (``make bench`` runs them all)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.bench.machine import machine


def _report(found: dict) -> None:
    """Prints a benchmark's figures as JSON, with the machine they were measured on."""
    print(json.dumps({**found, "machine": machine()}, indent=2))


def run(what: str, args) -> int:
    """Run the benchmark ``what`` with the command line's ``args`` and print its report."""
    if what == "engine":
        from companion.cli.bench.engine import bench_engine

        _report(bench_engine(args.repeat))
    elif what == "web":
        from companion.cli.bench.web import bench_web

        _report(bench_web(args.clients, args.actions))
    elif what == "watch":
        from companion.cli.bench.watch import bench_watch

        _report(bench_watch(threads=args.threads))
    elif what == "threads":
        from companion.cli.bench.threads import bench_threads

        _report(bench_threads())
    elif what == "numerals":
        _report(_numerals(args))
    elif what == "settle":
        _report(_settle(args))
    elif what == "vision":
        _report(_vision(args))
    elif what == "loso":
        _report(_loso(args))
    elif what == "teach":
        _report(_teach(args))
    return 0


def _numerals(args) -> dict:
    from companion.cli.bench.numerals import bench_numerals

    models = Path(args.models) if args.models else None
    return bench_numerals(_fonts(args), models)


def _fonts(args):
    """The numeral fonts --fonts lists, each file loaded, so a bad one is named before any
    reading."""
    from companion.errors import CompanionError
    from companion.training.fonts import NumeralFonts, font_list

    if not args.fonts:
        raise CompanionError(
            "pass --fonts with a list of font files, e.g. --fonts models/recipe/heldout-fonts.txt",
            code="bench/no-fonts",
        )
    try:
        return NumeralFonts(font_list(Path(args.fonts)), share=1.0)
    except (OSError, RuntimeError, ValueError) as e:
        raise CompanionError(str(e), code="bench/bad-fonts") from e


def _photos(args) -> tuple[Path, Path]:
    """The labelled photos' folder (--data, which vision and settle need) and the models."""
    from companion.errors import CompanionError
    from companion.vision.reader import model_dir

    if not args.data:
        raise CompanionError(
            "pass --data with the folder of labelled dice photos, e.g. --data ../shared/data/dice",
            code="vision/no-data",
        )
    return Path(args.data), Path(args.models) if args.models else model_dir()


def _settle(args) -> dict:
    from companion.cli.bench.settle import bench_settle
    from companion.errors import CompanionError

    data, models = _photos(args)
    if args.frames < 1:
        raise CompanionError(
            f"--frames {args.frames}: a rest needs at least one still frame "
            "(the Settler reads it after 5)",
            code="bench/bad-frames",
        )
    return bench_settle(data, args.split, args.frames, args.seed, models)


def _vision(args) -> dict:
    from companion.cli.bench import vision as bench_vision
    from companion.errors import CompanionError
    from companion.training.calibrate import calibrate
    from companion.vision.reader import DiceReader

    data, models = _photos(args)
    if args.enlarge is not None:
        if not 1 < args.enlarge <= 10 or args.pi_streams or args.against or args.calibrate:
            raise CompanionError(
                f"--enlarge {args.enlarge}: give a factor over 1 and at most 10 (6 makes "
                "the 640 px photos the size of a phone's, 3840 px), and without "
                "--pi-streams, --against or --calibrate",
                code="bench/bad-enlarge",
            )
        return bench_vision.bench_enlarged(data, args.split, models, args.enlarge)
    if args.against:
        if args.split == "heldout":
            raise CompanionError(
                "--against compares two models folders to choose between them: do it "
                "on --split dev (the held-out split is read once, to report the models "
                "chosen)",
                code="bench/heldout-compare",
            )
        how = bench_vision.compare_streams if args.pi_streams else bench_vision.compare
        return how(data, args.split, models, Path(args.against))
    if args.pi_streams:
        return bench_vision.bench_streams(data, args.split, models)
    if args.calibrate:
        return calibrate(DiceReader(models), data, models / "dice.json")
    return bench_vision.bench_vision(data, args.split, models)


def _loso(args) -> dict:
    import tempfile

    from companion.errors import CompanionError
    from companion.training.loso import bench_loso

    data, shipped = _photos(args)
    loso = Path(args.loso)
    if not loso.is_dir():
        raise CompanionError(
            f"no held-out classifiers in {loso}: run `make loso` first (it trains one for "
            "each photo set, never on that set), or pass --loso DIR",
            code="bench/no-loso",
        )
    with tempfile.TemporaryDirectory(prefix="loso-") as scratch:
        return bench_loso(data, loso, shipped, Path(scratch))


def _teach(args) -> dict:
    """Photo sources (--data) and numeral sets in unfamiliar fonts (--fonts), or both."""
    import tempfile

    from companion.errors import CompanionError

    if not args.data and not args.fonts:
        raise CompanionError(
            "pass --data with the labelled dice photos (../shared/data/dice), --fonts with a "
            "list of font files (models/recipe/heldout-fonts.txt), or both",
            code="bench/no-data",
        )
    out = {}
    if args.data:
        from companion.training.teaching import bench_teach

        data, shipped = _photos(args)
        with tempfile.TemporaryDirectory(prefix="teach-") as scratch:
            per_face = {"per_face": args.per_face} if args.per_face else {}
            out = bench_teach(data, Path(args.loso), shipped, Path(scratch), **per_face)
    if args.fonts:
        from companion.cli.bench.numerals import bench_numeral_sets

        out["numeral_sets"] = bench_numeral_sets(_fonts(args))
    return out
