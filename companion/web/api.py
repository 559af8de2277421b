"""The JSON API: games, seats, actions, undo/redo, live events (the exports: export.py).

Every state change goes through the same Session.act the round button uses.
Errors are JSON ``{"error": code, "message": text}``, with a 4xx status for a request
refused (which changes nothing) and a 5xx one when the device itself failed (storage: 503;
a fault of its own: 500, from the app's handlers in companion.web).
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from companion.engine.game import all_games, get_game
from companion.errors import CompanionError, IllegalAction, StaleAction, UnknownGame
from companion.web.access import (
    BadRequest,
    Forbidden,
    TooMany,
    check_host,
    check_seat,
    confirms_a_pending_roll,
)
from companion.web.gameview import game_json, hub, same, viewer
from companion.web.saved import saved_options

bp = Blueprint("api", __name__, url_prefix="/api")


# First match wins: the specific errors, then any other bad input (a ValueError) is 422;
# what is left (storage failures) is the device's fault: 503.
STATUS = {
    TooMany: 429,
    Forbidden: 403,
    BadRequest: 400,
    UnknownGame: 404,
    StaleAction: 409,
    ValueError: 422,
}


@bp.errorhandler(CompanionError)
def error_response(exc: CompanionError):
    """A refused request's JSON error, with its status."""
    status = next((code for cls, code in STATUS.items() if isinstance(exc, cls)), 503)
    return jsonify(exc.to_json()), status


@bp.errorhandler(413)
def _too_large(exc):
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    message = f"the request's body is over {limit // 1024} KB; an action is well under one"
    return jsonify({"error": "request/too_large", "message": message}), 413


MAX_DEPTH = 16  # lists and objects nested in a body: an action or a custom map needs under 6


def _depth(value, limit: int) -> int:
    """How deeply ``value`` nests lists and objects, counted up to ``limit`` + 1."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth > limit:
                break
            todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _json():
    """The request's JSON body, or None when it sent none or not JSON; a body nested too
    deeply is refused (400), never left to fail the device (Python's parser gives up
    deep down with a RecursionError)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
        depth = MAX_DEPTH + 1
    else:
        depth = _depth(data, MAX_DEPTH)
    if depth > MAX_DEPTH:
        raise BadRequest(
            f"the request's JSON nests lists or objects more than {MAX_DEPTH} deep; an action "
            "nests a few"
        )
    return data


def body() -> dict:
    data = _json()
    if not isinstance(data, dict):
        raise BadRequest("send a JSON object as the request body (Content-Type: application/json)")
    return data


def optional_body() -> dict:
    """The request's JSON object, or {} when it sent none; anything else is refused."""
    data = _json()
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadRequest(f"send a JSON object as the request body, or none, not {data!r}")
    return data


@bp.before_request
def _refuse_cross_site():
    """State-changing requests must come from the device's own pages."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    origin = request.headers.get("Origin")
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or (
        origin and origin.split("://", 1)[-1] != request.host
    ):
        return error_response(
            Forbidden(
                f"requests from {origin or 'another site'} may not change "
                "games; use the device's own pages"
            )
        )
    return None


@bp.post("/host")
def host():
    """Check the host PIN (a table screen becoming the host): 200, or 403 (429 after too
    many wrong ones)."""
    check_host(optional_body())
    return jsonify({"host": True})


@bp.get("/catalog")
def catalog():
    """The games this device plays, with what the lobby needs to set one up."""
    return jsonify(
        [
            {
                "game": g.name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "hidden_information": g.hidden_information,
                "options": [o.to_json() for o in g.options],
            }
            for g in all_games()
        ]
    )


@bp.get("/games")
def list_games():
    return jsonify(
        [
            {
                "game_id": g.game_id,
                "game": g.game,
                "players": g.players,
                "options": g.options,
                "created": g.created,
                "finished": g.finished,
            }
            for g in hub().store.games()
        ]
    )


@bp.post("/games")
def create_game():
    data = body()
    check_host(data)  # a new game takes the camera's rolls: the host's call
    game, players = data.get("game"), data.get("players")
    if game is None:
        known = ", ".join(g.name for g in all_games())
        raise BadRequest(f'name the game to play: {{"game": ...}}, one of {known}')
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadRequest(f"players must be a whole number, not {players!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise BadRequest(f"options must be an object, not {options!r}")
    again = data.get("again")
    if again is not None and not isinstance(again, str):
        raise BadRequest(f"again names the game played before (its code), not {again!r}")
    get_game(game)
    kept = hub().store.seats(hub().store.game(again).game_id) if again else {}
    options = {**saved_options(game), **options}  # the host's file for this game, filled once
    s = hub().create(game, players, options)
    # "Play again": the players keep their seats, names and phones' tokens, so that no one
    # types their name again and each phone follows into its own seat
    for seat, (name, token) in kept.items():
        if seat < players:
            hub().store.claim_seat(s.game_id, seat, name, token)
    return jsonify(game_json(s.game_id)), 201


@bp.get("/games/<game_id>")
def show_game(game_id: str):
    return jsonify(game_json(game_id, viewer(game_id)))


@bp.delete("/games/<game_id>")
def delete_game(game_id: str):
    check_host(optional_body())
    hub().session(game_id)  # 404 if unknown
    hub().store.delete_game(game_id)
    hub().forget(game_id)
    return jsonify({"deleted": game_id})


@bp.post("/games/<game_id>/actions")
def act(game_id: str):
    data = body()
    action = data.get("action")
    if not isinstance(action, dict):
        raise BadRequest('send {"action": {...}}, the action as an object with a "type"')
    s = hub().session(game_id)
    seat = action.get("seat")
    if seat is not None:
        check_seat(game_id, seat)
    elif not confirms_a_pending_roll(game_id, action):
        check_host(data)  # the table's actions (a roll, a card turned up, the end) are the host's
    s.act(action, expected_seq=_expected_seq(data))
    return jsonify(game_json(game_id, viewer(game_id)))


@bp.post("/games/<game_id>/press")
def press(game_id: str):
    """The table page's round button: what the hardware button does now (the game's
    ``button``), refused when it does nothing."""
    data = optional_body()
    check_host(data)
    s = hub().session(game_id)
    button = s.game.button(s.state)
    if button is None:
        raise IllegalAction(
            f"the button does nothing in {s.game.title} now", code="action/no_button"
        )
    s.act(button.action, expected_seq=_expected_seq(data))
    return jsonify(game_json(game_id))


@bp.post("/games/<game_id>/finish")
def finish(game_id: str):
    """End the game now and score it as it stands: the host's call (the PIN)."""
    data = optional_body()
    check_host(data)
    s = hub().session(game_id)
    action = s.game.finish_action(s.state)
    if action is None:
        raise IllegalAction(f"{s.game.title} cannot be ended early", code="action/no_finish")
    s.act(action, expected_seq=_expected_seq(data))
    return jsonify(game_json(game_id))


