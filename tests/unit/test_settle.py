"""Settling against replayed sequences: a hand, tumbling dice, rest, a second roll."""

import tracemalloc

from companion.vision.boxes import in_rows
from companion.vision.settle import Frame, Reading, Settler

SPOTS = [(100, 100), (200, 100), (300, 100), (100, 200), (200, 200)]


def dice(values, spots=SPOTS, confidence=0.97, jitter=0):
    return tuple(
        Reading((x + jitter, y, x + 40 + jitter, y + 40), v, confidence)
        for v, (x, y) in zip(values, spots, strict=False)
    )


def run(settler, frames):
    return [e for f in frames if (e := settler.feed(f)) is not None]


HAND = Frame((), motion=0.4)  # a hand over the table: much of the picture changes


def tumbling(n):
    # Dice still rolling: small motion, but every frame they are somewhere else.
    return [
        Frame(dice([1, 2, 3, 4, 5], spots=[(x + 30 * i, y) for x, y in SPOTS]), motion=0.005)
        for i in range(n)
    ]


def test_one_report_per_roll_after_the_dice_rest():
    s = Settler(expected=5, still_frames=5)
    rest = [Frame(dice([3, 5, 5, 1, 6], jitter=i % 2)) for i in range(12)]
    events = run(s, [HAND, HAND, *tumbling(4), *rest])
    assert len(events) == 1
    assert (events[0].kind, events[0].values) == ("roll", (3, 5, 5, 1, 6))
    assert events[0].confidence > 0.9


def test_nothing_is_reported_while_a_hand_is_in_the_frame_or_dice_tumble():
    s = Settler(expected=5)
    assert run(s, [HAND, *tumbling(10), HAND, HAND]) == []


def test_a_hand_passing_over_resting_dice_is_not_a_new_roll():
    s = Settler(expected=5, still_frames=3)
    rest = [Frame(dice([2, 2, 4, 6, 1])) for _ in range(5)]
    assert len(run(s, rest)) == 1
    assert run(s, [HAND, HAND, *rest]) == []


def test_dice_left_at_rest_all_evening_hold_no_more_memory():
    # An hour at 10 frames a second of dice left on the table, each frame read afresh.
    s = Settler(expected=5, still_frames=5)
    assert len(run(s, [Frame(dice([3, 5, 5, 1, 6])) for _ in range(10)])) == 1
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(36_000):
            s.feed(Frame(dice([3, 5, 5, 1, 6], jitter=i % 2)))
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1_000_000  # bytes; keeping every frame grew it by about 39 MB
    moved = [(x + 60, y + 90) for x, y in SPOTS]
    events = run(s, [HAND, *(Frame(dice([6, 6, 6, 1, 3], spots=moved)) for _ in range(5))])
    assert [e.values for e in events] == [(6, 6, 6, 1, 3)]


def test_dice_that_move_again_make_a_new_roll():
    s = Settler(expected=5, still_frames=3)
    first = [Frame(dice([2, 2, 4, 6, 1])) for _ in range(4)]
    moved = [(x + 60, y + 90) for x, y in SPOTS]
    second = [Frame(dice([6, 6, 6, 1, 3], spots=moved)) for _ in range(4)]
    events = run(s, [*first, HAND, *tumbling(3), *second])
    assert [e.values for e in events] == [(2, 2, 4, 6, 1), (6, 6, 6, 1, 3)]


def test_the_value_is_the_majority_over_the_rest_frames():
    s = Settler(expected=5, still_frames=5, min_confidence=0.5)
    frames = [Frame(dice([1, 2, 3, 4, 5])) for _ in range(4)]
    frames.insert(2, Frame(dice([1, 2, 3, 4, 6])))  # one misread frame
    events = run(s, frames)
    assert events[0].values == (1, 2, 3, 4, 5)


def test_a_wrong_count_is_said_not_reported_as_a_roll():
    s = Settler(expected=5, still_frames=3)
    events = run(s, [Frame(dice([1, 2, 3, 4])) for _ in range(3)])
    assert (events[0].kind, events[0].message) == ("wrong_count", "4 of 5 dice seen")


