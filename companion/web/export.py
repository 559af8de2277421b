"""A game's exports: its board and log as JSON, and its score lines as CSV for a spreadsheet.
Under /api, answering errors as the API does."""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response

from companion.errors import CompanionError
from companion.web.api import error_response, game_json, hub

bp = Blueprint("export", __name__, url_prefix="/api")
bp.register_error_handler(CompanionError, error_response)


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str):
    s = hub().session(game_id)
    data = game_json(game_id)
    data["log"] = s.history()
    data["scores"] = s.score()
    return Response(
        json.dumps(data, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename={game_id}.json"},
    )


def _as_text(cell: str) -> str:
    """A typed-in cell a spreadsheet would run as a formula (=, +, -, @, a tab or a return
    first: CSV injection), with a leading apostrophe so it is shown as the text it is."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str):
    s = hub().session(game_id)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["seat", "name", "line", "points"])
    seats = hub().store.seats(game_id)
    for seat, score in enumerate(s.score()):
        name = _as_text(seats.get(seat, (f"Player {seat + 1}",))[0])
        for tribe, t in score.get("tribes", {}).items():
            w.writerow([seat + 1, name, f"{tribe} base", t["base"]])
            w.writerow([seat + 1, name, f"{tribe} request", t["request"]])
        for line in ("overrides", "camp_cards", "total"):
            if line in score:
                w.writerow([seat + 1, name, line, score[line]])
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename={game_id}.csv"},
    )
