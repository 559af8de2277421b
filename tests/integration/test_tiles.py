"""The dice reader on wide pictures, heaps and crowded tables, with the shipped models: the
tile pass, dice found again at a die's size, clumps that give way to the dice inside them,
and specks of the table that are not dice.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.training import render, scenes
from companion.vision import tiles
from companion.vision.boxes import apart, centre_inside, same_die
from companion.vision.pictures import (
    neutral,
)
from companion.vision.reader import (
    HEAP_CONFIDENCE,
    MAX_DICE,
    DiceReader,
    DieReading,
)
from tests.helpers import read_values

pytestmark = pytest.mark.integration
GOLDEN = Path(__file__).parents[1] / "data" / "dice"


@pytest.mark.parametrize("seed", range(3000, 3006))
def test_small_dice_in_a_big_picture_are_found_tile_by_tile(reader, seed):
    # A wide shot: dice under 2% of a 3200 px picture are under 10 px at the detector's
    # input, where it misses most of them; overlapping tiles see them at full size.
    rng = np.random.default_rng(seed)
    faces = [render.Face("pips", v) for v in (1, 3, 4, 5, 6)]
    img, dice = scenes.scene(rng, 2400, 3200, faces=faces, size_range=(45, 55))
    found = reader.read(img)
    assert read_values(found) == [1, 3, 4, 5, 6]
    for d in found:  # each box on its own rendered die, in the picture's pixels
        cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
        (die,) = [t for t in dice if np.hypot(cx - t.centre[0], cy - t.centre[1]) < t.size / 2]
        assert d.value == die.face.value


def test_a_tile_keeps_only_dice_read_with_confidence(monkeypatch):
    # A tile sees a table's things (a board's harbour tokens) at sizes the whole-picture pass
    # never boxes them at; a box a tile reads only unsure is dropped, as a faint peak's is,
    # rather than ask a player about a die that is not there. The stand-in detector
    # answers every picture up to a tile's size, so the die is taken as found again (that
    # check is tested on its own below).
    reader = DiceReader()
    img = np.full((2400, 3200, 3), 200, np.uint8)
    tile = [((100, 100, 150, 150), 0.9), ((300, 300, 340, 340), 0.9)]  # a die and a thing
    monkeypatch.setattr(
        reader, "detect", lambda pic, *a, **k: tile if max(pic.shape[:2]) <= 1024 else []
    )
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: box[0] != 102)
    monkeypatch.setattr(
        reader,
        "_read_each",
        lambda faces, boxes: [
            DieReading(b, 4, 0.95, "4") if b[2] - b[0] == 50 else DieReading(b, None, 0.5, "unsure")
            for b in boxes
        ],
    )
    found = reader.read(img)
    assert len(found) == 12  # the die in each of the 4 x 3 tiles ...
    assert all(d.value == 4 and d.box[2] - d.box[0] == 50 for d in found)  # ... no thing


def test_a_tile_drops_what_the_detector_does_not_find_again_at_a_dies_size(reader, monkeypatch):
    # The dev photo (CREDITS.md) of a board on a speckled table, as a phone's 2560 px photo
    # of it: a tile reads a few of the table's specks above the board as a 2. Looked at
    # again in a window where a die would be 40 px at the detector's input, they are no
    # die, and the tile pass drops them.
    img = cv2.imread(str(GOLDEN / "epanemu-train_dice_283_jpg.jpg"))
    big = cv2.resize(img, None, fx=4, fy=4, interpolation=cv2.INTER_LINEAR)
    specks = (4 * 456, 4 * 34, 4 * 485, 4 * 63)

    def on_specks(dice):
        return [d for d in dice if centre_inside(d.box, specks)]

    with monkeypatch.context() as m:
        m.setattr(reader, "_found_again", lambda look, box, again=40: True)
        assert [d.value for d in on_specks(reader.read(big))] == [2]  # the tile's "die" ...
    assert on_specks(reader.read(big)) == []  # ... not found again


def test_a_small_unsure_box_of_the_whole_picture_gives_way_when_not_found_again(
    reader, monkeypatch
):
    # A rendered wide shot (3200 px) with things on the card that are not dice: at the
    # whole-picture pass's 512 px a black dot on the card is a few pixels, boxed and read
    # unsure, which would ask a player about a die that is not there. Seen again where a
    # die would be 40 px at the detector's input, it is no die, and it gives way.
    rng = np.random.default_rng(4045)
    count = int(rng.integers(3, 9))
    img, dice = scenes.scene(rng, 2400, 3200, count=count, size_range=(40, 125), mess=8)
    dot = (2117, 1667, 2210, 1756)
    assert not any(centre_inside(d.box, dot) for d in dice)

    def on_dot(found):
        return [d for d in found if centre_inside(d.box, dot)]

    with monkeypatch.context() as m:
        m.setattr(reader, "_found_again", lambda look, box, again=40: True)
        assert [d.value for d in on_dot(reader.read(img))] == [None]  # an unsure "die" ...
    found = reader.read(img)
    assert on_dot(found) == []  # ... not found again
    assert read_values(found) == sorted(int(d.face.label) for d in dice)


def test_a_heap_of_a_hundred_dice_is_read_past_the_sixty_hottest(reader):
    # 98 dice of 22 to 30 px on a 640x480 table. A pass reads its 60 hottest dice as any
    # die, and a heap's further dice where read surely (stopping at 60,
    # a heap lost the rest).
    img, dice = scenes.scene(np.random.default_rng(41), 480, 640, count=100, size_range=(22, 30))
    assert len(dice) > 90
    found = reader.read(img)
    centres = np.array([((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in found])
    apart = np.hypot(*(centres[:, None] - np.array([t.centre for t in dice])).transpose(2, 0, 1))
    assert (apart.min(1) < 8).all()  # every box on a rendered die
    on = apart.argmin(1)
    assert len(set(on)) == len(found) >= 0.9 * len(dice)  # nine in ten dice, one box each
    assert all(d.face == dice[i].face.label for d, i in zip(found, on, strict=True))
    # the dice past the 60 hottest are each read with a face, surely
    hottest = {box for box, _ in reader.detect(neutral(img), reader.faint_threshold)}
    assert len(hottest) == MAX_DICE
    heap = [d for d in found if d.box not in hottest]
    assert len(heap) > 20
    assert all(d.value is not None and d.confidence >= HEAP_CONFIDENCE for d in heap)


def test_a_heap_die_not_read_surely_is_left_out(reader, monkeypatch):
    # Past a pass's 60 hottest dice, a die read unsure, or with a face under HEAP_CONFIDENCE,
    # is dropped, not asked about; the 60 hottest are kept as any die is, unsure or not.
    peaks = [((10 * i, 0, 10 * i + 8, 8), 0.9) for i in range(MAX_DICE + 4)]
    monkeypatch.setattr(
        reader,
        "detect",
        lambda img, threshold=None, size=None, max_dice=60: (
            peaks[:max_dice] if size is None else []
        ),
    )
    heap = [
        DieReading(peaks[60][0], None, 0.9, "unsure"),  # vetoed: unsure at the lower of two
        DieReading(peaks[61][0], 3, HEAP_CONFIDENCE - 0.01, "3"),
        DieReading(peaks[62][0], 4, HEAP_CONFIDENCE, "4"),
        None,  # not a die
    ]
    first = [DieReading(b, None, 0.5, "unsure") for b, _ in peaks[:MAX_DICE]]
    runs = []

    def read_each(faces, boxes):
        runs.append(len(boxes))
        return first if len(boxes) == MAX_DICE else heap

    monkeypatch.setattr(reader, "_read_each", read_each)
    found = reader.read(np.full((8, 700, 3), 128, np.uint8))
    assert runs == [MAX_DICE, 4]  # the 60 hottest in a run of their own, then the heap's
    assert sorted(d.box for d in found) == sorted([d.box for d in first] + [peaks[62][0]])


def heap_in_a_corner(seed: int, shape: tuple[int, int], side: int, count: int, sizes):
    """A rendered table of ``shape`` with a heap of up to ``count`` dice of ``sizes`` px
    packed in its top-left ``side`` px, and the heap's dice."""
    rng = np.random.default_rng(seed)
    img, _ = scenes.scene(rng, *shape, count=0)
    patch, dice = scenes.scene(rng, side, side, count=count, size_range=sizes)
    img[:side, :side] = patch
    return img, dice


