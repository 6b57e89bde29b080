"""The moderator's per-game record: turn clock, missed turns, and a small journal.

Kept as ``<game>/moderator/record.json`` next to the save (the shared folder is the source
of truth; only the moderator writes there) and rewritten atomically at every step, so a
moderator killed at any instant finds on restart exactly what it had done:

* ``inflight``: the inbox file being handled (a DuplicateError for it after a restart
  means the crash came after the engine filed it, so it counts as accepted);
* ``handled``: inbox files already answered (a crash before their removal);
* ``advancing``: an advance under way, with the missed-turn counts to apply once the
  save shows the new turn;
* ``delivered``: the turn (and save revision) whose reports were handed out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pbem.moderator.durable import write_atomic
from pbem.timing import SeatRecord, TurnClock

RECORD_DIR = "moderator"
RECORD_NAME = "record.json"


@dataclass(frozen=True)
class Record:
    """Everything the moderator remembers about one game (JSON-only, integers for times)."""

    clock: TurnClock | None = None
    reminders_sent: tuple[int, ...] = ()
    seats: dict[str, SeatRecord] = field(default_factory=dict)
    delivered: tuple[int, int] | None = None
    """(turn, revision) of the reports last handed out."""
    inflight: dict[str, Any] | None = None
    handled: tuple[str, ...] = ()
    advancing: dict[str, Any] | None = None
    missed_counted: tuple[str, ...] = ()
    """Seats already counted as missing this turn (the ``wait`` policy)."""
    log: tuple[str, ...] = ()

    def seat(self, name: str) -> SeatRecord:
        return self.seats.get(name.lower(), SeatRecord())

    def with_seat(self, name: str, record: SeatRecord) -> Record:
        return replace(self, seats={**self.seats, name.lower(): record})

    def logged(self, line: str, keep: int = 200) -> Record:
        """The record with ``line`` appended to its short activity log."""
        return replace(self, log=(*self.log, line)[-keep:])

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "clock": None if self.clock is None else self.clock.to_json(),
            "reminders_sent": list(self.reminders_sent),
            "seats": {k: v.to_json() for k, v in sorted(self.seats.items())},
            "delivered": None if self.delivered is None else list(self.delivered),
            "inflight": self.inflight,
            "handled": list(self.handled),
            "advancing": self.advancing,
            "missed_counted": list(self.missed_counted),
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        clock = data.get("clock")
        delivered = data.get("delivered")
        return cls(
            clock=None if clock is None else TurnClock.from_json(clock),
            reminders_sent=tuple(data.get("reminders_sent", ())),
            seats={k: SeatRecord.from_json(v) for k, v in data.get("seats", {}).items()},
            delivered=None if delivered is None else (int(delivered[0]), int(delivered[1])),
            inflight=data.get("inflight"),
            handled=tuple(data.get("handled", ())),
            advancing=data.get("advancing"),
            missed_counted=tuple(data.get("missed_counted", ())),
            log=tuple(data.get("log", ())),
        )


def record_path(game_dir: Path) -> Path:
    return game_dir / RECORD_DIR / RECORD_NAME


def load_record(game_dir: Path) -> Record:
    """The game's record; a fresh one if none was written yet (or it is unreadable)."""
    try:
        data = json.loads(record_path(game_dir).read_bytes())
    except (OSError, ValueError):
        return Record()
    return Record.from_json(data) if isinstance(data, dict) else Record()


def save_record(game_dir: Path, record: Record) -> None:
    """Write the record atomically (one crash point before and one after the rename)."""
    write_atomic(record_path(game_dir), json.dumps(record.to_json(), indent=1, sort_keys=True) + "\n")
