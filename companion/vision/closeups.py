"""The reader's close-up pass: a die that fills much of the picture.

The detector learned dice of about 10 to 100 px at its full input; a die that fills more
than about a fifth of the picture is past that, and the full pass boxes its pips or nothing.
``CloseUpPass``, a part of ``DiceReader``, runs a detector a second time on the picture
letterboxed to ``COARSE_SIZE`` (160 px), where such a die is 32 px or more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.vision.boxes import box_side, centre_inside

if TYPE_CHECKING:
    from companion.vision.facepicture import FacePicture
    from companion.vision.reader import DieReading

# A coarse box at least this share of the picture's longer side is a close-up die.
CLOSE_UP = 0.2


class CloseUpPass:
    """The part of ``DiceReader`` that finds and reads close-up dice."""

    def detect_close_ups(self, img: np.ndarray) -> list[tuple[tuple[int, int, int, int], float]]:
        """The coarse pass's boxes (and heat) of dice at least ``CLOSE_UP`` of the picture's
        longer side: close-ups, too big for the full pass; none without a free-size detector."""
        if self.coarse_size is None:
            return []
        least = CLOSE_UP * max(img.shape[:2])
        found = self.detect(img, size=self.coarse_size)
        return [(box, heat) for box, heat in found if box_side(box) >= least]

    def _close_ups(
        self, img: FacePicture, look: np.ndarray, dice: list[tuple[DieReading, float]]
    ) -> list[tuple[DieReading, float]]:
        """``dice`` (each with its heat) with the close-up dice of a coarse pass put in.

        A die that fills much of the picture is past the sizes the detector learned at its
        full input, where it finds pips or nothing. A coarse box read with a face (never
        unsure) is a die, and the boxes found inside it were its pips or a second look at
        it; unless the full pass is surer (a hotter peak) of a die it read inside: then
        the coarse box is a patch of table around small dice, and it is the one dropped."""
        big = self.detect_close_ups(look)
        if not big:
            return dice
        # The full pass's surer dice first: a coarse box they lie in is not read at all.
        big = [
            (box, heat)
            for box, heat in big
            if not any(
                d.value is not None and h > heat and centre_inside(d.box, box) for d, h in dice
            )
        ]
        read = self._read_each(img, [b for b, _ in big])
        close = [
            (d, h)
            for (_, h), d in zip(big, read, strict=True)
            if d is not None and d.value is not None
        ]
        return close + [
            (d, h) for d, h in dice if not any(centre_inside(d.box, c.box) for c, _ in close)
        ]
