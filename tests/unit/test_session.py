"""The engine's session: the append-only log, validation, undo/redo, stale actions."""

import pytest

from companion.engine.session import Session, effective_actions
from companion.errors import IllegalAction, NothingToUndo, StaleAction, UnknownGame
from companion.games.first_island.state import Advance, Mark
from tests.helpers import roll


def test_actions_are_appended_and_the_state_follows(session):
    session.act(roll(1, 2, 3, 3, 5))
    session.act(Mark(0, (0, 0), (1, 2), 0))
    assert session.seq == 2
    assert [e.kind for e in session.entries] == ["action", "action"]
    assert session.entries[0].payload == {
        "type": "dice_rolled",
        "values": [1, 2, 3, 3, 5],
        "source": "test",
        "confidence": 1.0,
        "seat": None,
    }
    assert session.entries[1].seat == 0
    assert (0, 0) in session.state.boards[0].cells


def test_actions_may_arrive_as_json(session):
    session.act(
        {"type": "dice_rolled", "values": [1, 2, 3, 3, 5], "source": "camera", "confidence": 0.97}
    )
    session.act({"type": "mark", "seat": 1, "hex": [0, 0], "picks": [1, "builders"], "axis": 2})
    assert session.state.boards[1].cells[(0, 0)].tribes == ("scavengers", "builders")


@pytest.mark.parametrize(
    "payload, text",
    [
        ({"type": "fly", "seat": 0}, "no action 'fly'"),
        ({"seat": 0}, "needs a 'type'"),
        (
            {"type": "mark", "seat": 0, "hex": [0, 0], "picks": [1, 2], "axis": 0, "colour": 1},
            "no field(s) colour",
        ),
        ({"type": "mark", "seat": 0}, "malformed"),
        ({"type": "dice_rolled", "values": "12345"}, "list of whole numbers"),
        ({"type": "dice_rolled", "values": [1, 2, 3, 4, 5], "confidence": 2}, "between 0 and 1"),
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(session, payload, text):
    session.act(roll(1, 2, 3, 3, 5))
    before = (session.seq, session.state)
    with pytest.raises(IllegalAction, match=text.replace("(", r"\(").replace(")", r"\)")):
        session.act(payload)
    assert (session.seq, session.state) == before
    assert len(session.store.entries(session.game_id)) == 1


def test_a_rejected_action_leaves_the_log_unchanged(session):
    session.act(roll(1, 2, 3, 3, 5))
    session.act(Mark(0, (2, -1), (1, 2), 0))
    with pytest.raises(IllegalAction, match=r"hex \(2,-1\) is already marked"):
        session.act(Mark(0, (2, -1), (3, 4), 0))
    assert session.seq == 2
    assert len(session.store.entries(session.game_id)) == 2


def test_undo_takes_back_the_last_action_and_redo_restores_it(session):
    session.act(roll(1, 2, 3, 3, 5))
    before = session.state
    session.act(Mark(0, (0, 0), (1, 2), 0))
    after = session.state
    session.undo()
    assert session.state == before
    assert [e.kind for e in session.entries] == ["action", "action", "undo"]
    session.redo()
    assert session.state == after
    with pytest.raises(NothingToUndo, match="nothing to redo"):
        session.redo()


def test_a_new_action_ends_the_redo_chain(session):
    session.act(roll(1, 2, 3, 3, 5))
    session.act(Mark(0, (0, 0), (1, 2), 0))
    session.undo()
    session.act(Mark(0, (1, 0), (1, 2), 0))
    with pytest.raises(NothingToUndo):
        session.redo()


def test_undo_all_the_way_back(session):
    session.act(roll(1, 2, 3, 3, 5))
    session.undo()
    with pytest.raises(NothingToUndo, match="nothing to undo for the table"):
        session.undo()
    assert session.state == session.game.setup(2, session.options)


def test_a_seat_undoes_its_own_last_action_only(session):
    session.act(roll(1, 2, 3, 3, 5))
    session.act(Mark(0, (0, 0), (1, 2), 0))
    session.act(Mark(1, (1, 0), (1, 2), 0))
    session.undo(seat=0)
    assert session.state.boards[0].cells == {}
    assert (1, 0) in session.state.boards[1].cells
    session.redo(seat=0)
    assert (0, 0) in session.state.boards[0].cells
    with pytest.raises(NothingToUndo, match="seat 3"):
        session.undo(seat=2)


def test_undo_refuses_when_later_actions_depend_on_it(session):
    session.act(roll(1, 2, 3, 3, 5))
    for seat in (0, 1):
        session.act(Mark(seat, (0, 0), (1, 2), 0))
        session.act(Mark(seat, (1, 0), (3, 4), 0))
    session.act(Advance())
    # Taking back seat 1's mark would leave the round button pressed too early.
    with pytest.raises(IllegalAction, match="cannot undo entry 3") as info:
        session.undo(seat=0)
    assert info.value.code == "action/undo_blocked"
    assert session.seq == 6


def test_stale_actions_are_refused(session):
    session.act(roll(1, 2, 3, 3, 5), expected_seq=0)
    with pytest.raises(StaleAction, match="against entry 0, but the game is at entry 1"):
        session.act(Mark(0, (0, 0), (1, 2), 0), expected_seq=0)
    session.act(Mark(0, (0, 0), (1, 2), 0), expected_seq=1)


def test_two_sessions_racing_for_the_same_slot_collide_cleanly(store):
    a = Session.create(store, "first-island", 2, {"s_card": 4})
    b = Session(store, a.game_id)
    a.act(roll(1, 2, 3, 3, 5))
    with pytest.raises(StaleAction, match="written by someone else first"):
        b.act(roll(6, 6, 6, 6, 6))
    # b has read the log again (it used to keep its old copy, refusing every later action
    # against it): the next action is made against the game as it now is
    assert b.state == a.state and b.seq == 1
    b.act(Mark(0, (0, 0), (1, 2), 0))
    with pytest.raises(StaleAction):  # now a is behind: its undo collides, and so it too
        a.undo()  # reads the log again
    assert (a.seq, a.state) == (2, b.state)


def test_listeners_hear_every_change(session):
    heard = []
    unsubscribe = session.subscribe(lambda s: heard.append(s.seq))
    session.act(roll(1, 2, 3, 3, 5))
    session.undo()
    unsubscribe()
    session.redo()
    assert heard == [1, 2]


def test_bad_setup_stores_nothing(store):
    with pytest.raises(IllegalAction, match="1 to 6 players"):
        Session.create(store, "first-island", 9, {})
    with pytest.raises(UnknownGame, match="no game called 'chess'"):
        Session.create(store, "chess", 2, {})
    assert store.games() == []


def test_effective_actions_follow_undo_and_redo(session):
    session.act(roll(1, 2, 3, 3, 5))
    session.act(Mark(0, (0, 0), (1, 2), 0))
    session.undo()
    session.undo()
    session.redo()
    assert [e.seq for e in effective_actions(session.entries)] == [1]
