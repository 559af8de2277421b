"""Property tests: replay rebuilds the state, undo-redo is the identity, the score ignores
turning and mirroring the board."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import DiceRolled, get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.first_island.hexgrid import (
    Island,
    default_island,
    half_edges,
    mirror,
    mirror_direction,
    rotate,
    rotate_direction,
    split_for_edges,
)
from companion.games.first_island.model import TRIBES, Cell
from companion.games.first_island.scoring import Layout, score_board

GAME = get_game("first-island")
ISLAND = default_island()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def play(draw, max_steps=60):
    """A session driven by hypothesis through legal actions and rolls."""
    store = EventStore(":memory:")
    players = draw(st.integers(1, 4))
    session = Session.create(
        store, "first-island", players, {"camp_cards": draw(st.booleans()) or players == 1}
    )
    for _ in range(draw(st.integers(0, max_steps))):
        if session.outcome() is not None:
            break
        options = [
            a for seat in [None, *range(players)] for a in GAME.legal_actions(session.state, seat)
        ]
        spec = session.dice()
        if spec is not None and not spec.reroll and (not options or draw(st.booleans())):
            session.act(
                DiceRolled(tuple(draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))), "test")
            )
        else:
            session.act(options[draw(st.integers(0, len(options) - 1))])
    return session


@SETTINGS
@given(play())
def test_replaying_the_log_rebuilds_the_same_state(session):
    again = Session(session.store, session.game_id)
    assert again.state == session.state
    assert GAME.state_from_json(GAME.state_to_json(session.state)) == session.state


@SETTINGS
@given(play(), st.data())
def test_undo_then_redo_is_the_identity(session, data):
    seats = [None] + [e.seat for e in session.entries if e.kind == "action" and e.seat is not None]
    seat = data.draw(st.sampled_from(seats))
    before = session.state
    try:
        session.undo(seat=seat)
    except ValueError:  # nothing to undo, or later actions depend on it
        assert session.state == before
        return
    session.redo(seat=seat)
    assert session.state == before
    assert Session(session.store, session.game_id).state == before


# -- turning and mirroring ----------------------------------------------------------
def cell_strategy(h):
    tribe = st.sampled_from(TRIBES)
    return st.one_of(
        st.none(),
        tribe.map(lambda t: Cell(h, (t,))),
        st.tuples(st.lists(tribe, min_size=2, max_size=2, unique=True), st.integers(0, 2)).map(
            lambda v: Cell(h, tuple(v[0]), v[1])
        ),
    )


@st.composite
def boards(draw):
    cells = {}
    for h in sorted(ISLAND.hexes):
        c = draw(cell_strategy(h))
        if c is not None:
            cells[h] = c
    layout = Layout(ISLAND, cells)
    complete = [c for c in layout.camps() if c.complete]
    claimed = []
    if complete and draw(st.booleans()):
        camp = draw(st.sampled_from(complete))
        claimed.append(sorted(camp.placements))
    return cells, claimed, draw(st.integers(0, 3)), draw(st.lists(st.sampled_from([4, 8, 10, 12])))


def transform(cells, claimed, move_hex, move_dir):
    new_cells, half_map = {}, {}
    for h, c in cells.items():
        nh = move_hex(h)
        if c.large:
            new_cells[nh] = Cell(nh, c.tribes)
            half_map[h] = lambda half: half
            continue
        axis, half0 = split_for_edges(move_dir(d) for d in half_edges(c.axis, 0))
        tribes = c.tribes if half0 == 0 else c.tribes[::-1]
        new_cells[nh] = Cell(nh, tribes, axis)
        half_map[h] = lambda half, s=half0: half ^ s
    new_claimed = [
        [(*move_hex((q, r)), half_map[(q, r)](half)) for q, r, half in camp] for camp in claimed
    ]
    return new_cells, new_claimed


@SETTINGS
@given(boards(), st.integers(1, 5), st.booleans())
def test_the_score_does_not_change_when_the_board_is_turned_or_mirrored(board, turns, flip):
    cells, claimed, overrides, cards = board

    def move_hex(h):
        h = rotate(h, turns)
        return mirror(h) if flip else h

    def move_dir(d):
        d = rotate_direction(d, turns)
        return mirror_direction(d) if flip else d

    island = Island(move_hex(h) for h in ISLAND.hexes)
    new_cells, new_claimed = transform(cells, claimed, move_hex, move_dir)
    before = score_board(ISLAND, cells, claimed, overrides, cards)
    after = score_board(island, new_cells, new_claimed, overrides, cards)
    assert after == before


def test_turning_moves_neighbours_with_their_directions():
    from companion.games.first_island.hexgrid import neighbour

    for h in [(0, 0), (2, -1), (-3, 2)]:
        for d in range(6):
            assert rotate(neighbour(h, d)) == neighbour(rotate(h), rotate_direction(d))
            assert mirror(neighbour(h, d)) == neighbour(mirror(h), mirror_direction(d))
