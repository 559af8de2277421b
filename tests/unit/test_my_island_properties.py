"""My Island's properties: whatever legal play happens, the island's edges match, hands
never go below zero, the totals are the ledger's sums, the island file recounts the same
points, and a score does not change when the whole island is turned."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import DiceRolled, get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.my_island import islandfile, scoring
from companion.games.my_island.board import Board
from companion.games.my_island.state import LINES, Placed, Rules
from companion.games.my_island.tiles import COMMUNITIES, Tile, opposite

GAME = get_game("my-island")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def play(draw, max_steps=120):
    """A session driven by hypothesis through legal actions and rolls."""
    store = EventStore(":memory:")
    players = draw(st.integers(2, 6))
    options = {"ports": draw(st.booleans()), "water_tiles": draw(st.booleans())}
    session = Session.create(store, "my-island", players, options)
    for _ in range(draw(st.integers(0, max_steps))):
        if session.outcome() is not None:
            break
        options = [
            a for seat in [None, *range(players)] for a in GAME.legal_actions(session.state, seat)
        ]
        spec = session.dice()
        if spec is not None and (not options or draw(st.booleans())):
            values = draw(st.lists(st.integers(1, 6), min_size=spec.count, max_size=spec.count))
            session.act(DiceRolled(tuple(values), "test"))
        else:
            session.act(options[draw(st.integers(0, len(options) - 1))])
    return session


@SETTINGS
@given(play())
def test_the_island_stays_legal_and_the_totals_are_the_ledgers(session):
    state = session.state
    board = state.rules.board
    for sq, placed in state.island.items():
        for d in range(4):
            nb = state.island.get(board.neighbour(sq, d))
            if nb is not None:
                assert placed.tile.edge(d) == nb.tile.edge(opposite(d)), (sq, d)
    assert all(n >= 0 for n in state.hands)
    rows = GAME.score_rows(state)
    assert [r.total for r in rows] == [state.total(s) for s in range(state.players)]
    assert Session(session.store, session.game_id).state == state


@SETTINGS
@given(play())
def test_the_island_file_recounts_the_games_points(session):
    """Without Capitols, auctions or misplays, the file holds everything that scored."""
    state = session.state
    if state.proposal is not None or state.step in ("white", "black"):
        return  # a turn half-way: its dice are not all in the file yet
    recount = islandfile.score(GAME.board_file(state, 0))["players"]
    for s, row in enumerate(recount):
        want = {
            k: sum(e.points for e in state.ledger if e.seat == s and e.key == k) for k, _ in LINES
        }
        if not state.ended:
            want["hand"] = -30 * state.hands[s]
        assert row["lines"] == want, s


@st.composite
def tiles(draw):
    land = tuple(draw(st.lists(st.booleans(), min_size=4, max_size=4)))
    if not any(land):
        land = (True, *land[1:])
    halves = {0: (0, 1), 1: (1, 2), 2: (3, 2), 3: (0, 3)}
    roads = tuple(
        draw(st.sampled_from([None, "road", *COMMUNITIES.values()]))
        if land[halves[d][0]] or land[halves[d][1]]
        else None
        for d in range(4)
    )
    return Tile(draw(st.integers(1, 15)), land, roads)


@settings(max_examples=100, deadline=None)
@given(tiles(), st.integers(0, 7))
def test_a_tile_code_reads_back_and_four_turns_are_none(tile, turns):
    assert Tile.from_code(tile.code) == tile
    assert tile.turned(turns).turned(4 - turns % 4) == tile


@settings(max_examples=60, deadline=None)
@given(
    st.lists(tiles(), min_size=9, max_size=9),
    st.lists(st.sampled_from([0, 1, None]), min_size=9, max_size=9),
    st.booleans(),
)
def test_a_score_does_not_change_when_the_whole_island_is_turned(around, owners, ports):
    """The tiles round D4 (whatever they are: edges need not match for the count) and the
    new tile, all turned a quarter about the board's centre, score the same."""
    rules = Rules(Board.standard(4), ports=ports)
    squares = [(r, c) for r in (2, 3, 4) for c in (2, 3, 4)]
    island = {
        sq: Placed(t, 0, o, "play")
        for sq, t, o in zip(squares, around, owners, strict=True)
        if sq != (3, 3)
    }
    new = around[4]

    def turn(sq):  # a quarter turn clockwise on the 8 by 8 board
        return sq[1], 7 - sq[0]

    turned = {turn(sq): Placed(p.tile.turned(1), p.by, p.owner, p.how) for sq, p in island.items()}

    def total(land, sq, tile):
        return sorted(e.points for e in scoring.placement_entries(rules, land, 0, sq, tile))

    assert total(island, (3, 3), new) == total(turned, turn((3, 3)), new.turned(1))
