"""Seats: claiming a free one, and getting a taken one back on a new phone.

A player whose phone changed (another browser, a private tab, a flat battery) asks for
their seat from the new phone; the host gives it in one tap on the table page (or refuses),
and the new phone gets the seat's new token while the old one stops working. Nobody takes
a seat silently: a request waits for the host, and the table page shows it. Requests live
in memory: after a restart a phone simply asks again.
"""

from __future__ import annotations

import secrets
import threading
import time

from flask import Blueprint, jsonify

from companion.errors import CompanionError, IllegalAction
from companion.web.access import BadRequest, check_host
from companion.web.api import error_response, optional_body
from companion.web.gameview import hub

bp = Blueprint("seats", __name__, url_prefix="/api")
bp.register_error_handler(CompanionError, error_response)

NAME_LENGTH = 24  # characters of a seat's name: it fits a phone's title bar
REQUEST_TTL = 600.0  # s a request waits for the host, or a given seat for its phone

_lock = threading.Lock()
# request id -> {"game_id", "seat", "name", "asked", "answer": None | "given" | "refused",
# "token"}
_requests: dict[str, dict] = {}


def _clean_name(data: dict, seat: int) -> str:
    name = data.get("name") or ""
    if not isinstance(name, str):
        raise BadRequest(f"a seat's name is text, not {name!r}")
    # one line of printable text: a newline or a control character would break the pages'
    # lines and the score sheet's rows
    name = " ".join("".join(c if c.isprintable() else " " for c in name).split())
    if len(name) > NAME_LENGTH:  # cut, and shown to be cut
        name = name[: NAME_LENGTH - 1].rstrip(" -") + "…"
    return name or f"Player {seat + 1}"


def _seat_of(game_id: str, seat: int):
    s = hub().session(game_id)  # 404 if unknown
    if not 0 <= seat < s.players:
        raise IllegalAction(
            f"there is no seat {seat + 1} in a {s.players}-player game", code="action/bad_seat"
        )
    return s


def _forget_old() -> None:
    now = time.monotonic()
    for rid in [r for r, q in _requests.items() if now - q["asked"] > REQUEST_TTL]:
        del _requests[rid]


def waiting(game_id: str) -> list[dict]:
    """The requests for seats of ``game_id`` that wait for the host, as the pages show them
    (no request's id: only the phone that asked knows it)."""
    with _lock:
        _forget_old()
        return [
            {"seat": q["seat"], "name": q["name"]}
            for q in _requests.values()
            if q["game_id"] == game_id and q["answer"] is None
        ]


@bp.post("/games/<game_id>/seats/<int:seat>")
def claim_seat(game_id: str, seat: int):
    """A free seat, to the phone that asks first; a taken one only by the host (or through a
    request the host answers: ``ask_for_seat``)."""
    data = optional_body()
    s = _seat_of(game_id, seat)
    name = _clean_name(data, seat)
    taken = seat in hub().store.seats(game_id)
    if taken:
        check_host(data)  # the host hands a seat over; a player asks for it instead
    token = secrets.token_urlsafe(16)
    # a free seat is claimed only if still free: two phones tapping it at once, one gets it
    hub().store.claim_seat(game_id, seat, name, token, replace=taken)
    hub().announce(game_id, {"kind": "state", "seq": s.seq})
    return jsonify({"seat": seat, "name": name, "token": token})


@bp.post("/games/<game_id>/seats/<int:seat>/ask")
def ask_for_seat(game_id: str, seat: int):
    """A new phone asks for a taken seat (its player's own, on a phone that changed): the
    table page shows the request to the host. Returns the request's id, which only this
    phone knows, to ask after the answer with."""
    data = optional_body()
    s = _seat_of(game_id, seat)
    name = _clean_name(data, seat)
    rid = secrets.token_urlsafe(16)
    with _lock:
        _forget_old()
        # one request a seat: a phone asking again, or another phone, takes the place of the last
        for old in [
            r for r, q in _requests.items() if (q["game_id"], q["seat"]) == (game_id, seat)
        ]:
            if _requests[old]["answer"] is None:
                del _requests[old]
        _requests[rid] = {
            "game_id": game_id,
            "seat": seat,
            "name": name,
            "asked": time.monotonic(),
            "answer": None,
            "token": None,
        }
    hub().announce(game_id, {"kind": "state", "seq": s.seq})
    return jsonify({"request": rid, "seat": seat})


@bp.get("/games/<game_id>/seat-requests/<rid>")
def seat_request(game_id: str, rid: str):
    """The host's answer to a request, for the phone that asked: waiting, refused, or given
    with the seat's new token (told once)."""
    with _lock:
        q = _requests.get(rid)
        if q is None or q["game_id"] != game_id:
            raise IllegalAction(
                "no such request for a seat (it was answered, or is over 10 minutes old): "
                "tap your seat to ask again",
                code="seat/no_request",
            )
        if q["answer"] == "given":
            del _requests[rid]
            name = hub().store.seats(game_id)[q["seat"]][0]
            return jsonify(
                {"answer": "given", "seat": q["seat"], "name": name, "token": q["token"]}
            )
        return jsonify({"answer": q["answer"] or "waiting", "seat": q["seat"]})


def _answer(game_id: str, seat: int, give: bool):
    data = optional_body()
    check_host(data)
    s = _seat_of(game_id, seat)
    with _lock:
        _forget_old()
        asked = [
            q
            for q in _requests.values()
            if (q["game_id"], q["seat"], q["answer"]) == (game_id, seat, None)
        ]
        if not asked:
            raise IllegalAction(
                f"no phone is asking for seat {seat + 1} now", code="seat/no_request"
            )
        q = asked[-1]
        if give:
            claimed = hub().store.seats(game_id).get(seat)
            name = claimed[0] if claimed is not None else q["name"]
            q["token"] = secrets.token_urlsafe(16)
            # the seat keeps its name; its old phone's token stops working
            hub().store.claim_seat(game_id, seat, name, q["token"], replace=True)
        q["answer"] = "given" if give else "refused"
    hub().announce(game_id, {"kind": "state", "seq": s.seq})
    return jsonify({"seat": seat, "answer": q["answer"]})


@bp.post("/games/<game_id>/seats/<int:seat>/give")
def give_seat(game_id: str, seat: int):
    """The host gives the seat to the phone that asked for it."""
    return _answer(game_id, seat, True)


@bp.post("/games/<game_id>/seats/<int:seat>/refuse")
def refuse_seat(game_id: str, seat: int):
    """The host refuses a phone's request for the seat."""
    return _answer(game_id, seat, False)
