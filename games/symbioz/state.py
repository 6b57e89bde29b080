"""Symbioz constants, options, the initial state and small read-only helpers over a state.

The state is JSON only::

    players, options, squares (names in play), turn (1-12), first (first seat this turn),
    zerbs / crapits / kroguls: {square: [count per seat]} for every square in play,
    symbioz: {square: owner seat} for closed squares,
    supply: {"zerb" | "crapit" | "krogul": [count per seat]},
    over, winners (seats), result (text) once the game has ended,
    phase (1-4, only with ``order-rounds=phase``): the phase whose orders are awaited.

``turn`` is the game's turn (1-12).  With one order round per turn it is also the pbem turn;
with one per phase (option ``order-rounds``) players see it as the *round*, and the pbem
turn counts order rounds.

A Symbioz marker keeps one Zerb of its owner for the rest of the game (the rulebook puts
it in the marker's centre), so for every seat: Zerbs on the board + Zerbs in supply +
Symbioz markers = 60; Crapits on board + supply = 25; Kroguls on board + supply = 6.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import Variant
from pbem.rng import Rng

from .board import BY_NAME, squares_in_play, start_squares

State = dict[str, Any]

COLOURS = ("yellow", "red", "blue", "purple")
"""Seat colours, seat 0 first."""

PAWNS = ("zerb", "crapit", "krogul")
SUPPLY = {"zerb": 60, "crapit": 25, "krogul": 6}
SATURATION = 12
"""A square holds at most this many Zerbs in all; this many of one colour make a Symbioz."""
START_ZERBS = 4
TURNS = 12

VARIANTS = (
    Variant("zerb-cost", "points a Zerb costs at introduction", 1, tuple(range(1, 11))),
    Variant("crapit-cost", "points a Crapit costs at introduction", 3, tuple(range(1, 11))),
    Variant("krogul-cost", "points a Krogul costs at introduction", 5, tuple(range(1, 11))),
    Variant("points", "points each player may spend per introduction phase", 10, tuple(range(1, 31))),
    Variant("first-game", "first-game rule: one more Symbioz needed to win", False),
    Variant(
        "two-player-board",
        "2 players: 'half' uses quarters 1-2 only (the rulebook), 'full' the whole planet",
        "half",
        ("half", "full"),
    ),
    Variant(
        "buy-in-fertile",
        "which bought pawns may go into fertile squares (holding your Zerbs): 'animals' "
        "(Crapits and Kroguls; Zerbs reach them by growth only), 'none' or 'all'",
        "animals",
        ("animals", "none", "all"),
    ),
    Variant(
        "purchase-limit",
        "Zerbs one player may buy into a square in one turn: 'breed' (what the square would "
        "breed: 1 per 4 of your Zerbs there, per 3 if fertile), 'double' (as many as you "
        "have there) or 'none' (only room and points limit it)",
        "breed",
        ("breed", "double", "none"),
    ),
    Variant(
        "order-rounds",
        "'turn': one order file per player per turn, for all four phases; 'phase': one order "
        "round per phase, each written after seeing the previous phase's result",
        "turn",
        ("turn", "phase"),
    ),
)

PHASES = ("introduction", "multiplication", "Kroguls", "Crapits")
"""The phases of a turn, numbered from 1 (the order round of ``order-rounds=phase``)."""
PHASE_VERBS = ("buy", "grow", "krogul", "crapit")
"""The order each phase reads, by phase number - 1."""


LEGACY: dict[str, Any] = {"purchase-limit": "none"}
"""Values of options added after games were already saved without them: the rule those games
were started under (see :func:`options_of`)."""


def normalise_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options with defaults filled in, by their kebab-case names (an old snake_case name such
    as ``zerb_cost`` is read as ``zerb-cost``).  Raises ValueError for an unknown or bad option."""
    known = {v.name: v for v in VARIANTS}
    options = {str(k).replace("_", "-"): v for k, v in options.items()}
    if isinstance(options.get("buy-in-fertile"), bool):  # saved when it was true/false
        options["buy-in-fertile"] = "all" if options["buy-in-fertile"] else "none"
    for name in options:
        if name not in known:
            raise ValueError(f"unknown Symbioz option {name!r}; known: {', '.join(known)}")
    out: dict[str, Any] = {}
    for variant in VARIANTS:
        value = options.get(variant.name, variant.default)
        if type(value) is not type(variant.default):
            raise ValueError(f"option {variant.name} must be {type(variant.default).__name__}")
        if variant.choices and value not in variant.choices:
            raise ValueError(f"option {variant.name} must be one of {variant.choices}")
        out[variant.name] = value
    return out