def test_an_unreadable_or_doubtful_die_is_unsure_never_guessed():
    s = Settler(expected=5, still_frames=4)
    unsure = [
        Frame((*dice([1, 2, 3, 4, 5])[:4], Reading((200, 200, 240, 240), 5, 0.4))) for _ in range(4)
    ]
    e = run(s, unsure)[0]
    assert e.kind == "unsure" and e.values == (1, 2, 3, 4, None)
    assert "die 5 could not be read" in e.message
    s2 = Settler(expected=5, still_frames=4)
    e2 = run(s2, [Frame(dice([1, 2, 3, 4, None])) for _ in range(4)])[0]
    assert e2.kind == "unsure" and e2.values[4] is None


def test_values_come_in_reading_order():
    s = Settler(still_frames=2)
    shuffled = tuple(reversed(dice([1, 2, 3, 4, 5])))
    assert run(s, [Frame(shuffled)] * 2)[0].values == (1, 2, 3, 4, 5)


def test_dice_side_by_side_are_one_row_however_little_one_stands_higher():
    # "die 2 could not be read" must point at the second die from the left. Dice 40 px
    # high, their centres at 79 to 81 px: a row by each die's centre over its size (1 and
    # 2) would read the die on the right first.
    row = [(300, 59, 340, 99), (100, 61, 140, 101), (200, 60, 240, 100)]
    below = [(150, 140, 190, 180), (50, 150, 90, 190)]  # a second row
    assert in_rows([*row, *below]) == [1, 2, 0, 4, 3]
    s = Settler(expected=3, still_frames=2)
    read = tuple(Reading(box, v, 0.97) for box, v in zip(row, (3, 1, 2), strict=True))
    assert run(s, [Frame(read)] * 2)[0].values == (1, 2, 3)
    # A die whose centre lies within the highest die's height joins its row; one under its
    # bottom edge begins the next, wherever the picture's pixel rows fall.
    assert in_rows([(200, 0, 240, 40), (100, 18, 140, 58), (0, 21, 40, 61)]) == [1, 0, 2]
    assert in_rows([]) == []


# A doubtful box: the reader finds something at (400, 100) in some frames only (a die at
# the edge of its confidence, a token the detector half believes in).
DOUBT = Reading((400, 100, 440, 140), 2, 0.75)


def flickering(values, pattern, spots=SPOTS):
    """Still frames of ``values`` at rest, with the doubtful box in the frames marked 1."""
    return [Frame(dice(values, spots) + ((DOUBT,) if on else ())) for on in pattern]


def test_a_box_found_in_some_frames_only_neither_hides_the_roll_nor_joins_it():
    # Beginning the rest again at each frame that found or lost the doubtful box left one
    # live rest in nine giving no roll at all.
    s = Settler(expected=5, still_frames=5)
    events = run(s, [HAND, *flickering([3, 5, 5, 1, 6], [0, 1, 0, 0, 1, 0, 1, 0, 0, 1])])
    assert [(e.kind, e.values) for e in events] == [("roll", (3, 5, 5, 1, 6))]


def test_a_die_found_in_most_frames_only_is_a_die_left_unsure():
    s = Settler(expected=6, still_frames=5)
    events = run(s, [HAND, *flickering([3, 5, 5, 1, 6], [1, 0, 1, 1, 0])])
    assert [(e.kind, e.values) for e in events] == [("unsure", (3, 5, 5, None, 1, 6))]
    assert events[0].boxes[3] == DOUBT.box


def test_the_doubtful_box_coming_and_going_after_the_roll_is_not_a_second_roll():
    s = Settler(expected=5, still_frames=5)
    first = run(s, [HAND, *flickering([3, 5, 5, 1, 6], [0] * 6)])
    assert [e.values for e in first] == [(3, 5, 5, 1, 6)]
    # it turns up only now, where no die was: the rest begins again, and is the same dice
    assert run(s, flickering([3, 5, 5, 1, 6], [1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0])) == []


