"""First Giants' properties: whatever legal play happens, every museum set keeps its rules,
no Set token is made or lost, amber never goes below zero, each News token's holder has a
set of its type, and the museum file recounts every total."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.first_giants import museum, museumfile
from companion.games.first_giants.state import ALL_SET_TOKENS
from companion.games.first_giants.views import total

GAME = get_game("first-giants")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def play(draw, max_steps=150):
    store = EventStore(":memory:")
    players = draw(st.integers(2, 5))
    session = Session.create(store, "first-giants", players, {})
    for _ in range(draw(st.integers(0, max_steps))):
        if session.outcome() is not None:
            break
        options = [
            a for seat in [None, *range(players)] for a in GAME.legal_actions(session.state, seat)
        ]
        session.act(options[draw(st.integers(0, len(options) - 1))])
    return session


@SETTINGS
@given(play())
def test_museums_keep_their_rules_and_tokens_are_neither_made_nor_lost(session):
    state = session.state
    for p in range(state.players):
        for cards, tokens in zip(state.museum[p], state.tokens[p], strict=True):
            for i in range(1, len(cards)):
                assert museum.refusal(cards[:i], cards[i]) is None, cards
            assert 0 <= tokens <= len(cards) - 1
    held = sum(sum(t) for t in state.tokens)
    assert state.supply + state.box + held == ALL_SET_TOKENS
    assert all(a >= 0 for a in state.amber)
    for kind, (holder, _) in state.news.items():
        assert any(museum.news_type(c) == kind for c in state.museum[holder]), kind
    assert Session(session.store, session.game_id).state == state


@SETTINGS
@given(play())
def test_the_museum_file_recounts_every_total(session):
    state = session.state
    recount = museumfile.score(GAME.board_file(state, 0))["players"]
    assert [r["total"] for r in recount] == [total(state, p) for p in range(state.players)]
