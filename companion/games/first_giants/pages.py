"""First Giants' pages: the dig sites, the Set token supply, the News tokens and every
museum at the table; on each phone, the player's study, amber and museum, with the cards
they may take and only the displays the rules allow."""

from flask import Blueprint

bp = Blueprint(
    "first_giants",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
    url_prefix="/games/first-giants",
)