def nearest_die(found, dice) -> list[int]:
    """For each reading in ``found``, the rendered die in ``dice`` nearest its box's centre."""
    centres = np.array([d.centre for d in dice])
    boxed = [((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in found]
    return [int(np.argmin(np.hypot(*(centres - c).T))) for c in boxed]


def test_a_dense_heap_in_a_phone_size_picture_is_read_past_sixty_dice_a_tile(reader):
    # About a hundred dice of 40 to 55 px packed in the top-left 1024 px of a 4000x3000
    # picture: too small for the whole-picture pass (5 to 7 px at its input), so the tile
    # pass reads them, and the tile over the heap holds more than a pass's usual 60. A tile
    # keeps up to HEAP_DICE (with 60, it lost the rest: 73 read).
    img, dice = heap_in_a_corner(53, (3000, 4000), 1024, 220, (40, 55))
    assert len(dice) > 90
    found = reader.read(img)
    on = nearest_die(found, dice)
    assert all(centre_inside(d.box, dice[i].box) for d, i in zip(found, on, strict=True))
    assert len(set(on)) == len(found) >= 0.9 * len(dice)  # nine in ten dice, one box each
    wrong = sum(d.face != dice[i].face.label for d, i in zip(found, on, strict=True))
    assert wrong <= 0.02 * len(found)


def test_a_clump_of_small_dice_boxed_as_one_gives_way_to_its_dice(reader):
    # 162 dice of 22 to 30 px (1 to 1.5% of the picture's side) packed in a 700 px square of
    # a 2048x1536 picture. At a few pixels the whole-picture pass boxes clumps of them as one
    # die each, read with a face or unsure; the tile pass's dice inside such a box, two or
    # more covering CLUMP_COVER of it, take its place (with each clump's
    # dice left alone: 19 boxes over two dice or more, 54 dice read right).
    img, dice = heap_in_a_corner(61, (1536, 2048), 700, 200, (22, 30))
    assert len(dice) > 150
    found = reader.read(img)
    points = [(x, y, x, y) for x, y in (d.centre for d in dice)]
    clumps = [d for d in found if sum(centre_inside(p, d.box) for p in points) >= 2]
    assert len(clumps) <= 10
    on = nearest_die(found, dice)
    right = sum(d.face == dice[i].face.label for d, i in zip(found, on, strict=True))
    assert right >= 0.6 * len(dice)


@pytest.mark.parametrize(
    ("inside", "gives_way"),
    [
        ([(0, 0, 40, 40), (100, 100, 140, 140)], False),  # cover 3,200 of 40,000: specks
        ([(0, 0, 80, 80), (100, 100, 180, 180)], True),  # 12,800: a clump of two dice
        ([(0, 0, 80, 80)], False),  # one die inside: a die's face, not a clump
        ([(0, 0, 100, 100), (90, 90, 108, 108)], False),  # a peak on the edge of another
        ([(0, 0, 80, 80), (101, 101, 181, 181)], False),  # the second read unsure
        ([(0, 0, 80, 80), (102, 102, 182, 182)], False),  # the second not found again
    ],
)
def test_a_die_gives_way_to_the_dice_in_it_only_where_they_cover_it(
    reader, monkeypatch, inside, gives_way
):
    # A 200 px die gives way to two or more tile dice inside it, apart, read with a face and
    # found again, covering CLUMP_COVER (0.15) of it; what covers less (an enlarged photo's
    # specks read as dice on a big die) leaves it as it is.
    big = DieReading((0, 0, 200, 200), 3, 0.9, "3")

    def read_each(img, boxes):
        return [
            DieReading(b, None, 0.4, "unsure") if b[0] == 101 else DieReading(b, 2, 0.9, "2")
            for b in boxes
        ]

    monkeypatch.setattr(reader, "_read_each", read_each)
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: box[0] != 102)
    found = [(box, 0.5 + 0.01 * i) for i, box in enumerate(inside)]
    got = reader._clumps_give_way(None, None, [(big, 0.8)], found)
    boxes = sorted(d.box for d, _ in got)
    assert boxes == (sorted(inside) if gives_way else [big.box])
    assert all(heat == 0.8 for _, heat in got)


def test_peaks_that_cover_little_of_a_die_are_never_read(reader, monkeypatch):
    # A huge die's pips are tile peaks inside its box: their own boxes cover less than
    # CLUMP_COVER of it, so they are not read at all, which keeps a big die's picture as
    # quick as before.
    big = DieReading((0, 0, 400, 400), 5, 0.9, "5")
    pips = [((x, y, x + 60, y + 60), 0.6) for x, y in ((40, 40), (300, 40), (170, 170))]
    asked = []
    monkeypatch.setattr(
        reader, "_read_each", lambda img, boxes: asked.append(boxes) or [None] * len(boxes)
    )
    got = reader._clumps_give_way(None, None, [(big, 0.8)], pips)
    assert got == [(big, 0.8)] and asked == []
    bigger = [((x, y, x + 95, y + 95), h) for (x, y, _, _), h in pips]  # cover 0.17
    reader._clumps_give_way(None, None, [(big, 0.8)], bigger)
    assert len(asked) == 1 and len(asked[0]) == 3


@pytest.mark.parametrize("clump_gives_way", [True, False])
def test_peaks_a_clump_kept_out_are_read_when_it_gives_way(reader, monkeypatch, clump_gives_way):
    # A clump of small dice boxed as one 200 px die keeps out, by same_die, a tile peak just
    # past its edge (a die beside the clump): its centre is outside the box but within
    # SAME_DIE of the box's side. Once the clump gives way to its dice, the peaks it
    # kept out are read like any other; a die that stays keeps them out.
    # The die that stays holds one tile die under ONE_SIDE times smaller than itself: one
    # more than that smaller, with the peak beside it, would make it give way. The
    # peak beside is 60 px, over SPECK times the clump's side: a smaller one is a speck.
    clump = DieReading((0, 0, 200, 120), 3, 0.9, "3")
    if clump_gives_way:
        inside = [((10, 10, 90, 90), 0.9, True), ((110, 30, 190, 110), 0.85, True)]
    else:
        inside = [((10, 10, 140, 110), 0.9, True)]
    beside = ((182, 30, 242, 90), 0.7, True)
    assert not centre_inside(beside[0], clump.box) and same_die(beside[0], clump.box)
    monkeypatch.setattr(reader, "_tile_peaks", lambda look: [*inside, beside])
    monkeypatch.setattr(
        reader, "_read_each", lambda img, boxes: [DieReading(b, 2, 0.9, "2") for b in boxes]
    )
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: True)
    look = np.zeros((1500, 2000, 3), np.uint8)
    got = reader._small_dice(None, look, [(clump, 0.8)])
    boxes = sorted(d.box for d, _ in got)
    if clump_gives_way:
        assert boxes == sorted([inside[0][0], inside[1][0], beside[0]])
    else:
        assert boxes == [clump.box]


