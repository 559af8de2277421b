"""The First War's pages: the hex map with both sides' pieces at the table; on each phone,
the phase's choices (moves, stacks and cover, retreats, hunger wounds, research)."""

from flask import Blueprint

bp = Blueprint(
    "first_war",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
    url_prefix="/games/first-war",
)
