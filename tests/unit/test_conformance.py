"""One conformance test run over every registered game (the house style's promise), and
the written contract (companion.engine.contract) checked member by member.

Random legal play-outs finish; replaying the log equals the live state; the state
round-trips through JSON; undo then redo is the identity. On the way, at every state: who
acts, the button, the dice wanted, the round, the score rows, each seat's view and each
logged action's view are what the contract says they are.
"""

import json
import random

import pytest

from companion.engine.game import (
    Button,
    DiceRolled,
    DiceSpec,
    Option,
    ScoreRow,
    ToAct,
    action_to_json,
    all_games,
    check_options,
)
from companion.engine.session import Session, parse_action
from companion.errors import IllegalAction
from companion.training import render

GAMES = [g.name for g in all_games()]


def _game(name):
    return next(g for g in all_games() if g.name == name)


def check_state(session: Session) -> None:
    """The contract's answers about the state ``session`` is in."""
    game, state = session.game, session.state
    over = game.outcome(state) is not None
    to_act = game.to_act(state)
    assert isinstance(to_act, ToAct)
    assert all(0 <= s < session.players for s in to_act.seats)
    assert over == (not to_act.seats and not to_act.table), f"{game.name}: {to_act} at {state}"
    spec = game.dice(state)
    if spec is not None:
        assert isinstance(spec, DiceSpec) and spec.count > 0 and spec.faces
        assert not spec.dice or len(spec.dice) == spec.count
        json.dumps(spec.to_json())
    button = game.button(state)
    if button is not None:
        assert isinstance(button, Button) and button.label
        game.apply(state, button.action)  # what the button does now is legal now
    assert game.round_of(state) is None or isinstance(game.round_of(state), int)
    rows = game.score_rows(state)
    assert all(isinstance(r, ScoreRow) for r in rows)
    seats = [r.seat for r in rows if r.seat is not None]
    assert sorted(seats) == list(range(session.players)), f"{game.name}: one row a seat"
    for r in rows:
        assert isinstance(r.total, int)
        if r.lines:
            assert sum(line.points for line in r.lines) == r.total, f"{game.name}: {r}"
        assert len({line.key for line in r.lines}) == len(r.lines)
    for seat in [None, *range(session.players)]:
        json.dumps(game.player_view(state, seat))
    if not over and game.finish_action(state) is not None:
        assert game.outcome(game.apply(state, game.finish_action(state))) is not None


def random_playout(session: Session, rng: random.Random, limit: int = 2000) -> None:
    game = session.game
    for _ in range(limit):
        check_state(session)
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
            roll = DiceRolled(tuple(rng.choice(faces) for _ in range(spec.count)), "test")
            if spec.reroll:  # rerolled dice: some keep their faces, which a random roll may not
                try:
                    session.act(roll)
                except IllegalAction:
                    assert options, f"{game.name}: a reroll wanted and nothing else legal"
                    session.act(rng.choice(options))
            else:
                session.act(roll)
        else:
            assert options, f"{game.name}: no legal action and no roll wanted"
            session.act(rng.choice(options))
    pytest.fail(f"{game.name}: a random play-out did not finish in {limit} actions")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_finish_and_replay(store, name, seed):
    game = _game(name)
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


@pytest.mark.parametrize("name", GAMES)
def test_every_logged_action_is_described_and_viewed_per_seat(store, name):
    game = _game(name)
    session = Session.create(store, name, game.max_players, {})
    random_playout(session, random.Random(7))
    for entry in session.entries:
        if entry.kind != "action":
            continue
        action = parse_action(game, entry.payload)
        said = game.describe(action)
        assert isinstance(said, str) and said.strip() and said[0].isupper(), said
        for seat in [None, *range(session.players)]:
            view = game.action_view(action, seat)
            assert view is None or json.dumps(view)
        if not game.hidden_information:
            assert game.action_view(action, None) == action_to_json(action)


@pytest.mark.parametrize("name", GAMES)
def test_metadata_and_options_schema(name):
    game = _game(name)
    assert game.title and 1 <= game.min_players <= game.max_players
    assert isinstance(game.hidden_information, bool)
    assert all(isinstance(o, Option) for o in game.options)
    assert len({o.name for o in game.options}) == len(game.options)
    for players in range(game.min_players, game.max_players + 1):
        # every option's default, where it applies, is a setup the game takes
        defaults = {
            o.name: o.default
            for o in game.options
            if o.applies(players) and o.default is not None and o.kind != "data"
        }
        check_options(game, players, defaults)
        game.setup(players, defaults)
        json.dumps([o.to_json() for o in game.options])
    demo = min(max(2, game.min_players), game.max_players)  # the embedded demo's setup
    check_options(game, demo, game.demo_options)
    game.setup(demo, game.demo_options)
    # the demo's symbol die: faces the renderer draws (each once)
    assert set(game.demo_die) <= {*render.COMMERCE, *render.SYMBOLS}
    assert len(set(game.demo_die)) == len(game.demo_die)


@pytest.mark.parametrize("name", GAMES)
def test_options_outside_the_schema_are_refused(name):
    game = _game(name)
    with pytest.raises(IllegalAction, match="no option 'colour'"):
        check_options(game, game.min_players, {"colour": "red"})
    with pytest.raises(IllegalAction, match="players"):
        check_options(game, game.max_players + 1, {})
    for option in game.options:
        if option.players is not None and option.players[1] < game.max_players:
            with pytest.raises(IllegalAction, match="only"):
                check_options(game, game.max_players, {option.name: option.default})
