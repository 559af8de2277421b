"""Small Islands' properties: whatever legal play happens, no tile, House, ship or bonus
token is made or lost, each player's total is their ledger's, and a seat's view never holds
another seat's objective."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.small_islands.state import BONUS, HOUSES, LANDSCAPE, ROW, SHIPS

GAME = get_game("small-islands")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def play(draw, max_steps=120):
    store = EventStore(":memory:")
    players = draw(st.integers(1, 4))
    session = Session.create(store, "small-islands", players, {})
    for _ in range(draw(st.integers(0, max_steps))):
        if session.outcome() is not None:
            break
        options = [a for s in [None, *range(players)] for a in GAME.legal_actions(session.state, s)]
        session.act(options[draw(st.integers(0, len(options) - 1))])
    return session


@SETTINGS
@given(play())
def test_nothing_is_made_or_lost_and_objectives_stay_with_their_seats(session):
    state = session.state
    n = state.players
    assert state.reserve + state.nav <= LANDSCAPE - ROW - 2 * n
    assert all(0 <= h <= HOUSES for h in state.houses)
    assert all(0 <= b <= BONUS for b in state.bonus)
    ships_left = state.grey + sum(state.own_ship)
    assert ships_left + len(state.landed) == SHIPS
    rows = GAME.score_rows(state)
    assert [r.total for r in rows[:n]] == [state.total(s) for s in range(n)]
    if state.ended is None:
        for seat in range(n):
            seen = json.dumps(GAME.player_view(state, seat))
            for other, objective in state.objectives.items():
                if other != seat and objective != state.objectives.get(seat):
                    says = GAME.player_view(state, other)["objective"]["says"]
                    assert says not in seen
    assert Session(session.store, session.game_id).state == state
