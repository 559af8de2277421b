"""Settling against replayed sequences: a hand, tumbling dice, rest, a second roll."""

import tracemalloc

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
