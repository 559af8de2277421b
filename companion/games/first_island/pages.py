"""The First Island's pages: its part of the table page (the roll, who still marks, the S
card to turn up) and of each phone (the dice, the island map, the camp cards), drawn by its
own scripts (static/) into the shell's pages (templates/first_island/)."""

from flask import Blueprint

bp = Blueprint(
    "first_island",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
    url_prefix="/games/first-island",
)
