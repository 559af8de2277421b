"""The detector's heat map to boxes, in the original picture's pixels: one box a die."""

from __future__ import annotations

import numpy as np

from companion.vision.boxes import apart
from companion.vision.heat import STRIDE, decode
from companion.vision.pictures import letterbox
from companion.vision.reader import STRIDE_COARSEST, DiceReader, DieReading, reading_order

CELLS = 64


def heat_map(peaks: list[tuple[int, int, float]], side_cells: float = 5.0) -> np.ndarray:
    """Detector output (5, H, W) with a peak of ``heat`` at each (row, col), dice 5 cells wide."""
    out = np.zeros((5, CELLS, CELLS), np.float32)
    out[1:3] = np.log(side_cells)
    for y, x, heat in peaks:
        out[0, y, x] = heat
    return out


def centres(found) -> list[tuple[int, int]]:
    """Each box's centre, in detector cells (boxes are whole pixels)."""
    return [
        (round((b[0] + b[2]) / 2 / STRIDE), round((b[1] + b[3]) / 2 / STRIDE)) for b, _ in found
    ]


def test_peaks_become_boxes_in_original_pixels_strongest_first():
    out = heat_map([(10, 10, 0.9), (40, 30, 0.5), (50, 50, 0.2)])
    found = decode(out, 0.35, scale=0.5, shape=(1000, 1000))
    assert [h for _, h in found] == [np.float32(0.9), np.float32(0.5)]
    (x0, _, x1, _), _ = found[0]
    # cell 10 centre is 10.5 cells = 42 px at the detector's scale, 84 px in the original
    assert abs((x0 + x1) / 2 - 84) <= 1 and abs((x1 - x0) - 5 * STRIDE / 0.5) <= 1


def test_a_second_peak_inside_a_found_die_is_that_die():
    out = heat_map([(10, 10, 0.9), (10, 12, 0.8), (10, 14, 0.7)])  # 2 and 4 cells away
    found = decode(out, 0.35, scale=1.0, shape=(256, 256))
    # 2 cells (under 0.6 of a 5-cell die) is the same die; 4 cells is a neighbour
    assert centres(found) == [(10, 10), (14, 10)]


def test_a_second_peak_whose_box_lies_mostly_outside_the_found_die_is_another_die():
    # Dice in a heap: one stands in front of another, and the centres come closer than
    # SAME_DIE of a die's size (2.8 cells of a 5-cell die, where 0.6 is 3 cells). The second
    # box lies mostly outside the first (2.2 of its 5 cells across within it): another die.
    # (Taken for the same die, 39 of the 97 labelled dice the reader missed on 481 epanemu
    # photos were lost.)
    out = heat_map([(10, 10, 0.9), (10, 13, 0.8)])
    out[3, 10, 13] = -0.2  # the second centre 2.8 cells to the right of the first
    found = decode(out, 0.35, scale=1.0, shape=(256, 256))
    assert len(found) == 2
    # Below and to the side at once: 2.1 cells each way (2.97 apart, under 3), a third of
    # its box within the first: another die too.
    out = heat_map([(10, 10, 0.9), (12, 12, 0.8)])
    out[3:5, 12, 12] = 0.1
    assert len(decode(out, 0.35, scale=1.0, shape=(256, 256))) == 2


def test_a_crowded_table_keeps_its_cooler_dice_past_sixty_peaks():
    # 50 dice on a 10 x 5 grid, 6 cells apart, each with a second peak two cells from its
    # centre (the same die): 100 peaks, 50 dice. Every die is kept, one box each, the hottest
    # first. (Looking only at the 60 hottest peaks would keep 30 of these 50.)
    dice = [(4 + 6 * r, 4 + 6 * c, 0.9 - 0.01 * (10 * r + c)) for r in range(5) for c in range(10)]
    out = heat_map([*dice, *((y, x + 2, h - 0.001) for y, x, h in dice)])
    found = decode(out, 0.35, scale=1.0, shape=(512, 512))
    assert sorted(centres(found)) == sorted((x, y) for y, x, _ in dice)
    assert [h for _, h in found] == sorted((h for _, h in found), reverse=True)
    # Still at most max_dice dice, the hottest.
    few = decode(out, 0.35, scale=1.0, shape=(512, 512), max_dice=7)
    assert centres(few) == [(x, y) for y, x, _ in dice[:7]]