def _expected_seq(data: dict) -> int | None:
    """The entry the page saw last (``expected_seq``), if the request gives one: a request
    made against an older game is refused (409). Anything but a whole number is no seq."""
    expected = data.get("expected_seq")
    return expected if isinstance(expected, int) and not isinstance(expected, bool) else None


def _undo_redo(game_id: str, which: str):
    data = optional_body()
    seat = data.get("seat")
    if seat is None:
        check_host(data)
    else:
        check_seat(game_id, seat)
    # the page's view of the game: an undo takes back what the person saw as the last action,
    # never one that came in meanwhile (a 409 instead)
    getattr(hub().session(game_id), which)(seat=seat, expected_seq=_expected_seq(data))
    return jsonify(game_json(game_id, viewer(game_id)))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    return _undo_redo(game_id, "undo")


@bp.post("/games/<game_id>/redo")
def redo(game_id: str):
    return _undo_redo(game_id, "redo")


@bp.get("/games/<game_id>/events")
def events(game_id: str):
    """Server-Sent Events: a "state" message with the new seq after every change."""
    hub().session(game_id)  # 404 before the stream starts
    return _event_stream(game_id)


@bp.get("/events")
def lobby_events():
    """Server-Sent Events for the lobby: a "games" message whenever a game is made, deleted,
    finished or taken back from its end, so that the list a phone shows stays the device's."""
    return _event_stream("*")


def _event_stream(channel: str) -> Response:
    """The live stream of the hub's messages on ``channel`` (a game's code, or "*")."""

    def stream():
        # nothing, not even the headers, before the stream listens (its first None: see listen)
        start = "retry: 1000\n\n"
        for message in hub().listen(channel):
            said = ": keep-alive" if message is None else f"data: {json.dumps(message)}"
            if message is not None and message.get("kind") == "evicted":
                # ended for a newer page: this one (a stale tab, most likely) waits a while
                # before it comes back, not a second, or pages would evict each other
                said = f"retry: {int(message['retry'] * 1000)}\n{said}"
            yield f"{start}{said}\n\n"
            start = ""

    return Response(
        stream_with_context(stream()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@bp.get("/device/roll.jpg")
def roll_picture():
    """The camera's picture of the roll waiting for a person, each die numbered as in the
    list the pages ask them to confirm. It shows the table, so it is the host's (the PIN)
    and the seats' of the roll's game (a seat token) only."""
    device = hub().device
    picture = device.picture if device is not None else None
    pending = device.pending if device is not None else None
    token = request.headers.get("X-Seat-Token")
    seated = (
        pending is not None
        and token
        and any(
            same(claimed, token) for _, claimed in hub().store.seats(pending["game_id"]).values()
        )
    )
    if not seated:
        check_host({})
    if picture is None:
        message = "no roll from the camera is waiting for a person to confirm it"
        return jsonify({"error": "device/no_picture", "message": message}), 404
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/device/view.jpg")
def camera_view():
    """What the camera sees now, with the dice the reader found drawn on it, for aiming the
    camera; its figures in headers. The host's: it needs the PIN (X-Host-Pin)."""
    check_host({})
    device = hub().device
    view = device.view() if device is not None else None
    if view is None:
        state = hub().device_json()
        if state["state"] in ("no camera", "camera lost", "dice not read"):
            message = f"the camera gives no picture: {state['state']}, {state['message']}"
        else:  # starting: its first frame is still to come
            message = "the camera has given no picture yet; this page asks again every second"
        return jsonify({"error": "device/no_frame", "message": message}), 404
    jpeg, figures = view
    headers = {
        f"X-{key.replace('_', '-').title()}": str(value)
        for key, value in figures.items()
        if value is not None
    }
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store", **headers})
