"""The First War's properties: whatever legal play happens, no side has more than 4 pieces
in a tile or 20 of a kind, no piece stands on a lake or a face-down tile, both sides never
hold a tile outside a fight, and the position file reads back what the game shows."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import DiceRolled, get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.first_war import economy, positionfile
from companion.games.first_war.state import KINDS, PER_KIND, STACK

GAME = get_game("first-war")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def play(draw, max_steps=120):
    store = EventStore(":memory:")
    session = Session.create(store, "first-war", 2, {})
    for _ in range(draw(st.integers(0, max_steps))):
        if session.outcome() is not None:
            break
        spec = session.dice()
        options = [a for seat in (None, 0, 1) for a in GAME.legal_actions(session.state, seat)]
        if spec is not None and not options:
            session.act(DiceRolled((draw(st.integers(1, 6)),), "test"))
        else:
            session.act(options[draw(st.integers(0, len(options) - 1))])
    return session


@SETTINGS
@given(play())
def test_the_board_keeps_the_rules_whatever_is_played(session):
    state = session.state
    for seat in (0, 1):
        side = state.sides[seat]
        for at, pieces in side.cells.items():
            assert 1 <= len(pieces) <= STACK
            assert state.terrain.get(at) not in (None, "lake"), at
        assert all(side.count(k) <= PER_KIND for k in KINDS)
    if state.battle is None:
        assert not set(state.sides[0].cells) & set(state.sides[1].cells) or state.phase in (
            "hunters",
            "others",
            "emergency",
        )
    assert Session(session.store, session.game_id).state == state


@SETTINGS
@given(play())
def test_the_position_file_reads_back_each_sides_figures(session):
    state = session.state
    again = positionfile.read(GAME.board_file(state, 0))
    for seat in (0, 1):
        assert economy.food(again, seat) == economy.food(state, seat)
        assert economy.research_points(again, seat) == economy.research_points(state, seat)
