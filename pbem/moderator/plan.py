"""What an advance will do: the plan of a pass, the intent journalled for it, stand-in
orders, and the reminder text sent before a deadline (see :mod:`pbem.moderator.core`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pbem.engine import Loaded
from pbem.rng import Rng
from pbem.save import Save
from pbem.timing import Missing, TurnClock


def iso(now: int) -> str:
    """A clock reading as an ISO 8601 UTC time."""
    return datetime.fromtimestamp(now, UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Plan:
    """An advance that may happen now: order lines for seats that sent none."""

    fill: Mapping[int, Sequence[str]]
    missed: tuple[str, ...]
    on_time: tuple[str, ...]
    how: Mapping[str, str] = field(default_factory=dict)
    played: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """The stand-in's order lines for active seats (their players are told)."""
    described: Mapping[int, str] = field(default_factory=dict)
    """Who plays each filled seat, in words for the reports."""


def stand_in_orders(loaded: Loaded, seat: int, stand: Missing) -> list[str]:
    """Orders for a seat that sent none: the game's default orders or a bot's (the bot's
    generator derives from the game's secret seed, so players cannot predict it)."""
    game = loaded.game
    view = loaded.view(seat)
    if stand.action == "bot" and stand.bot is not None and stand.bot in game.bots:
        rng = Rng(loaded.seed + f"\x00moderator-bot\x00{loaded.save.turn}\x00{seat}".encode())
        return game.bots[stand.bot](game, view, rng)
    return game.default_orders(view)


def intent(from_turn: int, plan: Plan, now: int) -> dict[str, Any]:
    """The record's ``advancing`` entry for resolving turn ``from_turn`` as ``plan`` says,
    planned at ``now``: what to apply once the save shows a later turn."""
    return {
        "from_turn": from_turn,
        "missed": list(plan.missed),
        "on_time": list(plan.on_time),
        "filled": dict(plan.how),
        "played": {name: list(lines) for name, lines in plan.played.items()},
        "at": now,
    }


def reminder_name(turn: int, k: int, clock: TurnClock, deadline: int | None) -> str:
    """The file name of reminder ``k`` (from 0) of ``turn``: ``reminder-turn-NNNN-K.txt``,
    and once the moderator moved the deadline (``pbem extend``, a pause) the deadline it names
    added (``reminder-turn-0001-2-until-20270119T0801Z.txt``): a reminder sent again for the
    moved deadline is a new file and mail, not the old one kept unchanged."""
    name = f"reminder-turn-{turn:04d}-{k + 1}"
    if deadline is not None and (clock.extended or clock.paused_total):
        name += "-until-" + datetime.fromtimestamp(deadline, UTC).strftime("%Y%m%dT%H%MZ")
    return name + ".txt"


def reminder_text(save: Save, seat: int, deadline: int | None, grace_end: int | None) -> str:
    """The reminder for a seat whose orders have not arrived (deadline and grace end, if any)."""
    lines = [
        f"pbem moderator reminder: game {save.game_id} ({save.game}), turn {save.turn}",
        "",
        f"{save.names[seat]}, your orders for turn {save.turn} have not arrived yet.",
    ]
    if deadline is not None:
        lines.append(f"Deadline: {iso(deadline)}.")
    if grace_end is not None and grace_end != deadline:
        lines.append(f"Orders are still accepted until {iso(grace_end)} (grace period).")
    lines += [
        "",
        "Your report is in your folder (report-turn-NNNN.txt).  Write and send orders with:",
        f"  pbem orders REPORT --key {save.names[seat]}.key -o orders.txt",
        f"  pbem sign orders.txt --key {save.names[seat]}.key -o signed.txt",
    ]
    return "\n".join(lines) + "\n"


def moved_text(save: Save, seat: int, what: str, deadline: int, grace_end: int) -> str:
    """The notice for a seat that still owes orders when the moderator moves its deadline:
    ``what`` is ``extended``, ``paused`` or ``resumed``."""
    head = {
        "extended": f"The moderator extended the deadline of turn {save.turn}.",
        "paused": f"The moderator paused the game: no deadline runs for turn {save.turn} until it "
        "is resumed (orders are still filed).",
        "resumed": f"The moderator resumed the game: the deadline of turn {save.turn} moved by the "
        "time it was paused.",
    }[what]
    lines = [f"pbem moderator notice: game {save.game_id} ({save.game}), turn {save.turn}", "", head]
    if what != "paused":
        lines.append(f"{save.names[seat]}, your orders are now due by {iso(deadline)}.")
        if grace_end != deadline:
            lines.append(f"Orders are still accepted until {iso(grace_end)} (grace period).")
    return "\n".join(lines) + "\n"