def test_a_small_peak_inside_a_big_die_is_that_die():
    # A pip of a big die (its box a fifth of the die's, 3 cells from the die's centre, well
    # within its box) is not a die of its own, however hot.
    out = heat_map([(20, 20, 0.9), (20, 23, 0.85)], side_cells=10.0)
    out[1:3, 20, 23] = np.log(2.0)
    found = decode(out, 0.35, scale=1.0, shape=(256, 256))
    assert centres(found) == [(20, 20)]


def test_a_faint_box_is_another_die_when_neither_centre_is_inside_the_other_box():
    die = (100, 100, 160, 160)
    assert not apart((130, 110, 190, 170), die)  # a second peak on the same die, or its side
    assert apart((161, 100, 221, 160), die)  # the die beside it
    assert not apart((150, 100, 170, 120), die)  # small, but its centre is inside the die
    # Dice touching in a heap: the boxes (which take in the side faces) overlap, and the
    # centres are under a whole die apart (0.7 of a side here), yet neither centre is
    # inside the other box: two dice. (Asking a faint die to be a whole die away dropped
    # 16 such dice in 250 epanemu train photos.)
    assert apart((142, 115, 202, 175), die)
    assert apart((100, 142, 160, 202), die)  # straight below, 0.7 of a side
    assert not apart((125, 125, 185, 185), die)  # diagonal, centre (155, 155) inside


def test_the_detector_reads_a_frame_at_its_own_shape_not_a_square():
    # A 640x480 camera frame is read at 512x384: a square would spend a quarter of the
    # detector's time on padding. Each side is rounded up to the coarsest stride.
    frame = np.full((480, 640, 3), 200, np.uint8)
    boxed, scale = letterbox(frame, 512, STRIDE_COARSEST)
    assert boxed.shape == (384, 512, 3) and scale == 0.8
    tall, _ = letterbox(np.zeros((1000, 300, 3), np.uint8), 512, STRIDE_COARSEST)
    assert tall.shape == (512, 160, 3)  # 154 px of picture, then grey to 160
    assert (tall[:, 154:] == 114).all() and (tall[:, :154] == 0).all()
    # Without a stride (training's crops, a fixed-size detector): the square, as before.
    assert letterbox(frame, 512)[0].shape == (512, 512, 3)


def test_the_shipped_reader_gives_its_detector_the_frame_shape():
    reader = DiceReader()
    shapes = []

    class Seen:  # a detector session, noting each input's shape
        def __init__(self, session):
            self.session = session

        def run(self, names, feed):
            shapes.append(feed["image"].shape)
            return self.session.run(names, feed)

    reader._detector = Seen(reader._detector)
    reader._coarse = (Seen(reader._coarse[0]), reader._coarse[1])
    reader.read(np.full((480, 640, 3), 200, np.uint8))
    # The full pass at 384x512, as 2x2 blocks of bytes (the shipped detector takes blocks:
    # models/recipe/quantize.py, takes_blocks); then the coarse one at 128x160, by the
    # card's small float coarse detector.
    assert shapes == [(1, 192, 256, 12), (1, 3, 128, 160)]


def test_dice_are_reported_row_by_row_each_row_left_to_right():
    # Dice 40 px high side by side, their tops at 79 to 81 px: one row. A row by each
    # die's top edge over its height (1 and 2) would list the die on the right first.
    boxes = [(300, 79, 340, 119), (100, 81, 140, 121), (200, 80, 240, 120), (120, 150, 160, 190)]
    dice = [DieReading(b, v, 0.9, str(v)) for b, v in zip(boxes, (3, 1, 2, 4), strict=True)]
    assert [d.value for d in reading_order(dice)] == [1, 2, 3, 4]
