"""``companion bench engine``: how long each game's rules take for one action and one score.

Each registered game is played out by seeded random legal actions, at most players, to its
end (the host's end after 1000 actions, for a game with no end of its own). The figures are
medians over many repetitions on this machine, printed as JSON, with the targets beside
them (under 2 ms an action, under 5 ms the score of every player) so a Pi Zero 2 keeps up.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.engine.game import DiceRolled, all_games
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.errors import IllegalAction

TARGETS = {"apply_one_action_ms": 2.0, "score_all_players_ms": 5.0}


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def _playout(session: Session, seed: int = 1, limit: int = 1000) -> list:
    """Seeded random legal play to the end (the host ends a game still going after
    ``limit`` actions, as a game with no end of its own): each (state, action) applied."""
    game, rng, steps = session.game, random.Random(seed), []
    for _ in range(limit):
        if session.outcome() is not None:
            break
        spec = session.dice()
        options = [
            a for s in [None, *range(session.players)] for a in game.legal_actions(session.state, s)
        ]
        finish = game.finish_action(session.state)
        options = [a for a in options if finish is None or a != finish] or options
        if spec is not None and (not options or rng.random() < 0.3):
            roll = DiceRolled(tuple(rng.choice(sorted(spec.faces)) for _ in range(spec.count)))
            action = game.roll_action(session.state, roll)
        else:
            action = rng.choice(options)
        before = session.state
        try:
            session.act(action)
        except IllegalAction:  # a random reroll that changed the dice kept: another move
            continue
        steps.append((before, action))
    finish = session.game.finish_action(session.state)
    if session.outcome() is None and finish is not None:
        steps.append((session.state, finish))
        session.act(finish)
    return steps


def _bench_game(game, repeat: int, store: EventStore) -> dict:
    session = Session.create(store, game.name, game.max_players, {})
    steps = _playout(session)
    _, action = steps[len(steps) // 2]
    applies = [
        _median_ms(lambda s=s, a=a: game.apply(s, a), max(5, repeat // 50))
        for s, a in steps[:: max(1, len(steps) // 40)]
    ]
    played = Session.create(store, game.name, game.max_players, {})
    for _, a in steps[: len(steps) // 2]:
        played.act(a)

    def act_and_undo():
        played.act(action)
        played.undo()

    return {
        "players": game.max_players,
        "actions_played": len(steps),
        "apply_one_action_ms": round(statistics.median(applies), 4),
        "apply_slowest_action_ms": round(max(applies), 4),
        "score_all_players_ms": round(
            _median_ms(lambda: game.score_rows(session.state), repeat), 4
        ),
        "session_act_plus_undo_on_disk_ms": round(
            _median_ms(act_and_undo, max(20, repeat // 20)), 3
        ),
    }


def bench_engine(repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "bench.db")
        try:
            games = {game.name: _bench_game(game, repeat, store) for game in all_games()}
        finally:
            store.close()
    return {
        "games": games,
        "targets": TARGETS,
        "repeat": repeat,
        "note": "each game at its most players, played by seeded random legal actions to "
        "its end; apply = validate + reduce, the median over states across the game and the "
        "slowest; score = every player's score rows at the end; session figure includes two "
        "SQLite commits with synchronous=FULL (an action and its undo)",
    }
