"""Who may do what, enforced here and nowhere else (docs/access.md has the table).

The host is the table screen: a browser holding the host PIN (``check_host``). A seat is a
phone holding the token it got when it claimed the seat (``check_seat``). The rest of the
network may read games, claim a free seat and ask the host for a taken one, nothing more.
"""

from __future__ import annotations

import time
from typing import Any

from flask import current_app, request

from companion.errors import CompanionError
from companion.web.gameview import hub, same


class Forbidden(CompanionError, PermissionError):
    code = "auth/forbidden"


class TooMany(CompanionError, PermissionError):
    code = "auth/too_many"


class BadRequest(CompanionError, ValueError):
    code = "request/malformed"


PIN_TRIES, PIN_WINDOW = 5, 60.0  # wrong host PINs from one address, in so many seconds


def check_host(data: dict) -> None:
    """The host's call: refused without the host PIN (in the body, or X-Host-Pin). Wrong
    PINs from one address are limited: past PIN_TRIES in PIN_WINDOW s, none is tried."""
    pin = data.get("pin") or request.headers.get("X-Host-Pin")
    tries = current_app.extensions.setdefault("companion.pin_tries", {})
    now, address = time.monotonic(), request.remote_addr or "?"
    recent = [t for t in tries.get(address, ()) if now - t < PIN_WINDOW]
    if len(recent) >= PIN_TRIES:
        wait = int(PIN_WINDOW - (now - recent[0])) + 1
        raise TooMany(f"too many wrong host PINs from this device: try again in {wait} s")
    if isinstance(pin, str) and same(current_app.config["HOST_PIN"], pin):
        return
    if pin is not None:
        tries[address] = [*recent, now]
    raise Forbidden(
        "this is the host's to do: do it on the table screen, or enter the host PIN there "
        "(the device prints it when it starts)",
        code="auth/pin",
    )


def confirms_a_pending_roll(game_id: str, action: dict) -> bool:
    """Is ``action`` a roll sent by a seat of ``game_id`` while the camera's roll waits for
    a person there? (Any seated phone may confirm or correct it; entering rolls otherwise is
    the host's.)"""
    device = hub().device
    pending = device.pending if device is not None else None
    token = request.headers.get("X-Seat-Token")
    return (
        action.get("type") == "dice_rolled"
        and pending is not None
        and pending.get("game_id") == game_id
        and bool(token)
        and any(same(claimed, token) for _, claimed in hub().store.seats(game_id).values())
    )


def check_seat(game_id: str, seat: Any) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest(f"seat must be a seat number (0 for the first), not {seat!r}")
    token = request.headers.get("X-Seat-Token")
    claimed = hub().store.seats(game_id).get(seat)
    if claimed is None or token is None or not same(claimed[1], token):
        raise Forbidden(
            f"only the phone that claimed seat {seat + 1} may act for it; claim the seat first",
            code="auth/seat",
        )
