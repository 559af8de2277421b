"""A game's exports: its board and log as JSON, and its score lines as CSV for a spreadsheet.
Under /api, answering errors as the API does."""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response

from companion.errors import CompanionError, IllegalAction, UnknownGame
from companion.web.api import error_response
from companion.web.gameview import game_json, hub, logged

bp = Blueprint("export", __name__, url_prefix="/api")
bp.register_error_handler(CompanionError, error_response)


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str):
    """The game's record: its setup, seats, score rows and outcome, the log as everyone may
    read it, and each seat's board file (``companion score`` reads one) where the game has
    them and nothing is hidden any more."""
    s = hub().session(game_id)
    data = game_json(game_id)
    data["log"] = [_entry(s, e) for e in s.entries]
    if s.outcome() is not None or not s.game.hidden_information:
        boards = [s.game.board_file(s.state, seat) for seat in range(s.players)]
        if any(b is not None for b in boards):
            data["boards"] = boards
    return Response(
        json.dumps(data, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename={game_id}.json"},
    )


@bp.get("/games/<game_id>/board-<int:seat>.json")
def export_board(game_id: str, seat: int):
    """A seat's board file, as ``companion score GAME FILE`` reads it (a game that keeps its
    boards hidden gives them once it is over)."""
    s = hub().session(game_id)
    if not 0 <= seat < s.players:
        raise IllegalAction(
            f"there is no seat {seat + 1} in a {s.players}-player game", code="action/bad_seat"
        )
    board = s.game.board_file(s.state, seat)
    if board is None:
        raise UnknownGame(f"{s.game.title} has no board files")
    if s.game.hidden_information and s.outcome() is None:
        raise IllegalAction(
            "a board of a game with hidden information is given once the game is over",
            code="action/hidden",
        )
    return Response(
        json.dumps(board, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename={game_id}-seat{seat + 1}.json"},
    )


def _entry(s, entry) -> dict:
    """One entry of the log as everyone may read it: an action (the game's sentence for it,
    and the action where it is public), or an undo or redo naming the entry it takes back."""
    if entry.kind != "action":
        return {
            "seq": entry.seq,
            "kind": entry.kind,
            "seat": entry.seat,
            "target": entry.payload["target"],
            "created": entry.created,
        }
    return {"kind": "action", **logged(s, entry, None), "created": entry.created}


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
    for row in s.score_rows():
        if row.seat is None:
            number, name = "", _as_text(row.name or "")
        else:
            number, name = (
                row.seat + 1,
                _as_text(seats.get(row.seat, (f"Player {row.seat + 1}",))[0]),
            )
        for line in row.lines:
            w.writerow([number, name, line.label, line.points])
        w.writerow([number, name, "Total", row.total])
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename={game_id}.csv"},
    )
