"""Symbiote (Invisible City Productions, 2003) for pbem: the plug-in object ``GAME``.

The rules are in rules.py, the view in view.py, order files in orders.py and forms.py, the
bots in bots.py and report text in report.py; rulings are in games/symbiote/README.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import Bot, GameInfo, Outcome, State, Variant, View
from pbem.lazy import lazy
from pbem.padding import Padding
from pbem.rng import Rng

INFO = GameInfo(
    name="symbiote",
    title="Symbiote",
    min_players=3,
    max_players=4,
    summary="Pass the symbiote, dodge the parasite, and score pairs adding to 10 and royal J-Q-K sets.",
    hidden_information=True,
    variants=(
        Variant("open-research", "Open Research: sets are played face up, not face down.", False),
        Variant("all-night-lab", "All-Night Lab Session: play with a double deck.", False),
        Variant(
            "tens-always-move",
            "A discarded ten moves the marker (10 clockwise, parasite up) even when it matches "
            "neither suit nor rank of the top discard; off: only when it matches.",
            True,
        ),
        Variant(
            "parasite-discards-stop",
            "The random discards of a parasite host stop as soon as one of them sends the parasite "
            "away (or flips it); off: they go on down to two cards.",
            False,
        ),
        Variant(
            "last-taken-card",
            "When the only card left after your sets is the one you took from the discard pile: "
            "keep it and discard nothing, or discard it after all.",
            "keep",
            ("keep", "discard"),
        ),
        Variant(
            "dealer",
            "Who deals (and so starts with the symbiote): a random seat, or the last seat (so the "
            "first seat plays first).",
            "random",
            ("random", "last-seat"),
        ),
    ),
    docs="games/symbiote/README.md",
    # Padded sizes (bytes): 60 bot games with 32-character names needed at most 862 for a
    # private part and 4096 + 70 a turn for the save's secret; twice that a turn here.
    padding=Padding(report=2048, secret=4096, secret_per_turn=160),
)


class Symbiote:
    """The Symbiote rules behind the pbem plug-in API (see pbem.game.Game)."""

    info = INFO
    # The rules, orders, bots and reports load on first use (pbem.lazy): `pbem status` needs
    # none of them (start-up, issue 13).
    bots: Mapping[str, Bot] = lazy(".bots:BOTS")
    charts = lazy(".charts:charts")  # pbem archive's hooks (pbem.game.Archived)
    order_lines = lazy(".charts:order_lines")

    def setup(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        """Deal a new game.  Raises ValueError for a bad player count or option."""
        from . import rules

        return rules.setup(players, options, rng)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The one seat whose step it is; () once the game is over."""
        return () if state["phase"] == "over" else (state["seat"],)

    # observe, validate and resolve are the module functions themselves, not methods that call
    # them: the engine calls them at every step (issue 13), and a frame less each counts.  Each
    # is put in the class on first use (pbem.lazy), so later calls go straight to it.
    observe = lazy(".view:observe", static=True)
    """The allow-list view of ``state`` for ``seat`` (view.observe)."""

    observe_all = lazy(".view:observe_all", static=True)
    """The views of ``state`` for each of ``seats``, sharing one public part (view.observe_all:
    the engine's reports of a turn)."""

    def order_form(self, view: View) -> list[str]:
        """The commented blank order form for the seat."""
        from . import forms

        return forms.order_form(view)

    validate = lazy(".orders:validate", static=True)
    """Check an order file; raises OrderErrors listing every bad line (orders.validate)."""

    def default_orders(self, view: View) -> list[str]:
        """Civil disorder: draw, play nothing, make a quiet discard."""
        from . import forms

        return forms.default_orders(view)

    def mid_turn(self, view: View) -> bool:
        """True when ``view.seat`` is asked again to finish a go it began (after ``draw``
        alone): the moderator's stand-in then plays the rest at once (optional hook)."""
        from . import orders

        sit = orders.situation(view)
        return sit.my_turn and sit.phase == "play"

    resolve = lazy(".rules:resolve", static=True)
    """Apply the acting seat's validated step; pure (rules.resolve)."""

    def redraw(self, state: State, rng: Rng) -> State:
        """After a rollback: shuffle the face-down draw pile again (the only hidden chance the
        state keeps), so the cards drawn in the undone turns are not known to come next."""
        deck = list(state["deck"])
        rng.shuffle(deck)
        return {**state, "deck": deck}

    def outcome(self, state: State) -> Outcome | None:
        """Scores and winners once the draw pile ran out at the start of a turn."""
        if state["phase"] != "over":
            return None
        from .rules import who

        scores = tuple(state["scores"])
        winners = tuple(state["winners"])
        names = " and ".join(who(w) for w in winners)
        points = ", ".join(f"{who(s)} {p}" for s, p in enumerate(scores))
        return Outcome(winners=winners, scores=scores, summary=f"{names} won ({points}).")

    # describe and describe_private are the module functions themselves too (pbem.lazy): a
    # turn describes five views, and an import statement in a method costs ~7,000
    # instructions a call (the package's from-list is handled in Python).
    describe = lazy(".report:describe", static=True)
    """Report text (public, private) rendered from templates/symbiote/ (report.describe)."""

    describe_private = lazy(".report:describe_private", static=True)
    """The private text alone (the public text depends on view.public only), so the engine
    renders the public part once a turn (pbem.game.DescribedOnce; report.describe_private)."""

    def pictures(self, view: View) -> dict[str, str]:
        """No pictures: a card game reads fine as text."""
        return {}


GAME = Symbiote()

__all__ = ["GAME", "INFO", "Symbiote"]
