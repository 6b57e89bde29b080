"""The moderator's per-game record: turn clock, missed turns, and a small journal.

Kept as ``<game>/moderator/record.json`` next to the save (the shared folder is the source
of truth; only the moderator writes there) and rewritten atomically, so a moderator killed
at any instant finds on restart what it had promised to do:

* ``taking``: the inbox entries a pass is about to handle, by ``stat`` identity, written
  once before the pass's first engine write (a DuplicateError for the first of them still
  in the inbox after a restart means the crash came after the engine filed it, so it counts
  as accepted; one already gone was answered: its journal line is rebuilt);
* ``inflight``: the same for one file, as records written before ``taking`` hold it (read);
* ``handled``: inbox files already answered (a crash before their removal);
* ``advancing``: an advance that may happen, with the missed-turn counts to apply once the
  save shows a later turn than ``from_turn``, and the time ``at`` it was planned;
* ``delivered``: the turn (and save revision) whose reports were handed out;
* ``mailed``: the turn whose reports were also queued as mail (by ``pbem judge``; a
  ``pbem moderate`` run on the same game hands reports out without mail);
* ``ignored``: inbox entries that could be neither read nor moved aside, by ``stat``
  identity (reported once, then left alone).

A pass writes the record as seldom as this allows (see :mod:`pbem.moderator.core`): once
before its first engine write (the entries it takes and, when the turn could complete, the
advance it would then make), again only before an advance that intent does not cover, and
once at its end.

The record sits in the shared folder, so it is read like any input: bounded in size, every
field checked for its type and range.  A damaged record never stops a game: whatever of it
is sound is kept, each damaged field falls back to its safe default (see
:func:`read_record`), and the moderator keeps the damaged file in its quarantine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from pbem.moderator.durable import write_atomic
from pbem.moderator.quarantine import Unreadable, read_untrusted, shown
from pbem.timing import SeatRecord, TurnClock

RECORD_DIR = "moderator"
RECORD_NAME = "record.json"
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""A record is a few kilobytes; one larger than this is damaged."""
MAX_TIME = 10**11
"""Seconds since the epoch: later than any real clock (year 5138) and still a valid date."""
MAX_COUNT = 10**9
"""Turns, revisions and missed-turn counts."""
MAX_TEXT = 2000
"""Characters of one string field (keys, names, journal lines)."""
MAX_ITEMS = 10_000
"""Entries of one list or table field."""
MAX_FILES = 500
"""Inbox entries one pass takes in one game (pbem.moderator.core.MAX_FILES_PER_PASS)."""


class _Bad(Exception):
    """A field of the record is not what it should be."""


