"""The First Island's setup: a new game's options checked and read, and its starting state
(empty boards, a card in each hand, the S card where its points are known)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalAction
from companion.games.first_island.hexgrid import Island, default_island
from companion.games.first_island.model import card_rules, deck_card, table_card
from companion.games.first_island.state import (
    DIFFICULTIES,
    VARIANTS,
    Options,
    PlayerBoard,
    State,
)


def _setup_error(message: str) -> IllegalAction:
    return IllegalAction(message, code="setup/invalid")


def parse_options(players: int, options: Mapping[str, Any]) -> tuple[Options, Island]:
    """Validate setup options; unknown keys and bad values are named in the error."""
    known = {"camp_cards", "variant", "difficulty", "map", "s_card"}
    unknown = set(options) - known
    if unknown:
        raise _setup_error(
            f"unknown option(s) {', '.join(sorted(unknown))}; The First Island takes "
            f"{', '.join(sorted(known))}"
        )
    if not isinstance(players, int) or not 1 <= players <= 6:
        raise _setup_error(f"The First Island is for 1 to 6 players, not {players!r}")
    camp_cards = options.get("camp_cards", True)
    if not isinstance(camp_cards, bool):
        raise _setup_error(f"camp_cards must be true or false, not {camp_cards!r}")
    variant = options.get("variant", "standard")
    if variant not in VARIANTS:
        raise _setup_error(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    difficulty = options.get("difficulty")
    if players == 1:
        difficulty = difficulty or "standard"
        if difficulty not in DIFFICULTIES:
            raise _setup_error(
                f"solo difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}"
            )
        if not camp_cards:
            # its targets count camp cards completed: without the cards it cannot be won
            raise _setup_error(
                "the solo game needs the camp cards: its targets count the cards completed "
                "(set camp_cards to true)"
            )
    elif difficulty is not None:
        raise _setup_error("a difficulty is for the solo game only (players = 1)")
    s_card = options.get("s_card")
    if s_card is not None:
        points = card_rules(difficulty or variant).table_points
        if not camp_cards or s_card not in points:
            raise _setup_error(
                f"the S card turned up is worth {', '.join(map(str, sorted(set(points))))} "
                f"points in this game, not {s_card!r}"
                if camp_cards
                else "an S card is for a game with camp cards"
            )
    island = default_island()
    if options.get("map") is not None:
        from companion.games.first_island.boardfile import parse_map

        island = parse_map(options["map"])
    return Options(camp_cards, variant, difficulty), island


def setup(players: int, options: Mapping[str, Any]) -> State:
    """A new game: empty boards, a 6-deck card in each hand (4 in the easy games), and the
    S card on the table where its points are known (told by ``s_card``, or the only ones
    in play); else it is told with ``deal_table_card`` before the first roll."""
    opts, island = parse_options(players, options)
    hand = table = None
    if opts.camp_cards:
        rules = card_rules(opts.card_variant)
        hand = deck_card(rules.hand_chain[0])
        if options.get("s_card") is not None:
            table = table_card(options["s_card"])
        elif len(set(rules.table_points)) == 1:
            table = table_card(rules.table_points[0])
    boards = tuple(PlayerBoard(hand=hand) for _ in range(players))
    return State(players=players, island=island, options=opts, boards=boards, table=table)
