"""The context one procedure of Parasite runs in: the state, its answers and random stream.

A *procedure* (a player's turn, a phase) runs on a private copy of the state through a
:class:`Ctx`.  Whenever a seat must decide something the orders given so far do not say (which
card to keep, a target for an Event, the Leader's choice on a Crisis, a reaction window), the
procedure calls :meth:`Ctx.ask`: with an answer already filed it returns it, otherwise it raises
:class:`Need` and the engine (rules.py) saves the question.  When the answers come, the
procedure runs again from its start on the same state with the same random key and all the
answers so far, so a procedure is a pure function of (state, answers, key): no continuation is
ever stored, only JSON.

Seats are 0-based ints; the Dog, when in play, is seat ``n`` (it takes no turns and is never
asked anything: the Leader decides for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.game import Event
from pbem.rng import Rng

from .cards import LOCATION_DECKS, CardSet

State = dict[str, Any]
HAND_LIMIT = 3


class Need(Exception):
    """A procedure needs answers from ``seats`` to ``question`` before it can go on."""

    def __init__(self, seats: Sequence[int], question: dict[str, Any], private: dict[int, Any]) -> None:
        super().__init__(question.get("kind"))
        self.seats = tuple(seats)
        self.question = question
        self.private = private


class Aborted(Exception):
    """``seat`` died while their Action or card was being resolved: it never finishes."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class GameOver(Exception):
    """The game ends at once (an ``end-game`` ability, or every player dead)."""

    def __init__(self, why: str, by: int | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.by = by


def who(seat: int, n: int | None = None) -> str:
    """How reports name a seat ("player N", 1-based); seat ``n`` is the Dog."""
    return "the Dog" if n is not None and seat == n else f"player {seat + 1}"


@dataclass
class Play:
    """One card, ability or Action being resolved: who plays it and what they chose."""

    me: int | None
    """The player it belongs to (None for a Helipad card)."""
    chooser: int
    """Who makes its choices (the player, or the Leader for Helipad cards)."""
    name: str
    source: int | None = None
    """The player whose Action or card triggered it (Reactions, Interrupts, passives)."""
    by_player: bool = False
    """A player's Action, card or ability (Interrupts can answer it); Events and Helipad cards are not."""
    helipad: bool = False
    target: int | None = None
    option: int | None = None
    to: str | None = None
    cards: tuple[str, ...] = ()
    chosen: dict[str, int] = field(default_factory=dict)
    targeted: bool = False
    cancelled: bool = False
    prevented: bool = False


class Ctx:
    """The state being changed by one procedure, its answers, its random stream and events."""

    def __init__(self, state: State, cards: CardSet, answers: list[dict[str, Any]], rng: Rng) -> None:
        self.s = state
        self.cards = cards
        self.answers = answers
        self.pos = 0
        self.rng = rng
        self.events: list[Event] = []
        self.n: int = state["n"]
        self.extra = 0

    # ------------------------------------------------------------------ asking and telling

    def ask(
        self, seats: Sequence[int], question: dict[str, Any], private: dict[int, Any] | None = None
    ) -> dict[int, Any]:
        """The answers of ``seats`` to ``question`` (public) with ``private`` details per seat.
        Raises Need when they are not filed yet."""
        if self.pos < len(self.answers):
            got = self.answers[self.pos]
            self.pos += 1
            out = {int(k): v for k, v in got.items()}
            for seat, answer in out.items():
                self.standing(seat, answer)
            return out
        raise Need(seats, question, private or {})

    def standing(self, seat: int, answer: Any) -> None:
        """Apply the standing orders filed with an answer: reactions and the keep preference."""
        if not isinstance(answer, dict):
            return
        mine = self.s["reactions"][seat]
        for gone in answer.get("withdraw", ()):
            mine[:] = [r for r in mine if gone != "all" and r["card"] != gone]
        for new in answer.get("react", ()):
            mine[:] = [r for r in mine if r["card"] != new["card"]] + [dict(new)]
        if "prefer" in answer:
            self.s["prefer"][seat] = answer["prefer"]

    def say(self, text: str, to: Sequence[int] | None = None) -> None:
        """Report an event: to everyone, or only to ``to`` (the Dog's seat is dropped)."""
        if to is None:
            self.events.append(Event(text))
            return
        seats = tuple(sorted({t for t in to if t < self.n}))
        if seats:
            self.events.append(Event(text, seats))
            for seat in seats:
                self.s["notes"][seat].append(f"Round {self.s['round']}: {text}")

    def name(self, seat: int) -> str:
        return who(seat, self.n)

    def chooser(self, play: Play) -> int:
        """Who makes ``play``'s choices now: the current Leader for a Helipad card (a new
        Leader if the last one died of it), else its player."""
        return int(self.s["leader"]) if play.helipad else play.chooser

    def card_name(self, card_id: str) -> str:
        if card_id in self.cards.cards:
            return self.cards.cards[card_id].name
        return self.cards.infections[card_id].name

    # ------------------------------------------------------------------ facts

    def seats(self) -> range:
        """Every seat that can be targeted: the players, and the Dog when in play."""
        return range(self.n + (1 if self.s["dog"] else 0))

    def alive(self, seat: int) -> bool:
        return self.s["health"][seat] != "dead"

    def living(self) -> list[int]:
        """Living players (not the Dog), from the Leader clockwise."""
        lead = self.s["leader"]
        order = [(lead + k) % self.n for k in range(self.n)]
        return [s for s in order if self.alive(s)]

    def living_all(self) -> list[int]:
        """Living players and the living Dog."""
        out = self.living()
        if self.s["dog"] and self.alive(self.n):
            out.append(self.n)
        return out

    def loc(self, seat: int) -> str | None:
        loc: str | None = self.s["loc"][seat]
        return loc

    def here(self, seat: int, others: bool = True, dog: bool = True) -> list[int]:
        """Living seats in ``seat``'s Location (without ``seat`` when ``others``)."""
        where = self.loc(seat)
        pool = self.living_all() if dog else self.living()
        return [s for s in pool if where is not None and self.loc(s) == where and not (others and s == seat)]

    def priority(self, seat: int) -> str:
        """The seat's Infection card with the highest priority."""
        cards = self.s["infection"][seat]
        return max(cards, key=lambda c: self.cards.infections[c].priority)

    def side(self, seat: int) -> str:
        return self.cards.infections[self.priority(seat)].side

    def next_living(self, seat: int) -> int | None:
        for k in range(1, self.n + 1):
            nxt = (seat + k) % self.n
            if self.alive(nxt):
                return nxt
        return None

    # ------------------------------------------------------------------ moving cards

    def discard_card(self, card: str) -> None:
        """Put a card face down on its deck's discard pile."""
        self.s["discards"][self.cards.cards[card].deck].append(card)

    def deck_of_location(self, seat: int) -> str | None:
        where = self.loc(seat)
        return where if where in LOCATION_DECKS else None
