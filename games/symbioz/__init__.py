"""Symbioz (Bachelart and Pinard, Unicorn 1995) as a pbem game plug-in, for 2 to 4 players.

Rules, rulings and the order syntax: games/symbioz/README.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pbem.game import Bot, GameInfo, Outcome, Resolution, View
from pbem.lazy import lazy
from pbem.padding import Padding
from pbem.rng import Rng

from . import state

INFO = GameInfo(
    name="symbioz",
    title="Symbioz",
    min_players=2,
    max_players=4,
    summary="Grow Zerbs on a round planet, feed Crapits and Kroguls, and merge 12 Zerbs into a Symbioz.",
    hidden_information=False,
    variants=state.VARIANTS,
    docs="games/symbioz/README.md",
    # Padded sizes (bytes): 60 bot games with 32-character names needed at most 224 for a
    # private part and 16384 + 1812 a turn for the save's secret; twice that a turn here.
    padding=Padding(report=1024, secret=16384, secret_per_turn=4096),
)


def _bots() -> Mapping[str, Bot]:
    from . import bots

    return MappingProxyType({"random": bots.random_bot, "greedy": bots.greedy_bot})


class Symbioz:
    """The Symbioz plug-in: one order file per player per turn, resolved phase by phase (or,
    with ``order-rounds=phase``, one order round per phase)."""

    info = INFO
    # Bots, orders, phases, views and the board picture load on first use (pbem.lazy): `pbem
    # status` needs only the board (start-up, issue 13).
    bots: Mapping[str, Bot] = lazy(_bots)
    charts = lazy(".charts:charts")  # pbem archive's hooks (pbem.game.Archived)
    order_lines = lazy(".charts:order_lines")
    chart_colours = lazy(".charts:chart_colours")

    def setup(self, players: int, options: Mapping[str, Any], rng: Rng) -> state.State:
        """The state before turn 1.  Raises ValueError for 1 or 5+ players or a bad option."""
        from . import rounds

        return rounds.start(state.new_state(players, options, rng))

    def to_act(self, st: state.State) -> tuple[int, ...]:
        """Every seat, in this turn's play order (one file each for the whole turn); with
        ``order-rounds=phase``, the seats with something to decide in this phase."""
        if st["over"]:
            return ()
        if state.phase_rounds(st):
            from . import rounds

            return rounds.asked(st)
        return state.play_order(st["players"], st["first"])

    observe = lazy(".view:observe", static=True)
    """Everything is public; an allow-listed copy (view.observe)."""

    def order_form(self, v: View) -> list[str]:
        """Commented blank order file for the seat."""
        from . import view

        return view.order_form(v)

    validate = lazy(".orders:validate_orders", static=True)
    """Orders as JSON.  Raises OrderErrors listing every bad line (orders.validate_orders)."""

    def default_orders(self, v: View) -> list[str]:
        """No orders: every choice falls to the automatic defaults."""
        return ["# no orders: every choice is made by the automatic defaults"]

    def resolve(self, st: state.State, all_orders: Mapping[int, Any], rng: Rng) -> Resolution:
        """One whole turn, or with ``order-rounds=phase`` one phase (the rules use no chance
        after setup); pure."""
        if state.phase_rounds(st):
            from . import rounds

            return rounds.resolve_phase(st, all_orders)
        from . import phases

        return phases.resolve_turn(st, all_orders)

    def outcome(self, st: state.State) -> Outcome | None:
        """None while the game goes on; scores are Symbioz counts."""
        if not st["over"]:
            return None
        return Outcome(
            winners=tuple(st["winners"]),
            scores=tuple(state.symbioz_counts(st)),
            summary=st["result"],
        )

    def describe(self, v: View) -> tuple[str, str]:
        """The compact text table of the board for the mail body."""
        from . import view

        return view.describe(v)

    def describe_private(self, v: View) -> str:
        """The private text alone (the public text depends on v.public only), so the
        engine renders the public part once a turn (pbem.game.DescribedOnce)."""
        from . import view

        return view.describe_private(v)

    def pictures(self, v: View) -> dict[str, str]:
        """The board as SVG, drawn from the public view only."""
        from . import svg

        return {"board.svg": svg.board_svg(v.public)}


GAME = Symbioz()
