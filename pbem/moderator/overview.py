"""One line per game under a moderator's root: ``pbem status ROOT``.

For each game folder (a folder directly under the root that holds a ``save.json``): the
game, its turn, whose orders it awaits, the deadline, whether it is paused, its resigned and
abandoned seats, how it ended, and when anything last happened (the save's time or the
moderator journal's newest entry, whichever is later).  Needs no key: everything shown is
in the shared folder already.  A game that cannot be read is a line saying why; the others
are still shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.keys import PublicCard
from pbem.moderator.config import GameConfig, RootConfig
from pbem.moderator.journal import read_entries, stamp
from pbem.moderator.record import read_record
from pbem.registry import get_game
from pbem.timing import due, format_duration


@dataclass(frozen=True)
class GameLine:
    """What ``pbem status ROOT`` says about one game folder."""

    folder: str
    game: str | None = None
    game_id: str | None = None
    turn: int | None = None
    awaiting: tuple[str, ...] = ()
    deadline: int | None = None
    """When the awaited orders are due (None: no deadline, or not moderated yet)."""
    paused: bool = False
    seats: dict[str, str] = field(default_factory=dict)
    """Seats that are not active: name -> ``resigned`` or ``abandoned``."""
    outcome: str | None = None
    last_activity: int | None = None
    moderated: bool = False
    """True once ``pbem moderate`` (or ``judge``) has run the game."""
    problem: str | None = None
    """Why the game could not be read, or its moderator settings are refused."""

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "game": self.game,
            "game_id": self.game_id,
            "turn": self.turn,
            "awaiting": list(self.awaiting),
            "deadline": self.deadline,
            "paused": self.paused,
            "seats": dict(self.seats),
            "outcome": self.outcome,
            "last_activity": self.last_activity,
            "moderated": self.moderated,
            "problem": self.problem,
        }


def game_folders(root: Path) -> list[Path]:
    """The game folders directly under ``root``, by name (hidden folders left out)."""
    try:
        entries = sorted(root.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    return [p for p in entries if not p.name.startswith(".") and p.is_dir() and (p / "save.json").is_file()]


def _epoch(text: object) -> int | None:
    if not isinstance(text, str):
        return None
    try:
        return int(datetime.fromisoformat(text).timestamp())
    except (ValueError, OverflowError):
        return None


def game_line(game_dir: Path, now: int, root: RootConfig | PbemError, card: PublicCard | None) -> GameLine:
    """The overview line of one game folder.  Never raises for what the folder holds."""
    from pbem.engine import GameFolder
    from pbem.wording import named_outcome

    name = game_dir.name
    try:
        save = GameFolder(game_dir).read(card)
    except PbemError as exc:
        return GameLine(name, problem=exc.message)
    names = save.names
    outcome = named_outcome(save.body["outcome"], names)
    seats = {
        p["card"]["name"]: p["status"] for p in save.body["players"] if p.get("status", "active") != "active"
    }
    try:
        record, _damage = read_record(game_dir)
    except PbemError as exc:  # the disk failed the read: the line says so
        return GameLine(name, game=save.game, game_id=save.game_id, turn=save.turn, problem=exc.message)
    entries = read_entries(record.log[-1:], first=len(record.log))
    times = [
        t for t in (_epoch(save.body.get("written")), entries[0].at if entries else None) if t is not None
    ]
    line = GameLine(
        name,
        game=save.game,
        game_id=save.game_id,
        turn=save.turn,
        awaiting=tuple(names[s] for s in save.awaiting if s not in save.body["submitted"]),
        seats=seats,
        outcome=None if outcome is None else str(outcome["summary"]),
        last_activity=max(times) if times else None,
        moderated=record.clock is not None,
    )
    if record.clock is None or record.clock.turn != save.turn or outcome is not None:
        return line
    try:
        if isinstance(root, PbemError):
            raise root
        policy = GameConfig.load(game_dir, root, get_game(save.game).bots).timing
    except PbemError as exc:
        return replace(line, problem=exc.message)
    state = due(policy, record.clock, now)
    return replace(line, deadline=state.deadline, paused=state.paused)


def overview(root: Path, now: int, card: PublicCard | None = None) -> list[GameLine]:
    """A line for every game folder under ``root``."""
    try:
        config: RootConfig | PbemError = RootConfig.load(root)
    except PbemError as exc:
        config = exc
    return [game_line(path, now, config, card) for path in game_folders(root)]


def when(at: int | None, now: int) -> str:
    """A time for the overview: ``2027-01-17 08:00Z (in 1d 2h)`` or ``... (3h ago)``."""
    if at is None:
        return "-"
    delta = at - now
    rel = f"in {format_duration(delta)}" if delta > 0 else f"{format_duration(-delta)} ago"
    return f"{stamp(at)[:16]}Z ({rel})"


def table(lines: list[GameLine], now: int) -> list[str]:
    """The overview as an aligned table, one row per game, with a header."""
    rows = [("GAME", "TYPE", "TURN", "AWAITING", "DEADLINE", "STATE", "LAST ACTIVITY")]
    for line in lines:
        if line.problem is not None and line.game is None:
            rows.append((line.folder, "?", "?", "-", "-", f"cannot be read: {line.problem}", "-"))
            continue
        state = []
        if line.outcome is not None:
            state.append(f"over: {line.outcome}")
        if line.paused:
            state.append("PAUSED")
        for status in ("resigned", "abandoned"):
            who = sorted(n for n, s in line.seats.items() if s == status)
            if who:
                state.append(f"{status}: {', '.join(who)}")
        if line.problem is not None:
            state.append(f"settings refused: {line.problem}")
        if not line.moderated and line.outcome is None:
            state.append("not moderated yet")
        if line.outcome is not None:
            deadline = "-"
        elif line.paused:
            deadline = "paused"
        elif line.deadline is None:
            deadline = "none" if line.moderated else "-"
        else:
            deadline = when(line.deadline, now)
        rows.append(
            (
                line.folder,
                line.game or "?",
                str(line.turn),
                ", ".join(line.awaiting) or "-",
                deadline,
                "; ".join(state) or "-",
                when(line.last_activity, now),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)), row[-1]]).rstrip()
        for row in rows
    ]
