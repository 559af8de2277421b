"""The pages: lobby, table view (a tablet or TV at the table), player view (a phone)."""

from __future__ import annotations

import segno
from flask import Blueprint, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from companion.device.lan import lan_addresses, loopback
from companion.web.gameview import hub

bp = Blueprint("pages", __name__)


@bp.get("/")
def lobby():
    return render_template("lobby.html")


@bp.before_request
def _code_in_capitals():
    """/play/ke4tw, a link typed by hand, is the game KE4TW (codes are capitals)."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id and game_id != game_id.upper():
        return redirect(url_for(request.endpoint, game_id=game_id.upper()))
    return None


@bp.get("/favicon.ico")
def favicon():
    """The icon, for the browsers and tools that ask at /favicon.ico, not the page's link:
    without it each phone's first visit logs a failed request."""
    return current_app.send_static_file("icon.svg")


@bp.get("/table/<game_id>")
def table(game_id: str):
    if hub().session(game_id).outcome() is None:
        # The camera's rolls go to the game the table shows; a finished game's page (its
        # scores looked at again) does not take them from the game in play.
        hub().set_active(game_id)
    base = request.host_url.rstrip("/")
    port = current_app.config.get("JOIN_PORT")
    if port is not None:
        # the device's address now, not at its start: the Wi-Fi may have come up after the
        # service did, when the only address was loopback. Phones often cannot resolve a
        # .local name, so the link carries the address.
        lan = lan_addresses()[0]
        if not loopback(lan):
            base = f"http://{lan}:{port}"
    join = f"{base}/play/{game_id}"
    qr = Markup(segno.make(join, error="m").svg_inline(scale=5, dark="#1d232b"))
    return render_template(
        "table.html",
        game_id=game_id,
        join_url=join,
        qr=qr,
        **_parts(game_id),
    )


@bp.get("/camera")
def camera():
    """What the camera sees, live, with the dice the reader finds: for aiming the camera.
    Opened from the table page, whose link carries the host PIN."""
    return render_template("camera.html")


@bp.get("/play/<game_id>")
def play(game_id: str):
    return render_template("play.html", game_id=game_id, **_parts(game_id))


def _parts(game_id: str) -> dict:
    """What a game's pages add to the shell's: its title, and the name its blueprint's
    templates are found under (None: the game has no pages of its own)."""
    game = hub().session(game_id).game
    return {"title": game.title, "parts": None if game.pages is None else game.pages.name}


@bp.errorhandler(LookupError)
def _missing(exc):
    return render_template("missing.html", message=str(exc)), 404