def test_clumps_one_inside_another_both_give_way(reader, monkeypatch):
    # Two whole-picture boxes over one patch of a heap, one inside the other (design heap
    # 120191: 402 and 306 px, each read as a 4). Each held the other's peaks, and a peak
    # another die holds is never read for a clump, so neither gave way. Now the smaller
    # gives way first, the larger, holding its centre, keeping none of its peaks out; then
    # the larger gives way to the dice already read inside it.
    outer = DieReading((0, 0, 400, 400), 4, 0.82, "4")
    inner = DieReading((40, 40, 340, 340), 4, 0.81, "4")
    peaks = [
        ((x, y, x + 70, y + 70), 0.9 - 0.01 * i)
        for i, (x, y) in enumerate(
            [(60, 60), (160, 60), (250, 60), (60, 160), (160, 160), (250, 160), (60, 250)]
        )
    ]
    assert all(centre_inside(box, inner.box) for box, _ in peaks)
    monkeypatch.setattr(
        reader, "_read_each", lambda img, boxes: [DieReading(b, 2, 0.9, "2") for b in boxes]
    )
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: True)
    for order in ([(outer, 0.5), (inner, 0.45)], [(inner, 0.45), (outer, 0.5)]):
        got = reader._clumps_give_way(None, None, order, peaks)
        assert sorted(d.box for d, _ in got) == sorted(box for box, _ in peaks)


