"""Pictures are read within a pixel limit: a size read from the header first, a JPEG too big
scaled down as it is decoded, any other picture too big refused, saying what to do."""

import struct
import subprocess
import sys
import zlib

import cv2
import numpy as np
import pytest

from companion.errors import VisionError
from companion.vision.files import header_size, read_picture


def png_header(width: int, height: int) -> bytes:
    """The start of a PNG claiming ``width`` x ``height`` pixels (a decompression bomb's
    header: a few hundred bytes can claim gigabytes)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    )


def test_the_size_is_read_from_the_header(tmp_path):
    picture = np.full((300, 400, 3), 120, np.uint8)
    jpeg = cv2.imencode(".jpg", picture)[1].tobytes()
    png = cv2.imencode(".png", picture)[1].tobytes()
    assert header_size(jpeg) == ("jpeg", 400, 300)
    assert header_size(png) == ("png", 400, 300)
    assert header_size(b"GIF89a") is None


def test_a_jpeg_over_the_limit_is_decoded_smaller(tmp_path):
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), np.full((600, 800, 3), 90, np.uint8))
    assert read_picture(path, max_pixels=1_000_000).shape == (600, 800, 3)
    assert read_picture(path, max_pixels=100_000).shape == (150, 200, 3)  # a quarter


def test_another_picture_over_the_limit_is_refused_before_it_is_decoded(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(30_000, 30_000))  # 900 megapixels claimed
    with pytest.raises(VisionError, match=r"30000x30000 pixels .* over the 24-megapixel limit"):
        read_picture(path)


def test_companion_read_names_a_picture_too_big(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(30_000, 30_000))
    run = subprocess.run(
        [sys.executable, "-m", "companion", "read", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "over the 24-megapixel limit a Pi can decode: scale it down first" in run.stderr
