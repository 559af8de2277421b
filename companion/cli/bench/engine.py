"""``companion bench engine``: how long the engine takes for one action and one score.

Figures are medians over many repetitions on this machine, printed as JSON, with
the targets beside them (under 2 ms an action, under 5 ms a full board score) so a
Pi Zero 2 keeps up.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from companion.engine.game import DiceRolled, get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.first_island.scoring import score_board
from companion.games.first_island.state import Advance, Mark


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def _full_game_state(game, players: int = 4):
    """A 4-player First Island game played to the last round, deterministically."""
    state = game.setup(players, {"camp_cards": False})
    hexes = sorted(state.island.hexes)
    faces = [(1, 2, 3, 4, 5), (6, 5, 4, 3, 2), (2, 2, 3, 3, 1)]
    i = 0
    while len(hexes) - len(state.boards[0].cells) > 2:
        state = game.apply(state, DiceRolled(faces[i % 3]))
        for seat in range(players):
            for n, picks in enumerate(((1, 2), (3, 4))):
                state = game.apply(state, Mark(seat, hexes[2 * i + n], picks, seat % 3))
        state = game.apply(state, Advance())
        i += 1
    return state, hexes[2 * i :]


def bench_engine(repeat: int) -> dict:
    game = get_game("first-island")
    state, free = _full_game_state(game)
    rolled = game.apply(state, DiceRolled((1, 2, 3, 4, 5)))
    mark = Mark(0, free[0], (1, 2), 0)
    full = rolled
    for seat in range(full.players):
        for n, h in enumerate(free):
            full = game.apply(full, Mark(seat, h, ((1, 2), (3, 4))[n], 1))
    assert full.board_full(0) and full.ended == "the island is full"
    one = full.boards[0]

    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "bench.db")
        session = Session.create(store, "first-island", 2, {})
        session.act(DiceRolled((1, 2, 3, 4, 5)))

        def act_and_undo():
            session.act(Mark(0, (0, 0), (1, 2), 0))
            session.undo()

        act_undo = _median_ms(act_and_undo, max(50, repeat // 20))
        store.close()
    return {
        "apply_one_action_ms": round(_median_ms(lambda: game.apply(rolled, mark), repeat), 4),
        "score_full_board_ms": round(
            _median_ms(
                lambda: score_board(full.island, one.cells, one.claimed, len(one.overrides), ()),
                repeat,
            ),
            4,
        ),
        "score_all_4_players_ms": round(_median_ms(lambda: game.score(full), repeat), 4),
        "session_act_plus_undo_on_disk_ms": round(act_undo, 3),
        "targets": {"apply_one_action_ms": 2.0, "score_full_board_ms": 5.0},
        "repeat": repeat,
        "note": "apply = validate + reduce; score = one full 36-hex board (and all 4 boards "
        "of the game); session figure includes two SQLite commits with "
        "synchronous=FULL (an action and its undo)",
    }