def test_a_clump_kept_back_by_one_that_gave_way_is_tried_again(reader, monkeypatch):
    # Two whole-picture boxes over one heap that overlap, neither holding the other's
    # centre. The smaller, tried first, keeps one peak: the larger holds the centres of its
    # others. The larger then gives way to its own dice. Its dice are not where the
    # smaller's held peaks are, so a second pass lets the smaller give way too; one pass
    # left it standing over four dice.
    small = DieReading((300, 0, 600, 300), 4, 0.8, "4")
    large = DieReading((0, 0, 400, 400), 5, 0.8, "5")
    assert not centre_inside(small.box, large.box) and not centre_inside(large.box, small.box)
    centres = [(60, 60), (160, 60), (60, 160), (160, 160), (60, 260), (160, 260)]  # large's
    centres += [(350, 40), (350, 140), (350, 240), (500, 150)]  # small's
    peaks = [((x - 35, y - 35, x + 35, y + 35), 0.9 - 0.01 * i) for i, (x, y) in enumerate(centres)]
    monkeypatch.setattr(
        reader, "_read_each", lambda img, boxes: [DieReading(b, 2, 0.9, "2") for b in boxes]
    )
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: True)
    got = reader._clumps_give_way(None, None, [(large, 0.5), (small, 0.45)], peaks)
    assert sorted(d.box for d, _ in got) == sorted(box for box, _ in peaks)
    # a pass that lets nothing give way ends the passes: the dice are handed back as they are
    alone = [(DieReading((0, 0, 100, 100), 3, 0.9, "3"), 0.5)]
    assert reader._clumps_give_way(None, None, alone, peaks) == alone


