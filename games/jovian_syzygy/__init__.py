"""Jovian Syzygy (Invisible City Productions, 2002): a dance with Jovian moons for 1 to 4 players.

Rules and rulings: games/jovian_syzygy/README.md.  The board is ours (see :mod:`.board`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import Bot, GameInfo, State, Variant, View
from pbem.lazy import lazy
from pbem.padding import Padding
from pbem.rng import Rng

_BEFORE_ISSUE_12 = {"solo", "max-rounds", "ride", "max-extra-moves", "setup-check"}
"""The options every game had before corners and turns existed: ``pbem new`` saves every
option, so a saved set with all of these and neither of the new ones is an older game's, set
up (and re-played) with dealt corners and round turns."""

INFO = GameInfo(
    name="jovian-syzygy",
    title="Jovian Syzygy",
    min_players=1,
    max_players=4,
    summary="Ride Jupiter's moons and line them up to gather more than 15 Psi.",
    hidden_information=False,
    variants=(
        Variant(
            "solo",
            "with one player: 'timed' (25 rounds, highest Psi) or 'scored' (reach 20)",
            "timed",
            ("timed", "scored"),
        ),
        Variant("max-rounds", "end the game after this many rounds (0: never); see at-cap", 100),
        Variant(
            "at-cap",
            "who wins when the round cap ends the game: 'nobody' (the rulebook: only above "
            "15 Psi wins) or 'highest' (the most Psi, ties shared)",
            "nobody",
            ("nobody", "highest"),
        ),
        Variant(
            "ride",
            "'stay': riding keeps you aboard; 'push': riding moves the satellite on at once",
            "stay",
            ("stay", "push"),
        ),
        Variant(
            "max-extra-moves",
            "most Psi-paid extra moves in one turn (0: no limit; 1 reads 'an additional move' as one)",
            0,
        ),
        Variant(
            "setup-check",
            "no three satellites lined up at setup: 'centres' (not as drawn, the rulebook) or "
            "'slide' (not even by sliding)",
            "centres",
            ("centres", "slide"),
        ),
        Variant(
            "corners",
            "'choose': a setup step where players choose their corners in turn order (the "
            "rulebook); 'dealt': corners dealt at random",
            "choose",
            ("choose", "dealt"),
        ),
        Variant(
            "turns",
            "'round': everyone writes one plan per round at once, played in turn order; "
            "'sequential': one player at a time, each seeing the turns before (one mail round each)",
            "round",
            ("round", "sequential"),
        ),
    ),
    docs="games/jovian_syzygy/README.md",
    # Padded sizes (bytes): with the forecast, 40 bot games (every option at random, 32-
    # character names) needed at most 1,332 for a private part (250 before the forecast; the
    # longest forecast we could build, tests/jovian_syzygy/test_jovian_forecast.py, stays
    # under 2,048) and 8192 + 155 a turn for the save's secret; twice that a turn here.
    padding=Padding(report=2048, secret=8192, secret_per_turn=320),
)


class JovianSyzygy:
    """The plug-in object: pure functions over the JSON state in :mod:`.rules`."""

    info = INFO
    # Bots, orders, rules and views load on first use (pbem.lazy): `pbem status` draws the
    # board and needs none of the bots' search (start-up, issue 13).
    bots: Mapping[str, Bot] = lazy(".bots:BOTS")
    charts = lazy(".charts:charts")  # pbem archive's hooks (pbem.game.Archived)
    order_lines = lazy(".charts:order_lines")
    chart_colours = lazy(".charts:chart_colours")

    def setup(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        """Initial state; raises ValueError for a bad player count or option."""
        given = {str(k).replace("_", "-"): v for k, v in options.items()}  # old names too
        unknown = sorted(set(given) - {v.name for v in INFO.variants})
        if unknown:
            raise ValueError(f"Jovian Syzygy has no option {unknown[0]!r}")
        if set(given) >= _BEFORE_ISSUE_12 and not {"corners", "turns"} & set(given):
            given = {**given, "corners": "dealt", "turns": "round"}
        opts = {v.name: given.get(v.name, v.default) for v in INFO.variants}
        for v in INFO.variants:
            if v.choices and opts[v.name] not in v.choices:
                raise ValueError(f"option {v.name} must be one of {', '.join(map(str, v.choices))}")
        for name in ("max-rounds", "max-extra-moves"):
            if not isinstance(opts[name], int) or isinstance(opts[name], bool) or opts[name] < 0:
                raise ValueError(f"option {name} must be a whole number, 0 or more")
        from . import rules

        return rules.setup(players, opts, rng)

    to_act = lazy(".rules:asked", static=True)
    """At setup the seats choosing a corner; then every seat, one plan per round (resolved
    in the round's turn order), or with ``turns=sequential`` the seat whose turn it is
    (rules.asked)."""

    # The view and the rules themselves (no method in between: called for every seat and step),
    # each put in the class on first use (pbem.lazy).
    observe = lazy(".view:observe", static=True)

    def order_form(self, v: View) -> list[str]:
        from . import bots

        return bots.order_form(v)

    validate = lazy(".orders:validate", static=True)  # a corner's orders at setup, else a plan

    def default_orders(self, v: View) -> list[str]:
        from . import bots

        return bots.default_orders(v)

    resolve = lazy(".rules:resolve", static=True)
    outcome = lazy(".rules:summarise", static=True)

    def describe(self, v: View) -> tuple[str, str]:
        from . import view

        return view.describe(v)

    def describe_private(self, v: View) -> str:
        """The private text alone (the public text depends on v.public only), so the
        engine renders the public part once a turn (pbem.game.DescribedOnce)."""
        from . import view

        return view.describe_private(v)

    def pictures(self, v: View) -> dict[str, str]:
        from . import svg

        return {"board.svg": svg.board_svg(v.public)}


GAME = JovianSyzygy()
