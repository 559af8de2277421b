"""The detector's heat map to boxes, in the original picture's pixels: one box a die."""

from __future__ import annotations

import numpy as np

from companion.vision.reader import STRIDE, _apart, decode

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


def test_a_faint_box_must_lie_a_whole_die_from_a_stronger_one():
    die = (100, 100, 160, 160)
    assert not _apart((130, 110, 190, 170), die)  # a second peak on the same die, or its side
    assert _apart((161, 100, 221, 160), die)  # the die beside it
    assert not _apart((150, 100, 170, 120), die)  # small, but its centre is inside the die
