"""A game as each page may see it: the JSON every page draws from, built per seat.

The server decides what each seat sees: a phone is sent its own seat's view of the state
and of the logged actions (the game's ``player_view`` and ``action_view``), the table and
anyone without a seat only what every player may see.
"""

from __future__ import annotations

import secrets

from flask import current_app, request

from companion.engine.hub import Hub
from companion.engine.session import parse_action, states


def same(secret: str, given: str) -> bool:
    """Is ``given`` (a token or PIN a request sent) ``secret``, compared in constant time?
    Compared as UTF-8 bytes: ``secrets.compare_digest`` refuses a str with a character past
    ASCII, which a request may well send."""
    return secrets.compare_digest(secret.encode(), given.encode())


def hub() -> Hub:
    return current_app.extensions["companion.hub"]


def viewer(game_id: str) -> int | None:
    """The seat whose phone asks (its X-Seat-Token matches the seat's claim), else None: the
    table, and anyone without a seat, see only what every player may see."""
    token = request.headers.get("X-Seat-Token")
    if not token:
        return None
    for seat, (_, claimed) in hub().store.seats(game_id).items():
        if same(claimed, token):
            return seat
    return None


def game_json(game_id: str, seat: int | None = None) -> dict:
    """The game as ``seat``'s page may see it (None: the table's, which is public)."""
    from companion.web.seats import waiting

    s = hub().session(game_id)
    seats = hub().store.seats(game_id)
    dice, button, outcome = s.dice(), s.game.button(s.state), s.outcome()
    return {
        "game_id": game_id,
        "game": s.game.name,
        "title": s.game.title,
        "players": s.players,
        "options": s.options,
        "seq": s.seq,
        "seat": seat,
        "device": _device_for(game_id),
        "dice": None if dice is None else dice.to_json(),
        "to_act": s.game.to_act(s.state).to_json(),
        "button": None if button is None else {"label": button.label},
        "finishable": outcome is None and s.game.finish_action(s.state) is not None,
        "round": s.game.round_of(s.state),
        "outcome": None
        if outcome is None
        else {
            "reason": outcome.reason,
            "winners": list(outcome.winners),
            "totals": list(outcome.totals),
        },
        "seats": [
            {"seat": i, "name": seats[i][0] if i in seats else None} for i in range(s.players)
        ],
        # phones asking the host for a taken seat (their player's, on a phone that changed)
        "seat_requests": waiting(game_id),
        "scores": [row.to_json() for row in s.score_rows()],
        # each seat's board file can be downloaded (export.py)
        "board_files": s.game.board_file(s.state, 0) is not None,
        "view": s.game.player_view(s.state, seat),
        "last_action": logged(s, s.last_action(), seat),
        "history": score_history(s) if outcome is not None else None,
        # a finished game's players go on to the next game at this table, if one was made
        "next": hub().next_game(game_id) if outcome is not None else None,
    }


def _device_for(game_id: str) -> dict:
    """What the device is doing, as ``game_id``'s pages show it: a roll another game waits
    on is not theirs to confirm (its ``pending`` is left out), and is named as that game's."""
    device = hub().device_json()
    pending = device.get("pending")
    if not pending or pending["game_id"] == game_id:
        return device
    other = {**device, "pending": None}
    if device["state"] == "needs confirmation":
        other["message"] = (
            f"it is game {pending['game_id']}'s roll: confirm it on that game's table page "
            "or its phones"
        )
    return other


def logged(s, entry, seat: int | None) -> dict | None:
    """A logged action as ``seat`` may see it: who acted, the game's sentence for it, and the
    action itself only where the game's ``action_view`` lets this seat see it."""
    if entry is None:
        return None
    action = parse_action(s.game, entry.payload)
    return {
        "seq": entry.seq,
        "seat": entry.seat,
        "description": s.game.describe(action),
        "action": s.game.action_view(action, seat),
    }


def score_history(s) -> list[dict]:
    """Each participant's total at the end of every round (replayed from the log), in the
    order of the game's score rows."""

    def point(state) -> dict:
        return {
            "round": s.game.round_of(state),
            "totals": [row.total for row in s.game.score_rows(state)],
        }

    history: list[dict] = []
    prev = None
    for state in states(s.game, s.players, s.options, s.entries):
        if prev is not None and s.game.round_of(state) != s.game.round_of(prev):
            history.append(point(prev))
        prev = state
    history.append(point(prev))
    return history
