"""Small Islands' pages: the round, the stacks and the face-up row, the ships and the
ranking at the table (no objective until the end); on each phone, its own secret
objective, its turn's choices and the reward phase's islands."""

from flask import Blueprint

bp = Blueprint(
    "small_islands",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
    url_prefix="/games/small-islands",
)