def test_dice_that_appear_after_an_empty_rest_are_a_roll():
    # The empty table at rest is reported ("0 of 3 dice seen"); dice that then lie where
    # none was are a new roll, not a hand passing over.
    s = Settler(expected=3, still_frames=3)
    events = run(s, [Frame(()) for _ in range(4)])
    events += run(s, [HAND, *(Frame(dice([4, 1, 2])) for _ in range(4))])
    assert [(e.kind, e.values) for e in events] == [("wrong_count", ()), ("roll", (4, 1, 2))]


def test_a_die_that_comes_after_the_roll_was_read_makes_a_new_roll():
    s = Settler(expected=3, still_frames=3)
    events = run(s, [Frame(dice([4, 1])) for _ in range(4)])
    # the third die is nudged into view with too little motion to count as a hand
    events += run(s, [Frame(dice([4, 1, 6])) for _ in range(4)])
    assert [(e.kind, e.values) for e in events] == [
        ("wrong_count", (4, 1)),
        ("roll", (4, 1, 6)),
    ]


def test_dice_taken_away_are_not_a_roll():
    s = Settler(expected=5, still_frames=3)
    assert len(run(s, [Frame(dice([2, 2, 4, 6, 1])) for _ in range(4)])) == 1
    # two dice picked up to be set aside, three left where they lay, then the tray emptied
    assert run(s, [HAND, *(Frame(dice([2, 2, 4])) for _ in range(4))]) == []
    assert run(s, [HAND, *(Frame(()) for _ in range(4))]) == []


def test_dice_rolled_onto_the_places_of_dice_taken_away_are_a_new_roll():
    # In a small tray a die often lands where one lay before: once the tray was seen
    # empty, what lies there now is a new roll.
    s = Settler(expected=5, still_frames=3)
    run(s, [Frame(dice([2, 2, 4, 6, 1])) for _ in range(4)])
    run(s, [HAND, *(Frame(()) for _ in range(4))])
    events = run(s, [HAND, *(Frame(dice([5, 5, 3, 3, 1], jitter=3)) for _ in range(4))])
    assert [(e.kind, e.values) for e in events] == [("roll", (5, 5, 3, 3, 1))]


def test_a_doubtful_box_found_in_most_frames_after_the_roll_is_not_a_second_roll():
    # Unseen while the roll was read, it turns up later in three frames of five: a die
    # that lies there is found in every frame, so this is not a new roll.
    s = Settler(expected=5, still_frames=5)
    assert len(run(s, [HAND, *flickering([3, 5, 5, 1, 6], [0] * 6)])) == 1
    assert run(s, flickering([3, 5, 5, 1, 6], [1, 1, 0, 1, 0, 0, 0, 0])) == []


def test_a_die_boxed_another_way_after_the_roll_is_the_same_die():
    # The reader frames the die at (200, 200) wider after the roll was read (its side face
    # joins the box): the centre moves by more than a quarter of the die, but the new box
    # still holds the old one's centre, and dice cannot overlap.
    s = Settler(expected=5, still_frames=5)
    assert len(run(s, [HAND, *(Frame(dice([3, 5, 5, 1, 6])) for _ in range(6))])) == 1
    wider = Reading((200, 200, 262, 262), 6, 0.97)
    reframed = Frame((*dice([3, 5, 5, 1, 6])[:4], wider))
    assert run(s, [reframed] * 8) == []
    # a die that truly lies somewhere new is still a new roll
    moved = Frame((*dice([3, 5, 5, 1, 6])[:4], Reading((300, 300, 340, 340), 2, 0.97)))
    assert [e.values for e in run(s, [HAND, *[moved] * 6])] == [(3, 5, 5, 1, 2)]


# A die the reader finds in only some of the first frames (turning up as the camera's
# noise settles), then in every frame, read with confidence.
LATE = Reading((400, 100, 440, 140), 2, 0.95)


def with_late(values, pattern, spots=SPOTS):
    return [Frame(dice(values, spots) + ((LATE,) if on else ())) for on in pattern]


