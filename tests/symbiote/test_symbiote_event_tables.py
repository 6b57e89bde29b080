"""The shared event tables of Symbiote's rules (issue 13, speed): every discard a game can
say fits in its table, so a long run makes each discard's event once; the events and the
marker's moves are the rules' whatever the table holds; the private draw events stay few."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.game import Event
from pbem_games.symbiote import rules
from pbem_games.symbiote.cards import DECK, RANK, moves_marker

HOWS = ("discards", "is made to discard")


def _state(below: str | None, tens_always_move: bool) -> dict[str, Any]:
    """The fields discard_card reads and writes, player 2 hosting the symbiote at a table of 4."""
    return {
        "n": 4,
        "opt": {**rules.OPTION_DEFAULTS, "tens-always-move": tens_always_move},
        "discard": [] if below is None else ["2C", below],
        "aside": [],
        "host": 1,
        "parasite": False,
    }


def _discard_all(tens_always_move: bool) -> list[tuple[Any, ...]]:
    """Every (how, seat, card, below) discard, as (events, host, parasite, pile, aside) after it."""
    out = []
    for how in HOWS:
        for seat in range(4):
            for card in DECK:
                for below in (None, *DECK):
                    state = _state(below, tens_always_move)
                    events: list[Event] = []
                    rules.discard_card(state, seat, card, events, how)
                    out.append(
                        (tuple(events), state["host"], state["parasite"], state["discard"], state["aside"])
                    )
    return out


def test_every_discard_is_made_once_and_the_table_never_starts_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """All 2 x 4 x 52 x 53 discards twice: the second time no event is made again (with the
    8,192 entries kept before, the table was emptied on the way and most were made again)."""
    monkeypatch.setattr(rules, "_DISCARDS", {})
    made: list[tuple[Any, ...]] = []
    real = rules._discarded

    def counting(key: Any) -> Any:
        made.append(key)
        return real(key)

    monkeypatch.setattr(rules, "_discarded", counting)
    first = _discard_all(True)
    assert len(made) == len(set(made)) == 2 * 4 * 52 * 53
    assert _discard_all(True) == first
    assert len(made) == 2 * 4 * 52 * 53
    assert len(rules._DISCARDS) == 2 * 4 * 52 * 53 <= rules._KEPT


@pytest.mark.parametrize("tens_always_move", [True, False])
def test_discard_events_and_moves_are_the_rules_whatever_the_table_holds(
    monkeypatch: pytest.MonkeyPatch, tens_always_move: bool
) -> None:
    """Each discard says what the rules say and moves the marker as marker_target says (the
    rule forms and bots use); a ten goes aside, anything else on the pile."""
    monkeypatch.setattr(rules, "_DISCARDS", {})
    fresh = _discard_all(tens_always_move)  # (the table's answers are these: the test above)
    k = 0
    for how in HOWS:
        for seat in range(4):
            for card in DECK:
                for below in (None, *DECK):
                    events, host, parasite, pile, aside = fresh[k]
                    k += 1
                    target = rules.marker_target(4, 1, card, below, tens_always_move)
                    assert host == (1 if target is None else target)
                    assert parasite == (target is not None and RANK[card] == 10)
                    assert (aside == [card]) == (RANK[card] == 10)
                    assert pile == ([] if below is None else ["2C", below]) + (
                        [] if RANK[card] == 10 else [card]
                    )
                    assert all(e.to is None for e in events)
                    text = events[0].text
                    assert text.startswith(f"player {seat + 1} {how} {card}")
                    assert text.endswith("Sym-biote!") == (RANK[card] != 10 and moves_marker(card, below))
                    assert len(events) == (1 if target is None else 2)


def test_private_draw_events_are_kept_for_single_cards_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """One drawn card: one shared event per (seat, card), at most 4 x 52; several cards (which
    rarely repeat) are told afresh each time, so the table does not grow with them."""
    monkeypatch.setattr(rules, "_TOLD", {})
    for seat in range(4):
        for card in DECK:
            assert rules._you_drew(seat, [card]) is rules._you_drew(seat, [card])
    assert len(rules._TOLD) == 4 * 52
    several = rules._you_drew(2, ["KS", "AH", "7D"])
    assert several == Event("You drew AH 7D KS.", (2,))
    assert len(rules._TOLD) == 4 * 52
