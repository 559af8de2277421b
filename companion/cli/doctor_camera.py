"""``companion doctor``'s checks of the camera: that it gives frames, where it looks from,
its light, and the dice in view (``companion.cli.doctor`` runs them with the others)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.cli.doctor import Check, dice_reader

# A frame darker than this mean level (of 255) is dim: the labelled dev photos' means run from
# 88 up, and those photos made dim (mean about 52) lose dice (the model card's "Colour casts").
DIM = 70


def check_camera(
    spec: str, opener: Callable | None = None, frames: list | None = None, by_id: Path | None = None
) -> Check:
    """Whether the camera gives frames; the frame it read is added to ``frames`` if given.
    A webcam not found is told the webcams plugged in (their links in ``by_id``, by default
    /dev/v4l/by-id)."""
    from companion.vision.camera import CameraError, open_camera

    if spec == "none":
        return Check(
            "camera",
            "warn",
            "no camera configured: rolls are entered by hand",
            'set [camera] source = "pi" (or usb:0) in /etc/companion/config.toml',
        )
    try:
        camera = (opener or open_camera)(spec)
        try:
            frame = camera.read()
        finally:
            camera.close()
    except CameraError as exc:
        return Check("camera", "FAIL", exc.message, _camera_fix(spec, exc, by_id))
    if frames is not None:
        frames.append(frame)
    h, w = frame.shape[:2]
    return Check("camera", "ok", f"{spec} gives {w}x{h} frames")


def _camera_fix(spec: str, exc, by_id: Path | None) -> str:
    """What to do about the camera ``spec`` failing with ``exc`` (a CameraError)."""
    from companion.vision.camera import BY_ID, webcams

    fix = {
        "camera/busy": "stop the other program (sudo systemctl stop companion, or close "
        "libcamera-hello/rpicam-hello), then run doctor again",
        "camera/missing": {
            "pi": "check the ribbon cable (contacts facing the board), that the camera is "
            "enabled, and `rpicam-hello --list-cameras`",
            "usb": "plug the webcam in (try another USB port) and check that `ls "
            "/dev/video*` lists it",
            "/dev": "plug the webcam in (try another USB port) and check that `ls "
            "/dev/v4l/by-id` lists it",
        }.get(
            "/dev" if spec.startswith("/dev/") else spec.partition(":")[0],
            "check the path in [camera] source (or --camera)",
        ),
        "camera/no-picamera2": "sudo apt install python3-picamera2, and make the virtual "
        "environment with --system-site-packages (deploy/install.sh does both)",
        "camera/broken": "run `sudo deploy/install.sh` again from the clone: it keeps the "
        "system's numpy",
        "camera/stalled": "reseat the ribbon cable at both ends, keep it short and away "
        "from the power cable, use the Pi's own power supply, then `rpicam-hello -t 10000`",
    }
    plugged = webcams(by_id or BY_ID) if exc.code == "camera/missing" else []
    # (a webcam given by its own link and still missing is another fault: the generic fix)
    if plugged and spec.startswith(("usb:", "/dev/")) and spec not in plugged:
        fix["camera/missing"] = (
            f"webcams plugged in now: {', '.join(plugged)}; set [camera] source to one of "
            "them (or pass --camera)"
        )
    elif plugged and spec == "pi":  # a device built with a webcam?
        fix["camera/missing"] += (
            f"; or, to use a webcam plugged in instead, set [camera] source to "
            f"{' or '.join(plugged)}"
        )
    return fix.get(exc.code, "check [camera] source")


def check_view(view: str) -> Check:
    """Whether the reader knows the camera's ``[camera] view``, and what it means."""
    from companion.vision.pictures import VIEWS

    if view not in VIEWS:
        return Check(
            "view",
            "FAIL",
            f"[camera] view is {view!r}, which the reader does not know",
            'set [camera] view = "down" (a camera looking straight down at the table) or '
            '"slanted" (a camera at a slant, the far side of the table at its picture\'s top)',
        )
    if view == "down":
        return Check(
            "view",
            "ok",
            "down: the camera looks straight down; each die is read with its outer side up",
            'if it looks at the table from the side instead, set [camera] view = "slanted"',
        )
    return Check(
        "view",
        "ok",
        "slanted: the top of the camera's picture is the far side of the table",
        'if the camera looks straight down instead, set [camera] view = "down"',
    )


def check_light(frame) -> Check:
    """Whether the camera's picture of the table is one the dice reader does well on: in
    colour, not dim, without a strong colour cast (the model card measures each)."""
    import cv2
    import numpy as np

    from companion.vision.pictures import CAST, as_bgr, cast_levels

    img = as_bgr(frame)
    fix = "light the table with a diffuse, neutral white lamp (4000 K); see hardware/README.md"
    # A grey frame's channels are equal; among 400 labelled colour photos the least colourful
    # (a white die on a white table) still has its channels 0.7 levels apart on average.
    spread = np.abs(img[::8, ::8].astype(np.int16) - img[::8, ::8].mean(axis=2, keepdims=True))
    if float(spread.mean()) < 0.25:
        return Check(
            "light",
            "warn",
            "the camera gives grey frames: the reader finds fewer dice in grey (about three "
            "in four, against more than nine in ten in colour)",
            "use a colour camera module (not a NoIR or monochrome one)",
        )
    mean = float(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).mean())
    if mean < DIM:
        return Check(
            "light",
            "warn",
            f"the table is dim (mean level {mean:.0f} of 255): dice are missed in dim light",
            fix,
        )
    level = cast_levels(img)
    cast = 1.0 if level is None else float(level.max() / level.min())
    if cast > CAST:
        return Check(
            "light",
            "warn",
            f"a strong colour cast (the colours' levels {cast:.2f} apart): the reader takes it "
            "out, but finds fewer dice than in white light",
            fix,
        )
    return Check("light", "ok", f"colour, mean level {mean:.0f} of 255, no strong cast")


def check_dice(frame, view: str, reader=None) -> Check:
    """How many dice the camera sees and how wide they are, against the width the reader
    wants: the camera view's figures, for a person setting the camera up over SSH.
    ``reader``: from ``dice_reader`` (by default one of its own)."""
    from companion.vision.watch import WANTED_PX, die_width

    reader = dice_reader(view) if reader is None else reader
    if isinstance(reader, Exception):
        return Check("dice", "warn", "not counted: the dice models do not load (see models)")
    dice = reader.read(frame)
    h, w = frame.shape[:2]
    if not dice:
        return Check(
            "dice",
            "ok",
            "none in view; put a few under the camera and run doctor again to check their size",
        )
    px = die_width(dice)
    seen = f"{len(dice)} seen, about {px} pixels wide in the {w}x{h} frame"
    if px < WANTED_PX:
        return Check(
            "dice",
            "warn",
            f"{seen}: too small, the reader misses and misreads more dice under {WANTED_PX}",
            "bring the camera closer to the table (or zoom) until they are at least "
            f"{WANTED_PX} pixels wide; hardware/README.md gives the height for your table",
        )
    return Check("dice", "ok", f"{seen} (at least {WANTED_PX} wanted)")