def test_a_die_boxed_with_part_of_its_neighbour_gives_way_to_the_one_inside(reader, monkeypatch):
    # A whole-picture box over a die and part of its neighbour (design heap 120320: 130 to
    # 185 px over dice of about 60). With one tile die inside it never gave way as a clump,
    # and its size kept the neighbour's peak out by same_die. Now a die over ONE_SIDE times
    # the one tile die read inside it gives way to it where a tile peak lies beside it, and
    # the neighbour is read after, as a peak that a die which gave way kept out.
    big = DieReading((0, 0, 150, 150), 6, 0.79, "6")
    one = ((45, 45, 105, 105), 0.9)
    neighbour = ((45, 130, 105, 190), 0.8)
    assert same_die(neighbour[0], big.box) and not centre_inside(neighbour[0], big.box)
    monkeypatch.setattr(
        reader, "_read_each", lambda img, boxes: [DieReading(b, 5, 0.9, "5") for b in boxes]
    )
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: True)
    found = [one, neighbour]
    got = reader._clumps_give_way(None, None, [(big, 0.5)], found)
    assert [d.box for d, _ in got] == [one[0]] and got[0][1] == 0.5
    freed = reader._freed(None, None, [(big, 0.5)], got, found, [])
    assert [d.box for d, _ in freed] == [neighbour[0]]
    stays = [(big, 0.5)]
    # with no peak beside it, the one die inside is a big die's face seen by a tile (the
    # clump test): it stays; so it does where the peak is beyond same_die of it
    assert reader._clumps_give_way(None, None, stays, [one]) == stays
    far = ((45, 170, 105, 230), 0.8)
    assert not same_die(far[0], big.box)
    assert reader._clumps_give_way(None, None, stays, [one, far]) == stays
    # a peak inside it, too big to be taken, is not beside it
    big_peak = ((30, 80, 150, 200), 0.8)
    assert centre_inside(big_peak[0], big.box) and apart(big_peak[0], one[0])
    assert reader._clumps_give_way(None, None, stays, [one, big_peak]) == stays
    # a peak beside it that holds the one inside's centre is not another die
    over = ((45, 45, 105, 265), 0.8)
    assert same_die(over[0], big.box) and not centre_inside(over[0], big.box)
    assert reader._clumps_give_way(None, None, stays, [one, over]) == stays
    # under ONE_SIDE times the tile die, the box is that die's own: it stays
    snug = [(DieReading((30, 30, 120, 120), 5, 0.9, "5"), 0.5)]
    close = ((45, 95, 105, 155), 0.8)
    assert same_die(close[0], snug[0][0].box) and not centre_inside(close[0], snug[0][0].box)
    assert reader._clumps_give_way(None, None, snug, [one, close]) == snug
    # a die of the result already inside, with no tile die read, is a neighbour whose box
    # reaches in (a matteop65 train photo at 6x): the box stays over its own die
    inner = DieReading((45, 45, 105, 105), 2, 0.9, "2")
    dice = [(big, 0.5), (inner, 0.4)]
    assert reader._clumps_give_way(None, None, dice, [neighbour]) == dice


