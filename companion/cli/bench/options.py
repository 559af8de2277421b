"""``companion bench``'s command line: what it measures and the options of each benchmark."""

from __future__ import annotations

import argparse

from companion.cli.argtypes import whole

# what ``companion bench`` measures (``companion.cli.bench``)
BENCHES = ("engine", "web", "watch", "threads", "vision", "settle", "numerals", "loso", "teach")
COUNT = whole(1)


def _cmd_bench(args: argparse.Namespace) -> int:
    from companion.cli.bench import run

    return run(args.what, args)


def add_bench(sub) -> None:
    """``companion bench``: the benchmarks."""
    p = sub.add_parser(
        "bench",
        help="measure speed and accuracy (engine, web, watch, threads, vision, settle, "
        "numerals, loso, teach)",
    )
    p.add_argument(
        "what",
        choices=BENCHES,
        help="what to measure (threads: the onnxruntime threads that read a frame fastest "
        "here, for [vision] threads)",
    )
    _add_vision(p)
    _add_others(p)
    p.set_defaults(func=_cmd_bench, needs_config=False)


def _add_vision(p) -> None:
    """``companion bench``'s options for the photos (vision, settle) and the models."""
    p.add_argument(
        "--data",
        help="vision, settle, loso, teach: folder of labelled photo sets (../shared/data/dice)",
    )
    p.add_argument(
        "--split",
        default="heldout",
        choices=["heldout", "dev", "train"],
        help="vision, settle: which photos to read (dev = the train photos kept aside, "
        "train = the other train photos)",
    )
    p.add_argument(
        "--pi-streams",
        action="store_true",
        help="vision: read the photos as the Pi camera's two streams give a frame: the dice "
        "found at half size, their faces read at half size and then from the photo itself "
        "(with --against, the two folders compared each way)",
    )
    p.add_argument(
        "--enlarge",
        type=float,
        metavar="K",
        help="vision: read each photo enlarged K times (6: a 640 px photo at a phone's 3840 "
        "px, where the reader also reads tile by tile); crops of single dice are left out",
    )
    p.add_argument(
        "--calibrate",
        action="store_true",
        help="vision: choose the thresholds on the dev split and save them",
    )
    p.add_argument(
        "--models",
        metavar="DIR",
        help="vision, settle, numerals, loso, teach: a folder of dice models to measure "
        "(default: the shipped ones; loso, teach: the detectors and card the held-out "
        "readers are made with)",
    )
    p.add_argument(
        "--loso",
        metavar="DIR",
        default="artifacts/loso",
        help="loso, teach: the classifiers `make loso` trained, one folder a photo set, each "
        "never trained on its set (default: artifacts/loso)",
    )
    p.add_argument(
        "--per-face",
        type=int,
        metavar="N",
        help="teach: the dice of each face a source's set is taught from (default 25)",
    )
    p.add_argument(
        "--against",
        metavar="DIR",
        help="vision: compare --models with this models folder photo by photo (dev or train "
        "split only)",
    )


def _add_others(p) -> None:
    """``companion bench``'s options for settle, numerals, engine and web."""
    p.add_argument(
        "--frames", type=int, default=20, help="settle: still frames a photo's rest lasts"
    )
    p.add_argument("--seed", type=int, default=0, help="settle: draws the frames' noise and shake")
    p.add_argument(
        "--fonts",
        metavar="LIST",
        help="numerals, teach: a list of font files to draw numeral dice in, one a line "
        "(models/recipe/heldout-fonts.txt: fonts the classifier never learned; teach: a "
        "set taught in each)",
    )
    p.add_argument(
        "--threads",
        type=COUNT,
        default=1,
        help="watch: onnxruntime threads the reader runs on, as [vision] threads sets them "
        "for the device (1)",
    )
    p.add_argument("--repeat", type=COUNT, default=2000, help="engine: timed repetitions")
    p.add_argument("--clients", type=COUNT, default=12, help="web: live pages connected")
    p.add_argument("--actions", type=whole(2), default=200, help="web: actions sent (2 up)")
