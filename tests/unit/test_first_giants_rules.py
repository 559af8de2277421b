"""First Giants' rules: set legality and eggs, Set and News tokens, the supply by player
count, forced actions and the end's equal turns (docs/first-giants.md)."""

from dataclasses import replace

import pytest

from companion.engine.game import get_game
from companion.errors import IllegalAction
from companion.games.first_giants import museum
from companion.games.first_giants.museum import Fossil
from companion.games.first_giants.state import (
    Deal,
    DeckEmpty,
    Display,
    Effect,
    GainAmber,
    Reclaim,
    Take,
)
from companion.games.first_giants.views import news_points, set_token_points, total

GAME = get_game("first-giants")


def F(text):
    """'small carnivore' or 'carnivore egg' as a Fossil."""
    a, b = text.split()
    return Fossil(a, "egg") if b == "egg" else Fossil(b, a)


def cards(*texts):
    return tuple(F(t) for t in texts)


def test_a_small_herbivore_on_a_small_carnivore_makes_a_size_set():
    """The rulebook's example: the same Size, different Families: a Size set."""
    laura = cards("small carnivore", "small herbivore")
    assert museum.refusal(laura[:1], laura[1]) is None
    assert museum.kind(laura) == museum.SIZE_SET and museum.news_type(laura) == "size:small"


@pytest.mark.parametrize(
    "set_, card, said",
    [
        (("small carnivore",), "small carnivore", "same Family and same Size"),
        (("small carnivore",), "medium herbivore", "shares the Family"),
        (("small carnivore", "medium carnivore"), "large herbivore", "of carnivore fossils"),
        (("small carnivore", "medium carnivore"), "small carnivore", "already has a small"),
        (("small carnivore", "medium carnivore", "large carnivore"), "carnivore egg", "complete"),
        (("small carnivore", "small herbivore"), "small herbivore", "already has a herbivore"),
        (("small carnivore", "small herbivore"), "medium flying", "of small fossils"),
    ],
)
def test_a_card_that_breaks_a_sets_rule_is_refused_naming_the_rule(set_, card, said):
    assert said in museum.refusal(cards(*set_), F(card))


def test_eggs_are_wild_for_size():
    # an egg joins a Family set as a Size it lacks, and a Size set as its Size
    assert museum.refusal(cards("small carnivore"), F("carnivore egg")) is None
    assert museum.refusal(cards("small carnivore", "carnivore egg"), F("large carnivore")) is None
    assert museum.refusal(cards("small carnivore"), F("herbivore egg")) is None
    size_set = cards("small carnivore", "herbivore egg")
    assert museum.kind(size_set) == museum.SIZE_SET and museum.size_of(size_set) == "small"
    assert "of small fossils" in museum.refusal(size_set, F("medium flying"))
    # two eggs of two Families: a Size set whose Size the next card fixes
    eggs = cards("carnivore egg", "herbivore egg")
    assert museum.news_type(eggs) is None
    assert museum.news_type((*eggs, F("large flying"))) == "size:large"


def test_a_complete_family_set_scores_6_and_a_complete_size_set_12():
    family = cards("small carnivore", "medium carnivore", "large carnivore")
    size = cards(
        "small carnivore", "small herbivore", "small flying", "small marine", "small armoured"
    )
    assert museum.complete(family) and museum.set_points(family) == 2 * 3
    assert museum.complete(size) and museum.set_points(size) == 4 * 3
    assert museum.set_points(family[:2]) == 2  # incomplete: 2 a token


@pytest.mark.parametrize("players, supply", [(2, 14), (3, 20), (4, 24), (5, 24)])
def test_the_set_token_supply_by_player_count(players, supply):
    state = GAME.setup(players, {})
    assert state.supply == supply and state.box == 30 - supply
    assert state.amber == (2,) * players