def read_six_times(reader, name: str) -> list:
    """The golden photo ``name`` read at 6 times its size, as ``bench vision --enlarge 6``
    enlarges it."""
    img = cv2.imread(str(GOLDEN / name))
    return reader.read(cv2.resize(img, None, fx=6, fy=6, interpolation=cv2.INTER_LINEAR))


def test_a_tile_takes_no_speck_of_the_table_far_under_the_smallest_die_read(reader):
    # A train photo (CREDITS.md) of one die on a speckled cloth, as a phone would take it
    # at 6 times the size: the whole-picture pass reads the die (a 3, about 800 px), and
    # the tile pass read specks of the cloth about 40 px across as 2s beside it. Dice at
    # one table are about one size: a tile peak under SPECK times the smallest die the
    # whole-picture pass read with a face is not taken.
    (die,) = read_six_times(reader, "epanemu-train_dice_101_jpg.jpg")
    assert die.value == 3 and centre_inside(die.box, (6 * 235, 6 * 272, 6 * 374, 6 * 369))


def test_the_speck_bound_is_the_smallest_die_read_with_a_face(reader, monkeypatch):
    # The bound is SPECK times the smallest side of the whole-picture dice read with a face:
    # a die read unsure does not set it, and with no die read with a face none is asked.
    peaks = [((x, 1000, x + s, 1000 + s), 0.9, True) for x, s in ((100, 60), (400, 120))]
    monkeypatch.setattr(reader, "_tile_peaks", lambda look: peaks)
    monkeypatch.setattr(
        reader, "_read_each", lambda img, boxes: [DieReading(b, 2, 0.9, "2") for b in boxes]
    )
    monkeypatch.setattr(reader, "_found_again", lambda look, box, again=40: True)
    look = np.zeros((1500, 2000, 3), np.uint8)
    big = (DieReading((1000, 100, 1300, 400), 5, 0.9, "5"), 0.8)  # 300 px: bound 75
    small = (DieReading((1500, 100, 1700, 300), 4, 0.9, "4"), 0.8)  # 200 px: bound 50
    unsure = (DieReading((1500, 100, 1560, 160), None, 0.4, "unsure"), 0.8)

    def tile_sides(dice):
        got = reader._small_dice(None, look, dice)
        return sorted(d.box[2] - d.box[0] for d, _ in got if all(d is not w for w, _ in dice))

    assert tile_sides([big]) == [120]
    assert tile_sides([big, unsure]) == [120]
    assert tile_sides([big, small]) == [60, 120]
    assert tile_sides([unsure]) == [60, 120]
    assert tile_sides([]) == [60, 120]


def test_a_faint_tile_die_not_found_again_close_up_is_a_speck_of_the_table(reader):
    # A train photo (CREDITS.md) of one die, a 2, on a speckled cloth, at 6 times its size:
    # the tile pass read three specks of the cloth, each at least SPECK times the die's
    # side, as faint dice it read less than surely, found again at a die's usual size. Seen
    # close up, at CLOSE px, the detector finds none of them again.
    (die,) = read_six_times(reader, "epanemu-train_dice_117_jpg.jpg")
    assert die.value == 2 and centre_inside(die.box, (6 * 266, 6 * 168, 6 * 302, 6 * 194))


def test_a_faint_unsure_tile_die_stands_only_where_found_again_close_up(reader, monkeypatch):
    # A tile die under STRONG heat and SURE confidence stands only where the detector finds
    # it again at CLOSE px as well as at AGAIN px; a strong peak or a sure face stands on
    # AGAIN alone.
    close = {"found": False}
    monkeypatch.setattr(
        reader,
        "_found_again",
        lambda look, box, again=tiles.AGAIN: again == tiles.AGAIN or close["found"],
    )

    def kept(heat, confidence):
        box = (100, 100, 160, 160)
        monkeypatch.setattr(
            reader, "_read_each", lambda img, boxes: [DieReading(box, 2, confidence, "2")]
        )
        return len(reader._read_kept(None, None, [(box, heat)])) == 1

    faint, unsure = tiles.STRONG - 0.01, tiles.SURE - 0.01
    assert not kept(faint, unsure)
    assert kept(tiles.STRONG, unsure)
    assert kept(faint, tiles.SURE)
    close["found"] = True
    assert kept(faint, unsure)
