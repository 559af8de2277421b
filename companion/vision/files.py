"""What to tell a person about a picture file: one OpenCV could not read, or a JPEG cut
short that it read only in part."""

from __future__ import annotations

from pathlib import Path

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
