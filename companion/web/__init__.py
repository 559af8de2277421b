"""The web side: ``create_app`` builds the Flask app (no module-level app).

Templates and static files live in the repository's top-level ``web/`` folder,
which the wheel ships as the package ``companion.webassets``.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Iterable
from importlib import resources

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.engine.game import all_games
from companion.engine.hub import Hub
from companion.engine.store import EventStore


def own_host(host: str, extra: Iterable[str] = ()) -> bool:
    """Is ``host`` (a request's Host: a name or address, and a port) this device? An address
    is (no name there to point elsewhere); a name must be localhost, this machine's name,
    its mDNS name (NAME.local) or one of ``extra``."""
    name = host[1 : host.find("]")] if host.startswith("[") else host.rsplit(":", 1)[0]
    name = name.lower().rstrip(".")
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    me = socket.gethostname().lower()
    return name in {"localhost", me, f"{me}.local", *(e.lower() for e in extra)}


def assets_dir() -> str:
    return str(resources.files("companion.webassets"))


MAX_BODY = 64 * 1024  # bytes in a request's body


def create_app(
    config: dict | None = None, *, store: EventStore | None = None, hub: Hub | None = None
) -> Flask:
    """The Flask app. ``config`` may set DATABASE (a path) or pass ``store``/``hub`` in."""
    assets = assets_dir()
    app = Flask(__name__, template_folder=f"{assets}/templates", static_folder=f"{assets}/static")
    app.config.update(
        DATABASE=":memory:",
        DEMO=False,
        # An action or a new game is well under a kilobyte; a body of 50 MB grew the server
        # to 408 MB resident, more than a Pi Zero 2 W has to give it.
        MAX_CONTENT_LENGTH=MAX_BODY,
    )
    app.config.update(config or {})
    if hub is None:
        hub = Hub(store or EventStore(app.config["DATABASE"]))
    app.extensions["companion.hub"] = hub
    if "HOST_PIN" not in app.config:
        # kept in the database: a restart keeps it, so an open table page goes on working
        app.config["HOST_PIN"] = hub.store.setting("host_pin", f"{secrets.randbelow(10**6):06d}")

    from companion.web import api, export, pages, seats

    app.register_blueprint(api.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(export.bp)
    app.register_blueprint(pages.bp)
    for game in all_games():  # each game's own pages (templates and scripts)
        if game.pages is not None:
            app.register_blueprint(game.pages)

    @app.before_request
    def _own_names_only():
        """A request must name this device (DNS rebinding: a site whose name is made to
        point at the device's address would otherwise reach the API from a player's
        browser, its Origin matching its Host)."""
        if own_host(request.host, app.config.get("HOSTS", ())):
            return None
        message = (
            f"this device answers to its own names and addresses, not {request.host!r}: open "
            "it by the address its table page shows"
        )
        if request.path.startswith("/api/"):
            return jsonify({"error": "request/host", "message": message}), 403
        return message, 403

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        """A path or method no route takes: JSON under /api/, as every API error is; else
        the pages' own "not found" with the way back to the lobby."""
        if request.path.startswith("/api/"):
            message = f"{request.method} {request.path}: {exc.description}"
            return jsonify({"error": f"request/{exc.code}", "message": message}), exc.code
        if exc.code == 404:
            return render_template("missing.html", message=f"no page at {request.path}"), 404
        return exc

    @app.errorhandler(Exception)
    def _fault(exc: Exception):
        """A fault of the device's own (a bug): logged with its traceback, and under /api/
        a JSON error the pages can show, not Werkzeug's HTML page."""
        app.logger.exception("%s %s failed", request.method, request.path)
        if not request.path.startswith("/api/"):
            return "the device failed on this page; reload it", 500
        message = (
            f"the device failed on {request.method} {request.path} ({type(exc).__name__}); "
            "reload to see the game as it is"
        )
        return jsonify({"error": "device/fault", "message": message}), 500

    return app
