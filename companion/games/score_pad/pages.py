"""The score pad's pages: the sheet and the last roll with its sum at the table, where any
player's points can be entered; on each phone, the player's own lines of this round."""

from flask import Blueprint

bp = Blueprint(
    "score_pad",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
    url_prefix="/games/score-pad",
)