def _dealt(players=3, deal=None):
    """A game past the deal: each site's two cards as given (default: small carnivores...)."""
    state = GAME.setup(players, {})
    deal = deal or [
        "small carnivore",
        "small herbivore",
        "medium carnivore",
        "large carnivore",
        "carnivore egg",
        "medium herbivore",
        "small flying",
        "small marine",
    ]
    for i, text in enumerate(deal):
        f = F(text)
        state = GAME.apply(state, Deal(i // 2, f.family, f.size))
    assert state.phase == "play"
    return state


def _turn(state, site, slot, refill="small armoured"):
    seat = state.seat
    state = GAME.apply(state, Take(seat, site, slot))
    f = F(refill)
    return GAME.apply(state, Deal(site, f.family, f.size, seat=seat))


def test_a_turn_plays_a_marker_takes_a_card_and_refills_the_site():
    state = _dealt()
    with pytest.raises(IllegalAction, match="none of your markers is at a dig site"):
        GAME.apply(state, Reclaim(0))  # forced: play a marker
    state = _turn(state, 0, 0)
    assert state.study[0] == cards("small carnivore") and state.markers[0] == (0,)
    assert state.sites[0] == cards("small herbivore", "small armoured") and state.seat == 1
    state = _turn(_turn(state, 1, 0), 2, 0)
    with pytest.raises(IllegalAction, match="already holds one of your markers"):
        GAME.apply(state, Take(0, 0, 0))


def test_reclaiming_gives_a_choice_per_marker_and_a_display_costs_its_size():
    state = _dealt()
    state = _turn(_turn(_turn(state, 0, 0), 1, 0), 3, 0)  # Ann, Bo, Cy each take a card
    state = _turn(_turn(_turn(state, 3, 0), 0, 0), 2, 0)  # Ann's second: a small marine
    state = GAME.apply(state, Reclaim(0))
    assert state.markers[0] == () and state.choices == 2
    state = GAME.apply(state, Display(0, 0, -1))  # small carnivore: a new set, 1 amber
    state = GAME.apply(state, Display(0, 0, 0))  # the small marine joins it: a Size set
    assert state.amber[0] == 0 and state.museum[0] == (cards("small carnivore", "small marine"),)
    assert state.tokens[0] == (1,) and state.supply == 19
    assert state.news["size:small"] == (0, False) and news_points(state, 0) == 5
    assert set_token_points(state, 0) == 2 and total(state, 0) == 7 and state.seat == 1


def test_a_display_needs_its_amber():
    state = _dealt(deal=["large carnivore", "large herbivore"] + ["small flying"] * 6)
    state = _turn(state, 0, 0)
    state = replace(state, turns=3, amber=(2, 2, 2))  # Ann again
    state = GAME.apply(state, Reclaim(0))
    with pytest.raises(IllegalAction, match="costs 3 amber and you have 2"):
        GAME.apply(state, Display(0, 0, -1))
    assert GAME.apply(state, GainAmber(0)).amber[0] == 3


def test_news_tokens_are_stolen_by_a_larger_set_and_kept_for_good_once_complete():
    from companion.games.first_giants.rules import _news

    state = _dealt()
    two = cards("small carnivore", "small herbivore")
    state = _news(replace(state, museum=((two,), (), ())), 0, two)
    assert state.news["size:small"] == (0, False)
    same = cards("small flying", "small marine")  # as large: not stolen
    state = _news(replace(state, museum=((two,), (same,), ())), 1, same)
    assert state.news["size:small"] == (0, False)
    three = (*same, F("small armoured"))  # larger: stolen
    state = _news(replace(state, museum=((two,), (three,), ())), 1, three)
    assert state.news["size:small"] == (1, False)
    full = cards(
        "small carnivore", "small herbivore", "small flying", "small marine", "small armoured"
    )
    state = _news(replace(state, museum=((full,), (three,), ())), 0, full)
    assert state.news["size:small"] == (0, True)  # complete first: locked
    bigger = full  # nothing is larger than complete; and a locked token stays
    state = _news(replace(state, museum=((full,), (three,), (bigger,))), 2, bigger)
    assert state.news["size:small"] == (0, True)


def test_the_last_set_token_triggers_the_end_and_play_goes_on_to_equal_turns():
    state = _dealt()
    state = _turn(_turn(_turn(state, 0, 0), 1, 0), 3, 0)
    state = _turn(state, 3, 0)  # Ann holds two small fossils
    state = replace(state, supply=1, box=10)
    state = _turn(state, 2, 0)  # Bo
    state = _turn(state, 0, 0)  # Cy: round 2 over
    state = GAME.apply(state, Reclaim(0))
    state = GAME.apply(GAME.apply(state, Display(0, 0, -1)), Display(0, 0, 0))
    assert state.ending and state.supply == 10 and state.box == 0  # the box joins the supply
    assert state.seat == 1 and not state.ended  # Bo and Cy still play this round
    state = GAME.apply(state, Reclaim(1))  # Bo
    state = GAME.apply(GAME.apply(state, GainAmber(1)), GainAmber(1))
    assert not state.ended
    state = GAME.apply(state, Reclaim(2))  # Cy: everyone has had three turns
    state = GAME.apply(GAME.apply(state, GainAmber(2)), GainAmber(2))
    assert state.ended and GAME.outcome(state).winners == (0,)


def test_an_empty_deck_after_a_refill_triggers_the_end():
    state = _dealt()
    state = GAME.apply(state, Take(0, 0, 0))
    state = GAME.apply(state, DeckEmpty(0))
    assert state.ending and state.deck_empty and state.sites[0] == cards("small herbivore")
    state = GAME.apply(GAME.apply(state, Take(1, 0, 0)), DeckEmpty(1))  # the last card there
    assert state.sites[0] == ()
    with pytest.raises(IllegalAction, match="has no card 1"):
        GAME.apply(state, Take(2, 0, 0))  # an empty site is no target
    state = GAME.apply(GAME.apply(state, Take(2, 1, 0)), DeckEmpty(2))
    assert GAME.outcome(state).reason == "the deck ran out; everyone had equal turns"


def test_effects_are_recorded_with_their_reason_and_amber_never_goes_below_zero():
    state = _dealt()
    state = GAME.apply(state, Effect(1, "Raptor: each opponent gains 1 point", points=1))
    assert state.points(1) == 1 and state.ledger[-1].reason.startswith("Raptor")
    with pytest.raises(IllegalAction, match="has 2 amber: 3 cannot be spent"):
        GAME.apply(state, Effect(0, "spend 3 amber to gain 2 points", points=2, amber=-3))
    with pytest.raises(IllegalAction, match="say which card"):
        GAME.apply(state, Effect(0, "  ", points=1))


def test_a_deck_lists_cards_gains_are_applied_when_taken():
    deck = {
        "cards": [
            {"name": "Raptor", "family": "carnivore", "size": "small", "points": 1, "amber": 1}
        ]
    }
    state = GAME.setup(2, {"deck": deck})
    state = GAME.apply(state, Deal(0, name="Raptor"))
    for i in range(7):
        state = GAME.apply(state, Deal((i + 1) // 2, "herbivore", "small"))
    state = GAME.apply(state, Take(0, 0, 0))
    assert state.points(0) == 1 and state.amber[0] == 3
    assert state.study[0][0].name == "Raptor"