@dataclass(frozen=True)
class Record:
    """Everything the moderator remembers about one game (JSON-only, integers for times)."""

    clock: TurnClock | None = None
    reminders_sent: tuple[int, ...] = ()
    seats: dict[str, SeatRecord] = field(default_factory=dict)
    delivered: tuple[int, int] | None = None
    """(turn, revision) of the reports last handed out."""
    mailed: int | None = None
    """The turn whose reports were handed out with mail on (the judge); a turn handed out
    without mail (``pbem moderate`` on a game the judge runs) is mailed by the judge's next pass."""
    inflight: dict[str, Any] | None = None
    """One file being handled (records written before ``taking``; still read)."""
    taking: tuple[str, ...] = ()
    """The inbox entries (``stat`` identity keys, in the order handled) a pass took."""
    taking_turn: int | None = None
    """The turn the save showed when the pass took them (their answers are named by it)."""
    handled: tuple[str, ...] = ()
    advancing: dict[str, Any] | None = None
    missed_counted: tuple[str, ...] = ()
    """Seats already counted as missing this turn (the ``wait`` policy)."""
    stood_in: tuple[str, ...] = ()
    """Seats (lower-case names) the stand-in played in the turn just resolved: if the game
    asks such a seat again to finish the same go, the stand-in plays on at once."""
    log: tuple[str | dict[str, Any], ...] = ()
    """The journal: tables (see :mod:`pbem.moderator.journal`); records written before hold
    plain lines, still read."""
    ignored: tuple[str, ...] = ()
    """Inbox entries left in place for good (``stat`` identity keys)."""

    KEEP_HANDLED: ClassVar[int] = 1000
    """Answered files remembered (only the newest matters: the one a crash interrupted)."""
    KEEP_IGNORED: ClassVar[int] = 1000

    def with_handled(self, key: str) -> Record:
        """The record with ``key`` among the answered files (the oldest keys are dropped)."""
        return replace(self, handled=(*self.handled, key)[-self.KEEP_HANDLED :])

    def seat(self, name: str) -> SeatRecord:
        return self.seats.get(name.lower(), SeatRecord())

    def with_seat(self, name: str, record: SeatRecord) -> Record:
        return replace(self, seats={**self.seats, name.lower(): record})

    def logged(
        self,
        line: str,
        *,
        at: int | None = None,
        kind: str = "note",
        turn: int | None = None,
        player: str | None = None,
        keep: int = 1000,
    ) -> Record:
        """The record with an entry appended to its journal (the newest ``keep`` are kept):
        ``line`` for people, the time ``at`` (seconds since the epoch; without it, a leading
        ISO time in ``line``), a ``kind`` of :data:`pbem.moderator.journal.KINDS`, and the
        turn and player it concerns (see :mod:`pbem.moderator.journal`)."""
        from pbem.moderator.journal import make_entry

        entry = make_entry(self.log, line, at, kind, turn, player)
        return replace(self, log=(*self.log, entry)[-keep:])

    @property
    def lines(self) -> tuple[str, ...]:
        """The journal as text lines, each starting with its time (ISO 8601, UTC)."""
        from pbem.moderator.journal import read_entries

        return tuple(
            f"{'' if e.at is None else iso_time(e.at) + ' '}{e.text}" for e in read_entries(self.log)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "clock": None if self.clock is None else self.clock.to_json(),
            "reminders_sent": list(self.reminders_sent),
            "seats": {k: v.to_json() for k, v in sorted(self.seats.items())},
            "delivered": None if self.delivered is None else list(self.delivered),
            "mailed": self.mailed,
            "inflight": self.inflight,
            "taking": list(self.taking),
            "taking_turn": self.taking_turn,
            "handled": list(self.handled),
            "advancing": self.advancing,
            "missed_counted": list(self.missed_counted),
            "stood_in": list(self.stood_in),
            "log": list(self.log),
            "ignored": list(self.ignored),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """The record in ``data``, with every damaged field at its default."""
        return cls.salvage(data)[0]

    @classmethod
    def salvage(cls, data: object) -> tuple[Record, list[str]]:
        """The record in ``data`` and the names of the fields that were damaged (wrong type,
        out of range) and fell back to their defaults.  Never raises."""
        if not isinstance(data, dict):
            return cls(), ["the whole record (not a JSON object)"]
        readers: dict[str, Callable[[Any], Any]] = {
            "clock": lambda v: None if v is None else _clock(v),
            "reminders_sent": lambda v: tuple(_int(x, 0, 1000) for x in _list(v)),
            "seats": _seats,
            "delivered": lambda v: None if v is None else _pair(v),
            "mailed": lambda v: _opt_int(v, 0, MAX_COUNT),
            "inflight": lambda v: None if v is None else _inflight(v),
            "taking": lambda v: _texts(v)[-MAX_FILES:],
            "taking_turn": lambda v: _opt_int(v, 0, 10**9),
            "handled": lambda v: _texts(v)[-cls.KEEP_HANDLED :],
            "advancing": lambda v: None if v is None else _advancing(v),
            "missed_counted": _texts,
            "stood_in": _texts,
            "log": _log,
            "ignored": lambda v: _texts(v)[-cls.KEEP_IGNORED :],
        }
        values: dict[str, Any] = {}
        damaged: list[str] = []
        for name, reader in readers.items():
            if name not in data:
                continue
            try:
                values[name] = reader(data[name])
            except (_Bad, TypeError, ValueError, OverflowError):
                damaged.append(name)
        return cls(**values), damaged


def iso_time(at: int) -> str:
    """Seconds since the epoch as an ISO 8601 UTC time, to the second."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def _int(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _Bad
    return value


def _opt_int(value: object, low: int, high: int) -> int | None:
    return None if value is None else _int(value, low, high)


def _text(value: object) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _Bad
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise _Bad
    return value


def _dict(value: object) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) > MAX_ITEMS:
        raise _Bad
    return value


def _texts(value: object) -> tuple[str, ...]:
    return tuple(_text(x) for x in _list(value))


def _clock(value: object) -> TurnClock:
    data = _dict(value)
    return TurnClock(
        turn=_int(data.get("turn"), 0, MAX_COUNT),
        started=_int(data.get("started"), 0, MAX_TIME),
        extended=_int(data.get("extended", 0), -MAX_TIME, MAX_TIME),
        paused_since=_opt_int(data.get("paused_since"), 0, MAX_TIME),
        paused_total=_int(data.get("paused_total", 0), 0, MAX_TIME),
    )


def _seats(value: object) -> dict[str, SeatRecord]:
    seats = {}
    for name, seat in _dict(value).items():
        data = _dict(seat)
        abandoned = data.get("abandoned", False)
        if not isinstance(abandoned, bool):
            raise _Bad
        seats[_text(name)] = SeatRecord(
            _int(data.get("missed_total", 0), 0, MAX_COUNT),
            _int(data.get("missed_streak", 0), 0, MAX_COUNT),
            abandoned,
        )
    return seats


def _pair(value: object) -> tuple[int, int]:
    items = _list(value)
    if len(items) != 2:
        raise _Bad
    return _int(items[0], 0, MAX_COUNT), _int(items[1], 0, MAX_COUNT)


def _inflight(value: object) -> dict[str, Any]:
    data = _dict(value)
    return {"key": _text(data.get("key")), "file": _text(data.get("file", ""))}


def _advancing(value: object) -> dict[str, Any]:
    data = _dict(value)
    filled = {_text(k): _text(v) for k, v in _dict(data.get("filled", {})).items()}
    return {
        "from_turn": _int(data.get("from_turn"), 0, MAX_COUNT),
        "missed": list(_texts(data.get("missed", []))),
        "on_time": list(_texts(data.get("on_time", []))),
        "filled": filled,
        "played": {_text(k): list(_texts(v)) for k, v in _dict(data.get("played", {})).items()},
        "at": _opt_int(data.get("at"), 0, MAX_TIME),
    }


def _log(value: object) -> tuple[Any, ...]:
    """Journal lines: text, or small flat tables of text and numbers; anything else is
    dropped line by line (the journal is for people; a bad line loses only itself)."""
    out: list[Any] = []
    for entry in _list(value):
        if isinstance(entry, str):
            out.append(entry[:MAX_TEXT])
        elif isinstance(entry, dict) and len(entry) <= 50:
            flat = all(
                isinstance(k, str) and (v is None or isinstance(v, (str, bool)) or _is_small_int(v))
                for k, v in entry.items()
            )
            if flat:
                out.append(entry)
    return tuple(out)


def _is_small_int(value: object) -> bool:
    return type(value) is int and abs(value) <= MAX_TIME


def record_path(game_dir: Path) -> Path:
    return game_dir / RECORD_DIR / RECORD_NAME


def read_record(game_dir: Path) -> tuple[Record, str | None]:
    """The game's record, and what was wrong with it (None if it is sound or was never
    written).  Never raises for what the file holds:

    * missing: a fresh record (a game the moderator has not seen yet);
    * unreadable, not a file, too large, not JSON, not an object: a fresh record, rebuilt
      by the pass from the save (the turn clock restarts when it is read, so a deadline
      is never brought forward; missed-turn counts restart; reports are handed out again,
      which is harmless);
    * some fields of the wrong type or out of range: those fields at their defaults, the
      rest kept.

    Raises UsageError when the machine, not the file, failed the read (an error of
    :data:`pbem.moderator.quarantine.DISK_ERRORS`: a disk or a network share that failed
    for a moment): the record is kept as it is, and the game waits for a later pass (a
    rebuilt record would lose its turn clock, missed turns and answered files).
    """
    path = record_path(game_dir)
    try:
        raw, size = read_untrusted(path, MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        return Record(), None
    except OSError as exc:  # DISK_ERRORS only: read_untrusted makes the rest Unreadable
        from pbem.errors import UsageError

        raise UsageError(
            f"cannot read the moderator's record {path}: {exc.strerror or exc} (an error of the disk, "
            "not of the file); it is kept as it is",
            "the game waits for the next pass; if the error stays, check the disk or the network share",
        ) from None
    except Unreadable as exc:
        return Record(), exc.reason
    if len(raw) > MAX_RECORD_BYTES:
        return Record(), f"it is {size} bytes, more than a record can be"
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return Record(), f"it is not JSON: {shown(str(exc), 120)}"
    record, damaged = Record.salvage(data)
    if damaged:
        return record, f"wrong type or value in: {', '.join(damaged)}"
    return record, None


def load_record(game_dir: Path) -> Record:
    """The game's record; a fresh one if none was written yet, with any damaged field at
    its safe default (see :func:`read_record`)."""
    return read_record(game_dir)[0]


def save_record(game_dir: Path, record: Record, durable: bool = True) -> None:
    """Write the record atomically and (unless ``durable=False``: see
    :func:`pbem.moderator.durable.write_atomic`) durably, with crash points at each step."""
    write_atomic(record_path(game_dir), encode_record(record), durable=durable)


def encode_record(record: Record) -> str:
    """The record file's text: one field a line, one journal entry a line (the C JSON
    encoder: the journal holds up to 1,000 entries and is written several times a turn)."""
    data = record.to_json()
    log = data.pop("log")
    fields = [f" {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(data.items())]
    entries = ",\n".join(f"  {json.dumps(e, sort_keys=True)}" for e in log)
    fields.append(f' "log": [\n{entries}\n ]' if log else ' "log": []')
    return "{\n" + ",\n".join(sorted(fields)) + "\n}\n"
