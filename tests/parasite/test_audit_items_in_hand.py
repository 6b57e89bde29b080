"""Rules audit: an Item in the hand can be placed on the character.

The rulebook, Hand Cards: "Item cards already placed on a Character card do not count as hand
cards" - an Item may be in the hand before it is placed.  pbem places an Item kept from an
activation at once, but an Item that reached the hand otherwise (a starting card, a card's
draw such as the Mechanic's Spare parts or Supply Cache, a gift, a theft) could never be
placed, used or played: dead weight counted against the hand limit.  Now the Turn file's
``place ITEM`` puts it on the character, free (placing is not one of the Turn's Actions, as
placing a kept Item is not), before the Action, so it can be used the same Turn.
"""

from __future__ import annotations

from typing import Any

import pytest
from para_helpers import asked, edit, file, lines, new_game, texts

from pbem.game import OrderErrors
from pbem_games.parasite import GAME, forms

State = dict[str, Any]


def _position(hand: list[str]) -> State:
    """Player 1 to play with ``hand``, on an active Mission (its activation draws nothing)."""

    def change(s: State) -> None:
        s["hands"][0] = list(hand)
        s["mission"] = "fuel-run"
        s["loc"][0] = "mission"
        s["reactions"] = [[] for _ in range(4)]

    return edit(new_game(4), change)


def test_an_item_in_the_hand_is_placed_and_used_in_the_same_turn() -> None:
    """An Item in the hand was unusable; placed, it is "used" as the Turn's Action."""
    s = _position(["hunting-rifle", "crowbar"])
    with pytest.raises(OrderErrors, match="not an Item on your character"):
        GAME.validate(GAME.observe(s, 0), lines(["use hunting-rifle on player 3", "stay"]))
    result = file(s, {0: ["place hunting-rifle", "use hunting-rifle on player 3", "stay"]})
    state = result.state
    assert "Player 1 places the Item Hunting Rifle on their character." in texts(result)
    assert state["health"][2] == "distressed"
    assert "hunting-rifle" in state["discards"]["storehouse"], "the Rifle is discarded after use"
    assert state["hands"][0] == ["crowbar"]


def test_a_placed_item_no_longer_counts_as_a_hand_card() -> None:
    """ "Item cards already placed on a Character card do not count as hand cards": four
    cards with an Item among them, placed, leave three - no hand limit to meet."""
    s = _position(["headlamp", "crowbar", "sled", "blood-test"])
    state = file(s, {0: ["place headlamp", "stay"]}).state
    assert state["items"][0] == ["headlamp"]
    assert sorted(state["hands"][0]) == ["blood-test", "crowbar", "sled"]
    assert asked(state) == ((1,), "turn"), "three hand cards at the end: nobody is asked"
    assert GAME.observe(state, 2).public["items"][0] == ["headlamp"], "Items lie face up"


def test_only_items_held_can_be_placed() -> None:
    s = _position(["crowbar", "headlamp"])
    view = GAME.observe(s, 0)
    with pytest.raises(OrderErrors, match="not an Item"):
        GAME.validate(view, lines(["place crowbar", "stay"]))
    with pytest.raises(OrderErrors, match="you do not hold radio-set"):
        GAME.validate(view, lines(["place radio-set", "stay"]))
    with pytest.raises(OrderErrors, match="you do not hold headlamp"):
        GAME.validate(view, lines(["place headlamp", "place headlamp", "stay"]))


def test_the_form_offers_to_place_an_item_in_the_hand() -> None:
    s = _position(["hunting-rifle", "crowbar"])
    text = "\n".join(forms.order_form(GAME.observe(s, 0)))
    assert "place hunting-rifle" in text
    assert "place crowbar" not in text


def test_the_archive_writes_a_placement_back_as_it_was_ordered() -> None:
    """pbem archive's order lines validate to the same orders."""
    s = _position(["hunting-rifle", "crowbar"])
    view = GAME.observe(s, 0)
    orders = GAME.validate(view, lines(["place hunting-rifle", "use hunting-rifle on player 3", "stay"]))
    written = GAME.order_lines(view, orders)
    assert written[0] == "place hunting-rifle"
    assert GAME.validate(view, lines(written)) == orders
