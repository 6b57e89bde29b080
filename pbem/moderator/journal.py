"""The moderator's journal of one game: what it did and when, for ``pbem log`` and the
timestamped lines ``pbem moderate`` prints.

The journal lives in the game's record (:mod:`pbem.moderator.record`, field ``log``).  Each
entry is a small flat table::

    {"n": 57, "at": 1800000060, "kind": "turn-resolved", "turn": 3, "text": "turn 3 resolved"}

``n`` counts entries from the first (so a reader can tell which entries are new, and how many
old ones the record no longer keeps), ``at`` is the time in seconds since the epoch, ``kind``
one of :data:`KINDS`, ``turn`` and ``player`` where they apply.  Records written before
entries were tables hold plain lines, most of them starting with an ISO 8601 time: they
still load, and are read here with the time taken from the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

KINDS = {
    "turn-started": "a turn began (its clock started)",
    "turn-resolved": "a turn was resolved",
    "accepted": "an order file was filed",
    "rejected": "an order file was refused (and kept in the quarantine)",
    "reminder": "reminders were sent",
    "missed": "a seat sent no orders in time",
    "stand-in": "a stand-in played a seat's orders",
    "abandoned": "a seat was marked abandoned",
    "extended": "the deadline was moved",
    "paused": "the clock was stopped",
    "resumed": "the clock was restarted",
    "replaced": "a seat was given to a new player",
    "resigned": "a seat was resigned",
    "rollback": "the game went back to an earlier turn",
    "repaired": "the moderator repaired its own files",
    "note": "anything else",
}
"""Every kind of journal entry, with what it means (``pbem log --kind`` filters on these)."""

_STAMP = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(?::[0-9]{2})?(?:\+00:00|Z)?) (.*)", re.S)
_OLD_KINDS = (
    (re.compile(r"turn [0-9]+ started"), "turn-started"),
    (re.compile(r"turn [0-9]+ resolved"), "turn-resolved"),
    (re.compile(r"reminder [0-9]+ for turn"), "reminder"),
    (re.compile(r".* missed turn [0-9]+$"), "missed"),
    (re.compile(r".* abandoned the game$"), "abandoned"),
    (re.compile(r"deadline extended"), "extended"),
    (re.compile(r"game paused"), "paused"),
    (re.compile(r"game resumed"), "resumed"),
    (re.compile(r".* replaced by "), "replaced"),
    (re.compile(r".* resigned$"), "resigned"),
    (re.compile(r"rolled back to turn"), "rollback"),
    (re.compile(r"inbox/.*: (accepted|replaced)"), "accepted"),
    (re.compile(r"inbox/.*: "), "rejected"),
    (re.compile(r".*(damaged|moved aside|rebuilt)"), "repaired"),
)


MAX_NUMBER = 10**11
"""Times, turns and entry numbers above this are damage (10**11 s is the year 5138)."""


@dataclass(frozen=True)
class Entry:
    """One journal entry, read from either form."""

    n: int
    at: int | None
    """Seconds since the epoch; None for an old line that carried no time."""
    kind: str
    text: str
    turn: int | None = None
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n, "at": self.at, "kind": self.kind, "text": self.text}
        if self.turn is not None:
            out["turn"] = self.turn
        if self.player is not None:
            out["player"] = self.player
        return out

    def line(self) -> str:
        """The entry as one line for a person: time, turn, text."""
        turn = f"turn {self.turn}" if self.turn is not None else ""
        return f"{stamp(self.at)}  {turn:<9} {self.text}"


def stamp(at: int | None) -> str:
    """``at`` as a UTC time to the second (``2027-01-15 08:00:00Z``), or a dash for no time."""
    if at is None:
        return "-" + " " * 19
    try:
        return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    except (ValueError, OverflowError, OSError):
        return "?" + " " * 19


def parse_stamp(text: str) -> tuple[int | None, str]:
    """An old journal line's leading ISO 8601 time (seconds since the epoch) and the rest of
    the line; (None, text) when it starts with no time."""
    match = _STAMP.fullmatch(text)
    if match is None:
        return None, text
    raw = match.group(1).replace("Z", "+00:00")
    if "+" not in raw[10:]:
        raw += "+00:00"
    try:
        return int(datetime.fromisoformat(raw).timestamp()), match.group(2)
    except ValueError:
        return None, text


def make_entry(
    log: Sequence[object], text: str, at: int | None, kind: str, turn: int | None, player: str | None
) -> dict[str, Any]:
    """A new entry to append to ``log`` (its ``n`` follows the last entry's).  Without ``at``,
    a leading ISO time in ``text`` is taken as the entry's time."""
    if at is None:
        at, text = parse_stamp(text)
    last = read_entries(log[-1:], first=len(log))
    n = last[0].n + 1 if last else 1
    entry = Entry(n, at, kind if kind in KINDS else "note", text, turn, player)
    return entry.to_json()


def _int_or_none(value: object, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int | None:
    return value if type(value) is int and low <= value <= high else None


def read_entries(log: Iterable[object], first: int = 1) -> list[Entry]:
    """The entries of a record's ``log``, old lines and tables alike.  Never raises: a field
    of the wrong type is read as missing.  ``first`` numbers old lines that carry no ``n``."""
    out: list[Entry] = []
    n = first - 1
    for raw in log:
        if isinstance(raw, str):
            at, text = parse_stamp(raw)
            n += 1
            kind = next((k for pattern, k in _OLD_KINDS if pattern.match(text)), "note")
            out.append(Entry(n, at, kind, text))
        elif isinstance(raw, dict):
            given = _int_or_none(raw.get("n"))
            n = given if given is not None and given > n else n + 1
            what, said, who = raw.get("kind"), raw.get("text"), raw.get("player")
            out.append(
                Entry(
                    n,
                    _int_or_none(raw.get("at"), 0, MAX_NUMBER),
                    what if isinstance(what, str) and what in KINDS else "note",
                    said if isinstance(said, str) else "",
                    _int_or_none(raw.get("turn")),
                    who if isinstance(who, str) else None,
                )
            )
    return out


def added(before: Sequence[object], after: Sequence[object]) -> list[Entry]:
    """The entries of ``after`` that were appended since the journal was ``before``."""
    old = read_entries(before[-1:], first=len(before))
    last = old[0].n if old else 0
    return [e for e in read_entries(after, first=1) if e.n > last]
