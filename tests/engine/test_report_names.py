"""Seat references found from their literal "layer " (issue 13, seventh session): the same
text as the definition's substitution, for any text and any names."""

from __future__ import annotations

import os
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import wording
from pbem.wording import name_seats

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "400"))


def _defined(text: str, names: list[str]) -> str:
    """The substitution :func:`name_seats` stands for (its first version)."""

    def swap(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return names[index] if 0 <= index < len(names) else match.group(0)

    return wording._SEAT_RE.sub(swap, text)


_PIECES = st.sampled_from(
    ["player ", "Player ", "layer ", "PLAYER ", "p", "P", "x", "_", "é", " ", "\n", "1", "2", "12", "123",
     "0", "\u0661", "9", "a", ".", "player 1", "xplayer 2", "player 2x", "Player 10"]
)  # fmt: skip


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join), st.lists(st.text(max_size=4), max_size=12))
def test_names_put_in_as_the_definition_does(text: str, names: list[str]) -> None:
    assert name_seats(text, names) == _defined(text, names)


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(st.text(max_size=40), st.lists(st.text(max_size=3), max_size=3))
def test_any_text(text: str, names: list[str]) -> None:
    assert name_seats(text, names) == _defined(text, names)


def test_the_search_starts_at_the_literal() -> None:
    """The pattern the search uses begins with its literal (the regex engine's fast skip)."""
    assert wording._SEAT_AT.pattern.startswith("layer ")
    text = "The symbiote is with player 2; Player 1 and xplayer 3, player 12 and player 4."
    assert name_seats(text, ["alice", "bob", "carol", "dave"]) == (
        "The symbiote is with bob; alice and xplayer 3, player 12 and dave."
    )