def options_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a state or view, by kebab-case names; a game saved before an option
    existed (or before the names changed) keeps the rule it was started under (:data:`LEGACY`)."""
    given = {str(k).replace("_", "-"): v for k, v in data["options"].items()}
    return normalise_options({**LEGACY, **given})


def cost(options: Mapping[str, Any], pawn: str) -> int:
    """Points one ``pawn`` costs under ``options``."""
    value: int = options[f"{pawn}-cost"]
    return value


def buy_limit(options: Mapping[str, Any], square: str, mine: int) -> int | None:
    """Most Zerbs a player holding ``mine`` Zerbs in ``square`` (at the start of its
    introduction) may buy into it this turn under option ``purchase-limit``; None: no limit."""
    rule = options["purchase-limit"]
    if rule == "none":
        return None
    if rule == "double":
        return mine
    return births(square, mine)


def symbioz_to_win(players: int, options: Mapping[str, Any]) -> int:
    """Symbioz needed to win at once: 3 (4 with 3 players), one more in a first game."""
    return (4 if players == 3 else 3) + (1 if options["first-game"] else 0)


def new_state(players: int, options: Mapping[str, Any], rng: Rng) -> State:
    """The state before turn 1: 4 Zerbs in each start square, a random first player.

    Raises ValueError for an unsupported player count or a bad option.
    """
    opts = normalise_options(options)
    squares = squares_in_play(players, opts["two-player-board"])
    zerbs = {sq: [0] * players for sq in squares}
    for seat in range(players):
        for sq in start_squares(players, seat):
            zerbs[sq][seat] = START_ZERBS
    supply = {pawn: [SUPPLY[pawn]] * players for pawn in PAWNS}
    supply["zerb"] = [SUPPLY["zerb"] - 3 * START_ZERBS] * players
    return {
        "players": players,
        "options": opts,
        "squares": list(squares),
        "turn": 1,
        "first": rng.randbelow(players),
        "zerbs": zerbs,
        "crapits": {sq: [0] * players for sq in squares},
        "kroguls": {sq: [0] * players for sq in squares},
        "symbioz": {},
        "supply": supply,
        "over": False,
        "winners": [],
        "result": "",
    }


def phase_rounds(data: Mapping[str, Any]) -> bool:
    """True when a state or view plays one order round per phase (``order-rounds=phase``)."""
    return bool(options_of(data)["order-rounds"] == "phase")


def play_order(players: int, first: int) -> tuple[int, ...]:
    """Seats in play order for a turn whose first player is ``first`` (clockwise)."""
    return tuple((first + i) % players for i in range(players))


def symbioz_counts(data: Mapping[str, Any]) -> list[int]:
    """Symbioz made by each seat (works on a state or a public view)."""
    counts = [0] * data["players"]
    for owner in data["symbioz"].values():
        counts[owner] += 1
    return counts


def zerbs_on_board(data: Mapping[str, Any]) -> list[int]:
    """Zerbs of each seat on the board (markers excluded; works on a state or a view)."""
    counts = [0] * data["players"]
    for row in data["zerbs"].values():
        for seat, n in enumerate(row):
            counts[seat] += n
    return counts


def fertile(square: str) -> bool:
    """True for a fertile (green) square."""
    return BY_NAME[square].fertile


def births(square: str, zerbs: int) -> int:
    """Newborns ``zerbs`` Zerbs of one colour give in ``square``: 1 per 4 (per 3 if fertile)."""
    return zerbs // (3 if BY_NAME[square].fertile else 4)


def may_buy_into(options: Mapping[str, Any], square: str, pawn: str) -> bool:
    """Whether ``pawn`` may be bought into ``square`` as far as fertility goes (option
    ``buy-in-fertile``: by default animals may, Zerbs may not)."""
    if not fertile(square):
        return True
    rule = options["buy-in-fertile"]
    return rule == "all" or (rule == "animals" and pawn != "zerb")


def buyable_squares(data: Mapping[str, Any], seat: int, pawn: str = "zerb") -> list[str]:
    """Squares where ``seat`` may place bought ``pawn``s (works on a state or a public view):
    open squares holding one of its Zerbs, fertile ones as ``buy-in-fertile`` allows.
    Room for Zerbs is not checked here."""
    options = options_of(data)
    return [
        sq
        for sq in data["squares"]
        if data["zerbs"][sq][seat] and sq not in data["symbioz"] and may_buy_into(options, sq, pawn)
    ]


def colour_name(seat: int) -> str:
    """The capitalised colour of ``seat`` for reports."""
    return COLOURS[seat].capitalize()
