"""Rules audit: the hand limit is checked at the end of the Turn.

The rulebook, Hand Cards: "When giving cards at the end of the Turn, cards must be given
without showing them to other players" - the only giving of a Turn is the hand limit's ("The
hand limit is three cards.  Discard or give cards to another player in your Location until you
have three or fewer cards in your hand").  pbem checked it at the start of the Turn, so a card
kept from the activation stayed a fourth card until the player's next Turn.  Now the Turn file
may name the cards to discard or give (a gift goes to a player in the Location where the Turn
ends), and a player still above three is asked then which to discard.  Games saved before the
audit keep the check at the start (option ``hand-limit=start-of-turn``).
"""

from __future__ import annotations

from typing import Any

import pytest
from para_helpers import asked, edit, file, lines, new_game, texts

from pbem.game import OrderErrors
from pbem_games.parasite import GAME, forms

State = dict[str, Any]


def _position(hand: list[str], **more: Any) -> State:
    """Player 1 to play, on an active Mission (its activation draws nothing), the others on
    the Helipad; the Office deck holds two Action cards; no standing reactions."""

    def change(s: State) -> None:
        s["hands"][0] = list(hand)
        s["mission"] = "fuel-run"
        s["loc"][0] = "mission"
        s["decks"]["office"] = ["pep-talk", "stitches"]
        s["reactions"] = [[] for _ in range(4)]
        for key, value in more.items():
            s[key] = value

    return edit(new_game(4), change)


def test_a_card_kept_from_the_activation_is_discarded_at_the_end_of_the_turn() -> None:
    """ "Discard ... until you have three or fewer cards in your hand", at the end of the
    Turn: the fourth card, kept from the Office, may itself be the one discarded."""
    s = _position(["crowbar", "sled", "blood-test"])
    kept = file(s, {0: ["move office"]}).state
    assert asked(kept) == ((0,), "keep")
    at_end = file(kept, {0: ["keep stitches"]})
    assert asked(at_end.state) == ((0,), "discard")
    question = at_end.state["pending"]["ask"]["question"]
    assert (question["for"], question["count"]) == ("the hand limit", 1)
    assert GAME.observe(at_end.state, 0).private["ask"]["hand"] == [
        "crowbar",
        "sled",
        "blood-test",
        "stitches",
    ]
    done = file(at_end.state, {0: ["discard stitches"]})
    assert sorted(done.state["hands"][0]) == ["blood-test", "crowbar", "sled"]
    assert "stitches" in done.state["discards"]["laboratory"]
    assert "Player 1 discards a card (hand limit)." in texts(done)
    assert not any("Stitches" in t for t in texts(done)), "discarded face down"
    assert asked(done.state) == ((1,), "turn")


def test_four_cards_at_the_start_of_the_turn_need_no_discard_before_the_action() -> None:
    """The limit is not checked before the Action: a player given a fourth card between
    Turns may play it, and ends with three."""
    s = _position(["crowbar", "sled", "blood-test", "pep-talk"])
    edit(s, lambda s: s["loc"].__setitem__(1, "mission"))
    GAME.validate(GAME.observe(s, 0), lines(["stay"]))
    result = file(s, {0: ["play pep-talk on player 2", "stay"]})
    assert sorted(result.state["hands"][0]) == ["blood-test", "crowbar", "sled"]
    assert asked(result.state) == ((1,), "turn"), "three cards at the end: nobody is asked"


def test_a_gift_named_in_the_turn_file_goes_to_a_player_where_the_turn_ends() -> None:
    """ "Discard or give cards to another player in your Location" - the Location at the end
    of the Turn; "cards must be given without showing them to other players"."""
    s = _position(["crowbar", "sled", "blood-test"], prefer=[["action"], None, None, None])
    edit(s, lambda s: s["loc"].__setitem__(1, "office"))
    result = file(s, {0: ["give crowbar to player 2", "move office"]})
    state = result.state
    assert "crowbar" in state["hands"][1]
    assert sorted(state["hands"][0]) == ["blood-test", "sled", "stitches"]
    assert "Player 1 gives a card to player 2 (hand limit)." in texts(result)
    assert not any("Crowbar" in t for t in texts(result))
    assert any("Crowbar" in t for t in texts(result, 1))


def test_a_gift_to_a_player_not_in_the_location_at_the_end_is_discarded() -> None:
    """A gift needs the player in your Location: named for one who is elsewhere when the Turn
    ends, the card is discarded instead (as it always was at the start of the Turn)."""
    s = _position(["crowbar", "sled", "blood-test"], prefer=[["action"], None, None, None])
    state = file(s, {0: ["give crowbar to player 2", "move office"]}).state
    assert "crowbar" not in state["hands"][1] and "crowbar" in state["discards"]["storehouse"]
    assert len(state["hands"][0]) == 3


def test_the_form_says_when_the_limit_is_checked() -> None:
    """The order form tells the player the limit comes at the end, and how to name cards."""
    s = _position(["crowbar", "sled", "blood-test", "pep-talk"])
    text = "\n".join(forms.order_form(GAME.observe(s, 0)))
    assert "At the end of your Turn, the hand limit of 3" in text
    assert forms.default_orders(GAME.observe(s, 0))[-1] == "stay"


def test_start_of_turn_keeps_the_old_check() -> None:
    """Games saved before the audit check the limit first, as they were played."""
    s = new_game(4, **{"hand-limit": "start-of-turn"})
    edit(s, lambda s: s["hands"].__setitem__(0, ["crowbar", "sled", "blood-test", "pep-talk"]))
    with pytest.raises(OrderErrors, match="discard or give 1 more"):
        GAME.validate(GAME.observe(s, 0), lines(["stay"]))
