"""One conformance test run over every registered game (the house style's promise).

Random legal play-outs finish; replaying the log equals the live state; the state
round-trips through JSON; undo then redo is the identity.
"""

import random

import pytest

from companion.engine.game import DiceRolled, all_games
from companion.engine.session import Session

GAMES = [g.name for g in all_games()]


def random_playout(session: Session, rng: random.Random, limit: int = 2000) -> None:
    game = session.game
    for _ in range(limit):
        if session.outcome() is not None:
            return
        spec = session.dice()
        options = [
            a
            for seat in [None, *range(session.players)]
            for a in game.legal_actions(session.state, seat)
        ]
        if spec is not None and (not options or rng.random() < 0.8):
            faces = sorted(spec.faces)
            session.act(DiceRolled(tuple(rng.choice(faces) for _ in range(spec.count)), "test"))
        else:
            assert options, f"{game.name}: no legal action and no roll wanted"
            session.act(rng.choice(options))
    pytest.fail(f"{game.name}: a random play-out did not finish in {limit} actions")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_finish_and_replay(store, name, seed):
    game = next(g for g in all_games() if g.name == name)
    rng = random.Random(seed)
    players = rng.randint(game.min_players, game.max_players)
    session = Session.create(store, name, players, {})
    random_playout(session, rng)
    outcome = session.outcome()
    assert outcome is not None and len(outcome.totals) == players
    assert Session(store, session.game_id).state == session.state
    assert game.state_from_json(game.state_to_json(session.state)) == session.state
    before = session.state
    session.undo()
    session.redo()
    assert session.state == before
