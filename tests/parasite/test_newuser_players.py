"""A new user names a player in a Parasite order by their pbem name (``distress bob``), as
the form's list ("distress PLAYER: medic (bob), ...") suggests.  Orders name a player by
character or ``player N``, and the refusal used to list the characters alone ("name their
character (mechanic, medic, ...)"), so the player could not tell which character was bob.
Now it lists each character with its seat, which pbem shows as the player's name."""

from __future__ import annotations

import pytest
from para_helpers import lines, new_game

from pbem.game import OrderError, OrderErrors
from pbem_games.parasite import GAME

NAMES = ["alice", "bob", "carol", "dave"]


def _refusal(order: str, **options: object) -> OrderError:
    state = new_game(4, **options)
    with pytest.raises(OrderErrors) as info:
        GAME.validate(GAME.observe(state, 0), lines([order, "stay"]))
    [error] = info.value.errors
    return error


def test_a_players_name_gets_the_characters_with_their_players() -> None:
    error = _refusal("distress bob")
    text = error.describe("orders.txt", NAMES)
    assert "'bob' is not a player: name them by their character:" in text
    chars = GAME.observe(new_game(4), 0).public["chars"]
    for name, char in zip(NAMES, chars, strict=True):
        assert f"{char} ({name})" in text  # e.g. "medic (bob)"
    assert "player 2" not in text  # seats never reach a person


def test_with_the_dog_the_list_ends_with_it() -> None:
    text = _refusal("distress bobb", dog=True, **{"dog-first-move": "round-2"}).describe("orders.txt", NAMES)
    assert text.rstrip().endswith(", dog")


def test_the_character_the_message_names_is_accepted() -> None:
    state = new_game(4)
    char = GAME.observe(state, 0).public["chars"][1]
    orders = GAME.validate(GAME.observe(state, 0), lines([f"distress {char}", "stay"]))
    assert orders  # the order the refusal points to is a legal one
