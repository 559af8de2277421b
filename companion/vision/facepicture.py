"""The picture the dice's faces are read from, and its colour cast.

The dice are found in the analysis picture; their faces may be read from the same view at a
higher resolution (the Pi camera's main stream beside its analysis stream), where a small
die has more pixels.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from companion.errors import VisionError
from companion.vision.pictures import NEUTRAL, as_bgr, cast_gains


class PictureCast:
    """The colour cast of the picture dice were found in, measured when first asked: the
    gains (``cast_gains``, any cast over NEUTRAL) a dark-bodied colour dot is read again
    with (``DiceReader._classify``)."""

    def __init__(self, img: np.ndarray):
        self._img = img

    @functools.cached_property
    def gains(self) -> np.ndarray | None:
        return cast_gains(self._img, NEUTRAL)


@dataclass(frozen=True)
class FacePicture:
    """The picture the dice's faces are read from: the analysis picture the dice were found
    in, or the same view ``scale`` times larger (``DiceReader.read``'s ``detail``); and the
    analysis picture's cast (None for a taught die, read as it was taught)."""

    picture: np.ndarray
    scale: float
    cast: PictureCast | None = field(default=None, compare=False)

    def box(self, box):
        """``box``, in the analysis picture's pixels, in this picture's."""
        return box if self.scale == 1.0 else tuple(v * self.scale for v in box)


def face_picture(img: np.ndarray, detail: np.ndarray | None, taught: bool) -> FacePicture:
    """Where the faces of the dice found in ``img`` are read: ``detail`` if it is given
    (and no ``taught`` die is read: its faces were taught as the analysis picture shows
    them), else ``img`` itself."""
    if taught:
        return FacePicture(img, 1.0)
    cast = PictureCast(img)
    if detail is None:
        return FacePicture(img, 1.0, cast)
    detail = as_bgr(detail)
    (h, w), (dh, dw) = img.shape[:2], detail.shape[:2]
    scale = dw / w
    if dw < w or abs(dh - h * scale) > max(1.0, scale):
        raise VisionError(
            f"the detail picture ({dw}x{dh}) is not the analysis picture ({w}x{h}) at a "
            "higher resolution: give the same view, as large or larger, in the same shape",
            code="vision/bad-detail",
        )
    return FacePicture(detail, scale, cast)
