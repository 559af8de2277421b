"""Picture files: reading one within a pixel limit, and what to tell a person about one
OpenCV could not read, or a JPEG cut short that it read only in part.

A picture's size is read from its header first, so that one too big for a Pi is never
decoded whole (a 108-megapixel photo took 1.07 GB decoded, a 950 KB PNG of 30000x30000
pixels 5.4 GB). A JPEG over the limit is decoded at a half, a quarter or an eighth of its
size (libjpeg scales as it decodes); another picture over it is refused, saying what to do.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from companion.errors import VisionError

# Picture files by name: those a replayed camera takes as frames, and those a show for
# teaching may be (adding what a phone saves that OpenCV may not read: such a show is named,
# never skipped).
FRAMES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
PICTURES = FRAMES | {".tif", ".tiff", ".heic", ".heif", ".avif"}

# ISO base media brands of the pictures phones save that OpenCV cannot decode: HEIF (an
# iPhone's photos by default, and some Android phones') and AVIF.
HEIF_BRANDS = {
    b"heic",
    b"heix",
    b"hevc",
    b"hevx",
    b"heim",
    b"heis",
    b"hevm",
    b"hevs",
    b"mif1",
    b"msf1",
}
AVIF_BRANDS = {b"avif", b"avis"}


def unreadable(path: Path) -> str:
    """Why OpenCV could not read the file ``path``, with what to do about it."""
    with path.open("rb") as f:
        head = f.read(64)
    if not head:
        return "an empty file (0 bytes): copy the picture again"
    if head[4:8] == b"ftyp":  # an ISO base media file (HEIF, AVIF, MP4)
        # the major brand, then (after the minor version) the compatible brands
        brands = {head[8:12]} | {head[i : i + 4] for i in range(16, len(head) - 3, 4)}
        if brands & AVIF_BRANDS:  # first: an AVIF file names HEIF's mif1 too
            return "an AVIF picture, which OpenCV cannot read here: save it as JPEG or PNG"
        if brands & HEIF_BRANDS:
            return (
                "a HEIC photo, which OpenCV cannot read: save it as JPEG (on an iPhone, "
                "Settings > Camera > Formats > Most Compatible takes JPEG photos)"
            )
    return "not an image OpenCV can read (give JPEG or PNG files)"


def cut_short(path: Path) -> bool:
    """Whether ``path`` is a JPEG cut short: its markers walked from the start never reach
    the end-of-image marker. OpenCV still decodes such a file (libjpeg fills the missing rows
    and warns only "Premature end of JPEG file"). Walking the markers, rather than looking at
    the file's last bytes, passes over an EXIF thumbnail's own end marker and whatever a
    phone appends after the picture (a motion photo's video)."""
    data = path.read_bytes()
    if not data.startswith(b"\xff\xd8"):
        return False
    at = 2
    while at + 2 <= len(data):
        if data[at] != 0xFF:
            return False  # not a marker where one should be: not a JPEG we can judge
        kind = data[at + 1]
        if kind == 0xD9:
            return False
        if kind == 0xFF or 0xD0 <= kind <= 0xD7:  # fill byte, restart marker: no length
            at += 1 if kind == 0xFF else 2
            continue
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
        if kind == 0xDA:  # a scan: its coded data runs to the next marker (FF not 00, D0-D7)
            while True:
                at = data.find(b"\xff", at)
                if at < 0 or at + 1 >= len(data):
                    return True
                nxt = data[at + 1]
                if nxt != 0 and not 0xD0 <= nxt <= 0xD7:
                    break
                at += 2
    return True


MAX_PIXELS = 24_000_000  # a 24-megapixel picture decodes to 72 MB; dice need far fewer
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def header_size(head: bytes) -> tuple[str, int, int] | None:
    """(kind, width, height) from the first bytes of a PNG or JPEG file, else None."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        w, h = struct.unpack(">II", head[16:24])
        return "png", w, h
    if head[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(head):
        if head[i] != 0xFF:
            return None
        marker = head[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        length = struct.unpack(">H", head[i + 2 : i + 4])[0]
        if marker in _SOF:
            h, w = struct.unpack(">HH", head[i + 5 : i + 9])
            return "jpeg", w, h
        i += 2 + length
    return None


def read_picture(path: Path, max_pixels: int = MAX_PIXELS) -> np.ndarray | None:
    """The picture at ``path`` in colour, as ``cv2.imread`` gives it (None: not a picture
    OpenCV reads), a JPEG over ``max_pixels`` scaled down as it is decoded; VisionError for
    another picture over the limit."""
    import cv2

    try:
        with Path(path).open("rb") as f:
            head = f.read(256 * 1024)  # a JPEG's size comes after its EXIF, within this
    except OSError:
        return None
    size = header_size(head)
    if size is None or size[1] * size[2] <= max_pixels:
        return cv2.imread(str(path), cv2.IMREAD_COLOR)
    kind, w, h = size
    if kind == "jpeg":
        for scale, flag in (
            (2, cv2.IMREAD_REDUCED_COLOR_2),
            (4, cv2.IMREAD_REDUCED_COLOR_4),
            (8, cv2.IMREAD_REDUCED_COLOR_8),
        ):
            if (w // scale) * (h // scale) <= max_pixels:
                return cv2.imread(str(path), flag)
    raise VisionError(
        f"{path} is {w}x{h} pixels ({w * h / 1e6:.0f} megapixels), over the "
        f"{max_pixels / 1e6:.0f}-megapixel limit a Pi can decode: scale it down first",
        code="vision/too-big",
    )
