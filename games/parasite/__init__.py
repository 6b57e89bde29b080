"""Parasite (Mad Birch Games, 2024) for pbem: the plug-in object ``GAME``.

The card set is data (data/*.toml, read by cards.py against the vocabulary of EFFECTS.md);
the rules are in rules.py and the effect executor in effects.py (with context.py, targets.py,
verbs.py, triggers.py and winning.py), the view in view.py, order files in orders.py and
forms.py, the bots in bots.py, report text in report.py, the board picture in svg.py and the
archive's charts in charts.py; rulings are in games/parasite/README.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game import JSON, Bot, Chartable, GameInfo, OrderLine, Outcome, Resolution, State, Variant, View
from pbem.padding import Padding
from pbem.rng import Rng

INFO = GameInfo(
    name="parasite",
    title="Parasite",
    min_players=4,
    max_players=8,
    summary="Hidden roles at an Arctic base: escape by helicopter, unless you are no longer human.",
    hidden_information=True,
    variants=(
        Variant(
            "dog", "The Dog expansion: a non-playable Dog with its own Infection card (best with 4-5).", False
        ),
        Variant(
            "arctic-pot-luck",
            "Arctic Pot-luck: the Infection deck is drawn from all cards, either side.",
            False,
        ),
        Variant(
            "untidy", "Untidy: each Location deck mixes 12 of its own cards with 6 of each other.", False
        ),
        Variant(
            "unknown-infections",
            "Unknown Infections: the tokens players carry are hidden until the end.",
            False,
        ),
        Variant(
            "difficulty",
            "The rulebook's difficulty adjustment: standard, easier (1 more Human card) "
            "or harder (1 more Parasite).",
            "standard",
            ("standard", "easier", "harder"),
        ),
        Variant(
            "reactions",
            "standing: Reactions and Interrupts are filed beforehand as sealed standing orders; windows: at "
            "every trigger every living player is asked, holder or not.",
            "standing",
            ("standing", "windows"),
        ),
        Variant(
            "leader",
            "Who holds the Leader token first: the first seat, or a random seat.",
            "first-seat",
            ("first-seat", "random"),
        ),
        Variant(
            "start-location",
            "Where everyone starts and returns after a Mission (the rulebook's icon is lost).",
            "helipad",
            ("helipad", "office", "storehouse", "laboratory"),
        ),
        Variant(
            "activation-events",
            "drawn: an Event among the two cards of an activation resolves at once; kept: only if kept.",
            "drawn",
            ("drawn", "kept"),
        ),
        Variant(
            "characters",
            "Characters dealt at random, or in the data's order by seat.",
            "random",
            ("random", "seat-order"),
        ),
        Variant(
            "round-order",
            "rulebook: a round is the Game Phase, the Escape Phase, then the Infection Phase; "
            "infection-first: the Infection Phase before the Escape Phase (games saved before the "
            "rules audit).",
            "rulebook",
            ("rulebook", "infection-first"),
        ),
        Variant(
            "dog-first-move",
            "The Dog moves at the start of every Game Phase: round-1 (the rulebook: the first "
            "round's too) or round-2 (from the second round on, as games saved before the rules "
            "audit).",
            "round-1",
            ("round-1", "round-2"),
        ),
        Variant(
            "hand-limit",
            "When the hand limit of three is checked: end-of-turn (the rulebook: 'When giving cards "
            "at the end of the Turn') or start-of-turn (as games saved before the rules audit).",
            "end-of-turn",
            ("end-of-turn", "start-of-turn"),
        ),
    ),
    docs="games/parasite/README.md",
    padding=Padding(report=8192, secret=16384, secret_per_turn=1024),
)


class Parasite:
    """The Parasite rules behind the pbem plug-in API (see pbem.game.Game)."""

    info = INFO

    @property
    def bots(self) -> Mapping[str, Bot]:
        from .bots import BOTS

        return BOTS

    def setup(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        """Set up a game.  Raises ValueError for a bad player count or option."""
        from . import rules

        return rules.setup(players, options, rng)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seats asked the question awaited (public: it depends only on public facts)."""
        if state["over"] or state["pending"] is None:
            return ()
        return tuple(state["pending"]["ask"]["seats"])

    def observe(self, state: State, seat: int | None) -> View:
        """The allow-list view of ``state`` for ``seat``."""
        from . import view

        return view.observe(state, seat)

    def order_form(self, view: View) -> list[str]:
        from . import forms

        return forms.order_form(view)

    def validate(self, view: View, lines: Sequence[OrderLine]) -> JSON:
        """Check an order file; raises OrderErrors listing every bad line."""
        from . import orders

        return orders.validate(view, lines)

    def default_orders(self, view: View) -> list[str]:
        from . import forms

        return forms.default_orders(view)

    def resolve(self, state: State, orders: Mapping[int, JSON], rng: Rng) -> Resolution:
        from . import rules

        return rules.resolve(state, orders, rng)

    def outcome(self, state: State) -> Outcome | None:
        """Winners once the game is over (several or none)."""
        if not state["over"]:
            return None
        winners = tuple(state["winners"] or ())
        names = " and ".join(f"player {w + 1}" for w in winners) or "nobody"
        return Outcome(winners=winners, scores=None, summary=f"{names} won ({state['why']}).")

    def describe(self, view: View) -> tuple[str, str]:
        from . import report

        return report.describe(view)

    def charts(self, view: View) -> Chartable:
        """pbem archive's charts: health, tokens carried and hand sizes, from ``view`` only."""
        from . import charts

        return charts.charts(self, view)

    def order_lines(self, view: View, orders: JSON) -> list[str]:
        """Validated orders written back as order lines (pbem archive)."""
        from . import charts

        return charts.order_lines(self, view, orders)

    def press_phase(self, view: View) -> tuple[str, str] | None:
        """The press phase of a public view (pbem.press): turn, reaction-window, infection,
        escape-phase or end; Parasite narrows nothing itself (games/parasite/press.py)."""
        from . import press

        return press.press_phase(self, view)

    def describe_private(self, view: View) -> str:
        """The private text of :meth:`describe` alone (pbem renders the public text once a turn)."""
        from . import report

        return report.describe_private(view)

    def pictures(self, view: View) -> dict[str, str]:
        """The board as SVG (public facts only)."""
        from . import svg

        return {"board.svg": svg.board(view)}


GAME = Parasite()

__all__ = ["GAME", "INFO", "Parasite"]
