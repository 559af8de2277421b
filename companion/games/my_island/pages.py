"""My Island's pages: the island and the production-point ledger at the table; on each
phone, the tile to play (square, turn, then the tile by its catalogue number or its value,
edges and communities) with what it would score before it is confirmed."""

from flask import Blueprint

bp = Blueprint(
    "my_island",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
    url_prefix="/games/my-island",
)
