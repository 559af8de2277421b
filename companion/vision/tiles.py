"""The reader's tile pass: the small dice of a wide shot, found tile by tile.

In a big picture (a phone's photo of a whole table) a die under ``SMALL`` of the picture's
longer side is under about 20 px at the detector's input, where the whole-picture pass
mostly misses it. ``TilePass``, a part of ``DiceReader``, runs the detector on overlapping
tiles, each at the detector's full input, and keeps a tile's die only where it is whole in
its tile, read with a face with confidence and found again at a die's usual size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.vision.boxes import SAME_DIE, apart, area, box_side, centre_inside, same_die
from companion.vision.heat import HEAP_DICE

if TYPE_CHECKING:
    from companion.vision.facepicture import FacePicture
    from companion.vision.reader import DieReading

# A wide shot: in a big picture, a die under this share of its longer side is under about
# 20 px at the detector's input, where it is mostly missed; overlapping tiles of TILE source
# pixels, each read at the detector's full input, see it larger.
SMALL = 0.04
TILE = 1024
TILE_STEP = 768  # tiles overlap by 256 px, more than a small die, so each is whole in one
AGAIN = 40  # px at the detector's input a small die is found again at (``_found_again``)
AGAIN_SIDES = (0.6, 1.6)  # the die found again: its side against the box it is checked for
# A clump of small dice boxed as one die gives way to the tile dice read inside it, each at
# most CLUMP_SIDE of its side, two or more, covering CLUMP_COVER of its box, counting
# the small dice an inner clump already read there.
CLUMP_SIDE = 0.75
CLUMP_COVER = 0.15
CLUMP_PASSES = 5  # passes over the dice at most, while the pass before let one give way
# A die over ONE_SIDE times the one tile die read inside it, with a tile peak beside it, is
# that die and part of its neighbour boxed as one: it gives way to it too
# (AGAIN_SIDES' upper bound).
ONE_SIDE = 1.6
# Dice at one table are about one size: a tile peak under SPECK times the smallest die the
# whole-picture pass read with a face is a speck of the table (an enlarged photo's cloth),
# not a die, and is not taken. The smallest, not the median: the whole-picture pass
# boxes a heap's dice large, and the median of its boxes would leave heap dice out.
SPECK = 0.25
# A faint tile die read less than surely (its peak's heat under STRONG, its face's
# confidence under SURE) stands only where the detector finds it again with the die at
# CLOSE px at its input too: seen that close an enlarged photo's speck is a blob, where a
# real small die is still a die.
STRONG = 0.6
SURE = 0.95
CLOSE = 96


def _enough(read: list, inside: list, side: float, beside: bool) -> bool:
    """Whether the tile dice ``read`` in a die of ``side`` and the small dice of the result
     ``inside`` it are enough for it to give way: two or more, or, where a peak
     lies ``beside`` it, one tile die alone, its side under 1 / ``ONE_SIDE`` of the die's
    ."""
    n = len(read) + len(inside)
    return n >= 2 or (beside and n == 1 and not inside and side > ONE_SIDE * box_side(read[0]))


def _beside(box, inner, found: list) -> bool:
    """Whether a tile peak of ``found`` lies beside ``box``: its centre outside it but
    ``same_die`` with it, and ``apart`` from the peak ``inner`` inside it, another die."""
    return any(not centre_inside(b, box) and same_die(b, box) and apart(b, inner) for b, _ in found)


def _covers(boxes: list, box) -> bool:
    """Whether ``boxes`` (summed areas) cover ``CLUMP_COVER`` of ``box``."""
    return sum(map(area, boxes)) >= CLUMP_COVER * area(box)


class TilePass:
    """The tile pass of ``DiceReader`` (which gives it ``detect``, ``_read_each``,
    ``detect_size`` and the thresholds)."""

    def _small_dice(
        self, img: FacePicture, look: np.ndarray, dice: list[tuple[DieReading, float]]
    ) -> list[tuple[DieReading, float]]:
        """``dice`` with the small dice of a big picture put in, found tile by tile.

        Only what the whole-picture pass cannot see is taken from a tile: a die under
        ``SMALL`` of the picture's longer side, whole in its tile (one cut by a tile's edge
        is whole in the next), not on a die already found (a pip of a big die, or the same
        die again), read with a face with confidence, as a faint peak must be, and found
        again at a die's usual size (``_found_again``): a tile sees the table's things (a
        board's tokens) at sizes the whole-picture pass never boxes them at, and an unsure
        box would ask a player about a die that is not there.

        A die of the whole-picture pass under ``SMALL``, read unsure and not found again,
        gives way first: in a big picture the whole-picture pass sees the table's things
        at a few pixels, where it takes some for dice it cannot read; its place is the
        tile pass's. A tile peak under ``SPECK`` times the smallest
        die that pass read with a face is not taken: dice at one table are about one size,
        and a tile reads an enlarged photo's specks as dice."""
        if max(look.shape[:2]) <= TILE:
            return dice
        limit = SMALL * max(look.shape[:2])
        dice = [
            (die, heat)
            for die, heat in dice
            if die.value is not None
            or box_side(die.box) >= limit
            or self._found_again(look, die.box)
        ]
        sides = [box_side(die.box) for die, _ in dice if die.value is not None]
        bound = SPECK * min(sides) if sides else 0
        found = [
            (box, heat)
            for box, heat, small in self._tile_peaks(look)
            if small and box_side(box) >= bound
        ]
        kept = _keep(found, [die.box for die, _ in dice])
        small = self._read_kept(img, look, kept)
        result = self._clumps_give_way(img, look, dice + small, found)
        return result + self._freed(img, look, dice + small, result, found, kept)

    def _read_kept(self, img: FacePicture, look: np.ndarray, kept: list) -> list:
        """The tile peaks ``kept`` (box, heat) read, those read with a face and found again
        kept, each with the heat it was given (its peak's, or a clump's that gave way). One
        under ``STRONG`` heat and ``SURE`` confidence is found again at ``CLOSE`` px too: a
        tile reads an enlarged photo's specks as faint dice, found again at a die's usual
        size but not close up."""
        read = self._read_each(img, [box for box, _ in kept])
        return [
            (die, heat)
            for (_, heat), die in zip(kept, read, strict=True)
            if die is not None and die.value is not None and self._tile_die_stands(look, die, heat)
        ]

    def _tile_die_stands(self, look: np.ndarray, die: DieReading, heat: float) -> bool:
        """Whether a tile die read with a face is found again (``_found_again``) at ``AGAIN``
        px, and, where its heat is under ``STRONG`` and its confidence under ``SURE``, at
        ``CLOSE`` px too."""
        if not self._found_again(look, die.box):
            return False
        return heat >= STRONG or die.confidence >= SURE or self._found_again(look, die.box, CLOSE)

    def _freed(self, img: FacePicture, look: np.ndarray, dice, result, found, kept) -> list:
        """The tile dice read from the peaks in ``found`` that a die of ``dice`` which gave
        way (not in ``result``) had kept out, and that were not read before (not in
        ``kept``): the keeping loop's test, ``centre_inside`` or ``same_die``, measures in
        sides of the larger box, so a clump boxed as one die keeps out the dice beside it
        too, and once it gives way to its own dice nothing else would read them. Where no
        die gave way, nothing is read."""
        gone = [die.box for die, _ in dice if not any(die is d for d, _ in result)]
        if not gone:
            return []
        read = {box for box, _ in kept}
        freed = [(b, h) for b, h in found if b not in read and _kept_out(b, gone)]
        return self._read_kept(img, look, _keep(freed, [die.box for die, _ in result]))

    def _clumps_give_way(
        self, img: FacePicture, look: np.ndarray, dice: list[tuple[DieReading, float]], found
    ) -> list[tuple[DieReading, float]]:
        """``dice`` with each clump of small dice, boxed as one die, given way to the dice in
        it, a pass (``_clumps_pass``) run again on its own result while the pass before let a
        die give way, at most ``CLUMP_PASSES`` in all: boxes over one heap that overlap
        without holding each other's centres keep each other's peaks out, so one tried early
        stays beside a neighbour that gives way after it."""
        for _ in range(CLUMP_PASSES):
            result = self._clumps_pass(img, look, dice, found)
            if [id(d) for d, _ in result] == [id(d) for d, _ in dice]:  # none gave way
                break
            dice = result
        return result

    def _clumps_pass(
        self, img: FacePicture, look: np.ndarray, dice: list[tuple[DieReading, float]], found
    ) -> list[tuple[DieReading, float]]:
        """``dice`` with each clump of small dice, boxed as one die, given way to the dice in
        it. At a few pixels the whole-picture pass boxes a clump of small dice as one die,
        and the tile pass, which keeps a die only apart from those found, left the clump's
        dice alone. A die gives way to the tile peaks ``found`` centred inside its box, at
        most ``CLUMP_SIDE`` of its side, hottest first, apart from each other and from the
        other dice, when two or more are read with a face and found again and they cover
        ``CLUMP_COVER`` of its box: a big die's pips or a photo's specks, read as dice, cover
        little of it. The peaks' own boxes must cover it first, so a big die's pips are
        never read.

        Dice are tried smallest first, and a larger die holding the centre of the one tried
        keeps none of its peaks out: two boxes over one patch of a heap, one inside the
        other, would otherwise each keep the other's dice out. The small dice already read
        inside a die (an inner clump's) count with its clump, so the outer box gives way
        too. A die over ``ONE_SIDE`` times the one tile die read
        inside it, and no other, gives way to it where a tile peak lies beside it
        (``_beside``): a die and part of its neighbour boxed as one, whose size keeps the
        neighbour out. A big die alone, one patch of its face taken by a tile for a die,
        has no peak beside it and stays."""
        result = list(dice)
        hottest_first = [box for box, _ in sorted(found, key=lambda f: -f[1])]
        for die, heat in sorted(dice, key=lambda d: box_side(d[0].box)):
            side = box_side(die.box)
            taken, inside = _clump_in(die, result, hottest_first)
            beside = len(taken) == 1 and _beside(die.box, taken[0], found)
            if not _enough(taken, inside, side, beside) or not _covers(taken + inside, die.box):
                continue
            clump = self._read_kept(img, look, [(box, heat) for box in taken]) if taken else []
            read = [d.box for d, _ in clump]
            if _enough(read, inside, side, beside) and _covers(read + inside, die.box):
                result = [(d, h) for d, h in result if d is not die] + clump
        return result

    def _tile_peaks(self, look: np.ndarray) -> list[tuple[tuple[int, int, int, int], float, bool]]:
        """The detector's boxes (the picture's pixels) and heat in each tile of ``look``, tile
        by tile, and whether the tile pass may take each: whole in its tile and under
        ``SMALL`` of the picture's longer side. A tile keeps up to ``HEAP_DICE``: a tile of
        a dense heap of small dice holds more than a pass's usual 60."""
        h, w = look.shape[:2]
        limit = SMALL * max(h, w)
        peaks = []
        for y0 in tile_starts(h):
            for x0 in tile_starts(w):
                tile = look[y0 : y0 + TILE, x0 : x0 + TILE]
                th, tw = tile.shape[:2]
                for box, heat in self.detect(tile, max_dice=HEAP_DICE):
                    left, top, right, bottom = box
                    cut_x = (left <= 0 < x0) or (right >= tw and x0 + tw < w)
                    cut_y = (top <= 0 < y0) or (bottom >= th and y0 + th < h)
                    small = not (cut_x or cut_y or box_side(box) >= limit)
                    peaks.append(((left + x0, top + y0, right + x0, bottom + y0), heat, small))
        return peaks

    def _found_again(self, look: np.ndarray, box, again: int = AGAIN) -> bool:
        """Whether the detector finds the die boxed at ``box`` (by a tile, or small by the
        whole-picture pass) again in a window of ``look`` around it, sized so that the die is
        ``again`` px at the detector's input (the window cut at the picture's edges): a peak
        at the faint threshold or more, centred within ``SAME_DIE`` of the die's side of its
        centre, its side ``AGAIN_SIDES`` of the die's. Seen at a die's usual size, with its
        surroundings, a board's token a tile took for a die is seldom taken for one; a small
        real die is found again."""
        side = box_side(box)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        window = round(side * self.detect_size / again)
        x0, y0 = round(cx - window / 2), round(cy - window / 2)
        h, w = look.shape[:2]
        left, top = max(0, x0), max(0, y0)
        part = look[top : min(h, y0 + window), left : min(w, x0 + window)]
        faint = self.faint_threshold
        threshold = self.detect_threshold if faint is None else faint
        low, high = AGAIN_SIDES
        for again, _ in self.detect(part, threshold):
            ax, ay = (again[0] + again[2]) / 2 + left, (again[1] + again[3]) / 2 + top
            if np.hypot(ax - cx, ay - cy) < SAME_DIE * side and low < box_side(again) / side < high:
                return True
        return False


def _clump_in(die: DieReading, result: list, hottest_first: list) -> tuple[list, list]:
    """The boxes a clump pass counts in ``die`` against the dice of ``result`` (die, heat):
    the tile peaks it takes, of ``hottest_first``, each centred inside its box, at most
    ``CLUMP_SIDE`` of its side, apart from those taken before it and not kept out by
    another die (a larger die holding ``die``'s centre keeps none out); and the small dice
    of ``result`` already centred inside it."""
    side = box_side(die.box)
    others = [
        d.box
        for d, _ in result
        if d is not die and not (box_side(d.box) > side and centre_inside(die.box, d.box))
    ]
    taken: list = []
    for box in hottest_first:
        if not centre_inside(box, die.box) or box_side(box) > CLUMP_SIDE * side:
            continue
        if any(not apart(box, t) or same_die(box, t) for t in taken):
            continue
        if _kept_out(box, others):
            continue
        taken.append(box)
    inside = [
        d.box
        for d, _ in result
        if d is not die and centre_inside(d.box, die.box) and box_side(d.box) <= CLUMP_SIDE * side
    ]
    return taken, inside


def _kept_out(box, taken: list) -> bool:
    """Whether a box of ``taken`` holds the centre of ``box`` or is ``same_die`` with it."""
    return any(centre_inside(box, t) or same_die(box, t) for t in taken)


def _keep(peaks: list, taken: list) -> list:
    """The ``peaks`` (box, heat) a tile pass reads, hottest first: each not kept out
    (``_kept_out``) by ``taken`` or by a peak kept before it."""
    kept: list[tuple] = []
    taken = list(taken)
    for box, heat in sorted(peaks, key=lambda f: -f[1]):
        if not _kept_out(box, taken):
            kept.append((box, heat))
            taken.append(box)
    return kept


def tile_starts(n: int) -> list[int]:
    """Where the tiles along a side of ``n`` pixels start: TILE_STEP apart, the last flush."""
    starts = list(range(0, max(n - TILE, 0) + 1, TILE_STEP))
    if starts[-1] + TILE < n:
        starts.append(n - TILE)
    return starts