def test_a_roll_left_unsure_is_read_again_once_its_dice_are_steady():
    # A flickering die would make the roll wait for a person although the next frames
    # show it plainly.
    s = Settler(expected=6, still_frames=5)
    events = run(s, [HAND, *with_late([3, 5, 5, 1, 6], [1, 0, 1, 1, 0] + [1] * 5)])
    assert [(e.kind, e.values, e.revises) for e in events] == [
        ("unsure", (3, 5, 5, None, 1, 6), False),
        ("roll", (3, 5, 5, 2, 1, 6), True),
    ]
    assert events[1].boxes[3] == LATE.box
    assert run(s, with_late([3, 5, 5, 1, 6], [1] * 20)) == []  # read once, then left alone
    assert s.done


def test_a_wrong_count_is_read_again_but_only_a_whole_roll_replaces_it():
    s = Settler(expected=6, still_frames=5)
    events = run(s, [HAND, *with_late([3, 5, 5, 1, 6], [0, 1, 0, 0, 1, 0, 1, 1, 0, 0])])
    assert [(e.kind, e.revises) for e in events] == [("wrong_count", False)]
    assert not s.done  # two windows are still to be read
    events = run(s, with_late([3, 5, 5, 1, 6], [1] * 5))
    assert [(e.kind, e.values, e.revises) for e in events] == [("roll", (3, 5, 5, 2, 1, 6), True)]


def test_a_second_look_that_contradicts_a_trusted_die_is_not_given():
    s = Settler(expected=5, still_frames=5)
    doubtful = Reading((200, 200, 240, 240), 5, 0.4)
    first = [Frame((*dice([3, 5, 5, 1]), doubtful)) for _ in range(5)]
    assert [e.kind for e in run(s, [HAND, *first])] == ["unsure"]
    # the die at (100, 100), trusted as a 3, now reads 4; the doubtful die reads plainly
    assert run(s, [Frame(dice([4, 5, 5, 1, 5])) for _ in range(15)]) == []
    assert s.done  # three windows read, none given: the roll waits for a person


def test_the_unsure_dice_read_whole_after_a_hand_passes_over_them():
    # A player nudges a cocked die flat without moving it from its place.
    s = Settler(expected=5, still_frames=5)
    cocked = Reading((200, 200, 240, 240), None, 0.6)
    assert [e.kind for e in run(s, [Frame((*dice([3, 5, 5, 1]), cocked)) for _ in range(5)])] == [
        "unsure"
    ]
    events = run(s, [HAND, HAND, *(Frame(dice([3, 5, 5, 1, 4])) for _ in range(5))])
    assert [(e.kind, e.values, e.revises) for e in events] == [("roll", (3, 5, 5, 1, 4), True)]


def test_a_sure_roll_is_not_read_again():
    s = Settler(expected=5, still_frames=5)
    assert len(run(s, [Frame(dice([3, 5, 5, 1, 6])) for _ in range(5)])) == 1
    assert s.done  # the watcher reuses its last reading of an unchanged picture
    assert run(s, [Frame(dice([3, 5, 5, 1, 6], jitter=i % 2)) for i in range(15)]) == []


def test_without_an_expected_count_a_second_look_needs_the_waiting_rolls_dice():
    s = Settler(still_frames=3)  # any count (no game says how many dice)
    assert [e.kind for e in run(s, [Frame(dice([3, 5, None])) for _ in range(3)])] == ["unsure"]
    assert run(s, [HAND, *(Frame(()) for _ in range(12))]) == []  # the tray emptied
    events = run(s, [HAND, *(Frame(dice([3, 5, 2])) for _ in range(3))])
    assert [(e.values, e.revises) for e in events] == [((3, 5, 2), False)]  # a new roll


def test_a_settler_reading_single_frames_reads_each_window_on_its_own():
    s = Settler(expected=2, still_frames=1, revisions=3)
    assert [e.kind for e in run(s, [Frame(dice([4, None]))])] == ["unsure"]
    doubtful = Frame(dice([4, 6], confidence=0.5))
    assert run(s, [doubtful, doubtful]) == []  # neither doubtful frame alone is sure enough
    events = run(s, [Frame(dice([4, 6]))])
    assert [(e.kind, e.values, e.revises) for e in events] == [("roll", (4, 6), True)]
    assert events[0].confidence <= 1
