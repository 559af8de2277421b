"""What to tell a person about a picture file OpenCV could not read."""

from __future__ import annotations

from pathlib import Path

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
