"""Deadlines, reminders, grace and missed turns: the timing policy of a moderated game.

A game's config (TOML) carries a ``[timing]`` table::

    [timing]
    deadline = "48h"          # per turn; "none" waits for ever
    reminders = ["24h", "2h"]  # sent this long before the deadline
    grace = "6h"               # orders still accepted after the deadline
    on_missing = "default"     # wait | default | bot:<name>
    abandon_after = 3          # missed turns before a seat is marked abandoned (0: never)
    abandon_count = "consecutive"  # or "total"
    on_abandoned = "default"   # default | bot:<name>: who plays an abandoned seat

Everything here is a pure function of (policy, the turn's clock record, now).  Times are
integer seconds since the epoch (state is JSON-only, no floats).  Time itself comes from an
injected :class:`Clock`, so tests never sleep.  Pausing and extending a turn are data, a
:class:`TurnClock`, kept by the moderator in its per-game record.
"""

from __future__ import annotations

import re
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from pbem.errors import UsageError

_UNITS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"([0-9]{1,12})\s*([wdhms])")
MAX_DURATION = 10 * 365 * 86400
"""The longest duration read (ten years): longer ones are mistakes, and would overflow dates."""


def parse_duration(value: object, what: str = "duration") -> int:
    """Seconds in ``value``: an int (seconds) or text such as ``"2d"``, ``"1h30m"``, ``"90s"``.

    Raises UsageError naming ``what`` when the value cannot be read, is negative or is
    longer than MAX_DURATION.
    """
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    if isinstance(value, bool):
        raise UsageError(f"{what}: expected a duration such as '48h', got {shown}")
    if isinstance(value, int):
        if value < 0:
            raise UsageError(f"{what}: a duration cannot be negative ({shown})")
        return _bounded(value, what)
    if not isinstance(value, str):
        raise UsageError(f"{what}: expected a duration such as '48h', got {shown}")
    text = value.strip().lower().replace(" ", "")
    if text.isascii() and text.isdigit():
        return _bounded(int(text) if len(text) <= 12 else MAX_DURATION + 1, what)
    pos, total = 0, 0
    for match in _DURATION.finditer(text):
        if match.start() != pos:
            break
        total += int(match.group(1)) * _UNITS[match.group(2)]
        pos = match.end()
    if pos != len(text) or not text:
        raise UsageError(
            f"{what}: cannot read duration {shown}",
            hint="write a number with a unit: w, d, h, m or s, e.g. '2d', '1h30m', '90s'",
        )
    return _bounded(total, what)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def choices(bots: Collection[str] | None, wait: bool = True) -> list[str]:
    """The valid values of a stand-in setting: ``wait`` (where allowed), ``default`` and
    ``bot:<name>`` for each of ``bots`` (a placeholder when the bots are not known)."""
    named = [f"bot:{b}" for b in sorted(bots)] if bots is not None else ["bot:<name> (e.g. bot:greedy)"]
    return [*(["wait"] if wait else []), "default", *named]


def installed_bots() -> frozenset[str]:
    """Every bot of every installed game (what a root-wide default may name)."""
    from pbem.registry import game_names, get_game

    return frozenset(bot for name in game_names() for bot in get_game(name).bots)


def _bounded(seconds: int, what: str) -> int:
    if seconds > MAX_DURATION:
        raise UsageError(f"{what}: longer than ten years", hint="write a shorter duration, e.g. '2d'")
    return seconds


def format_duration(seconds: int) -> str:
    """A short human form of ``seconds``: ``"1d 2h"``, ``"45m"``, ``"0s"``."""
    if seconds <= 0:
        return "0s"
    parts = []
    for unit in ("d", "h", "m", "s"):
        count, seconds = divmod(seconds, _UNITS[unit])
        if count:
            parts.append(f"{count}{unit}")
    return " ".join(parts[:2])


@dataclass(frozen=True)
class Missing:
    """What happens to a seat that sent no orders once the grace period is over."""

    action: str
    """``wait``, ``default`` or ``bot``."""
    bot: str | None = None

    @classmethod
    def parse(
        cls, value: object, what: str = "on_missing", bots: Collection[str] | None = None, wait: bool = True
    ) -> Missing:
        """Read ``wait``, ``default`` or ``bot:<name>``.  With ``bots`` (the game's bots, or
        every installed game's), a bot must be one of them; without ``wait``, ``wait`` is
        refused.  Raises UsageError listing the valid choices otherwise."""
        hint = f"choose one of: {', '.join(choices(bots, wait))}"
        if not isinstance(value, str):
            raise UsageError(f"{what}: expected text such as 'default', not {_shown(value)}", hint=hint)
        text = value.strip().lower()
        if text == "wait" and not wait:
            raise UsageError(f"{what}: a seat here must be played, it cannot 'wait'", hint=hint)
        if text in ("wait", "default"):
            return cls(text)
        if text.startswith("bot:") and text[4:].strip():
            name = text[4:].strip()
            if bots is not None and name not in bots:
                raise UsageError(f"{what}: there is no bot called {_shown(name)}", hint=hint)
            return cls("bot", name)
        raise UsageError(f"{what}: {_shown(value)} is not a policy", hint=hint)

    def __str__(self) -> str:
        return f"bot:{self.bot}" if self.action == "bot" else self.action


@dataclass(frozen=True)
class TimingPolicy:
    """A game's timing rules.  ``deadline`` None means no deadline (wait for ever)."""

    deadline: int | None = None
    reminders: tuple[int, ...] = ()
    """Seconds before the deadline, largest first."""
    grace: int = 0
    on_missing: Missing = field(default_factory=lambda: Missing("wait"))
    abandon_after: int = 0
    """Missed turns before a seat is abandoned; 0 never abandons."""
    abandon_count: str = "consecutive"
    on_abandoned: Missing = field(default_factory=lambda: Missing("default"))

    @classmethod
    def from_toml(cls, table: Mapping[str, Any], bots: Collection[str] | None = None) -> TimingPolicy:
        """Build from a parsed ``[timing]`` table; ``bots`` are the bots a stand-in may be
        (the game's; None: any name).  Raises UsageError for unknown keys, values of the
        wrong type (a string where a list belongs) and unknown bots, with the valid choices."""
        known = {
            "deadline",
            "reminders",
            "grace",
            "on_missing",
            "abandon_after",
            "abandon_count",
            "on_abandoned",
        }
        unknown = sorted(set(table) - known)
        if unknown:
            raise UsageError(
                f"[timing]: unknown setting(s) {', '.join(unknown)}",
                hint=f"known settings: {', '.join(sorted(known))}",
            )
        raw_deadline = table.get("deadline", "none")
        deadline = (
            None
            if isinstance(raw_deadline, str) and raw_deadline.strip().lower() in ("none", "")
            else parse_duration(raw_deadline, "[timing] deadline")
        )
        if deadline == 0:
            raise UsageError("[timing] deadline: must be longer than 0", hint="or write 'none'")
        raw_reminders = table.get("reminders", [])
        if not isinstance(raw_reminders, list):
            raise UsageError(
                f"[timing] reminders: expected a list of durations, not {_shown(raw_reminders)}",
                hint='write it in brackets, e.g. reminders = ["24h", "2h"] (or [] for none)',
            )
        if len(raw_reminders) > 20:
            raise UsageError(
                f"[timing] reminders: {len(raw_reminders)} reminders a turn is too many",
                hint="use at most 20",
            )
        reminders = tuple(
            sorted(
                {parse_duration(r, "[timing] reminders") for r in raw_reminders},
                reverse=True,
            )
        )
        if deadline is not None and any(r >= deadline for r in reminders):
            raise UsageError("[timing] reminders: a reminder must come after the turn starts")
        abandon_after = table.get("abandon_after", 0)
        if isinstance(abandon_after, bool) or not isinstance(abandon_after, int) or abandon_after < 0:
            raise UsageError(f"[timing] abandon_after: expected a whole number >= 0, got {abandon_after!r}")
        abandon_count = table.get("abandon_count", "consecutive")
        if not isinstance(abandon_count, str) or abandon_count.lower() not in ("consecutive", "total"):
            raise UsageError(
                f"[timing] abandon_count: expected 'consecutive' or 'total', not {_shown(abandon_count)}",
                hint="choose one of: consecutive, total",
            )
        abandon_count = abandon_count.lower()
        on_abandoned = Missing.parse(
            table.get("on_abandoned", "default"), "[timing] on_abandoned", bots, wait=False
        )
        return cls(
            deadline=deadline,
            reminders=reminders if deadline is not None else (),
            grace=parse_duration(table.get("grace", 0), "[timing] grace"),
            on_missing=Missing.parse(table.get("on_missing", "wait"), "[timing] on_missing", bots),
            abandon_after=abandon_after,
            abandon_count=abandon_count,
            on_abandoned=on_abandoned,
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON form, for status output."""
        return {
            "deadline": self.deadline,
            "reminders": list(self.reminders),
            "grace": self.grace,
            "on_missing": str(self.on_missing),
            "abandon_after": self.abandon_after,
            "abandon_count": self.abandon_count,
            "on_abandoned": str(self.on_abandoned),
        }


@dataclass(frozen=True)
class TurnClock:
    """When the current turn started, and how the moderator moved its deadline.

    ``extended`` seconds are added to the deadline; while ``paused_since`` is set nothing
    falls due and, on resume, the paused time is added to ``paused_total`` so the deadline
    moves by exactly the time the game was paused.
    """

    turn: int
    started: int
    extended: int = 0
    paused_since: int | None = None
    paused_total: int = 0

    def extend(self, seconds: int) -> TurnClock:
        """The same turn with its deadline ``seconds`` later (may be negative to shorten)."""
        return replace(self, extended=self.extended + seconds)

    def pause(self, now: int) -> TurnClock:
        """Paused from ``now`` on; pausing a paused turn changes nothing."""
        return self if self.paused_since is not None else replace(self, paused_since=now)

    def resume(self, now: int) -> TurnClock:
        """Running again; the paused time is not counted against the players."""
        if self.paused_since is None:
            return self
        return replace(
            self, paused_since=None, paused_total=self.paused_total + max(0, now - self.paused_since)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "started": self.started,
            "extended": self.extended,
            "paused_since": self.paused_since,
            "paused_total": self.paused_total,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnClock:
        return cls(
            turn=int(data["turn"]),
            started=int(data["started"]),
            extended=int(data.get("extended", 0)),
            paused_since=data.get("paused_since"),
            paused_total=int(data.get("paused_total", 0)),
        )


@dataclass(frozen=True)
class Due:
    """What is due for a turn at one instant."""

    paused: bool
    deadline: int | None
    """When orders are due (None: no deadline)."""
    grace_end: int | None
    """Until when late orders are still accepted."""
    reminders: tuple[int, ...]
    """Indexes into ``policy.reminders`` whose time has come (and the deadline has not)."""
    deadline_passed: bool
    grace_over: bool
    next_event: int | None
    """The next instant at which something new falls due (None: nothing ever will)."""


def reminder_times(policy: TimingPolicy, clock: TurnClock) -> tuple[int, ...]:
    """When each reminder of the policy falls due for this turn (empty without a deadline)."""
    deadline = deadline_of(policy, clock)
    if deadline is None:
        return ()
    return tuple(deadline - before for before in policy.reminders)


def deadline_of(policy: TimingPolicy, clock: TurnClock, now: int | None = None) -> int | None:
    """The deadline of the turn, with extensions and pauses applied.

    While paused, the deadline is counted as if the pause ended at ``now``.
    """
    if policy.deadline is None:
        return None
    paused = clock.paused_total
    if clock.paused_since is not None and now is not None:
        paused += max(0, now - clock.paused_since)
    return clock.started + policy.deadline + clock.extended + paused


def due(policy: TimingPolicy, clock: TurnClock, now: int) -> Due:
    """What is due for this turn at ``now``: a pure function, used by the moderator and status.

    A reminder is due from its time until the deadline (a reminder whose time passed while
    the moderator was down is still sent if the deadline has not); nothing falls due while the
    turn is paused.
    """
    deadline = deadline_of(policy, clock, now)
    if deadline is None:
        return Due(clock.paused_since is not None, None, None, (), False, False, None)
    grace_end = deadline + policy.grace
    if clock.paused_since is not None:
        return Due(True, deadline, grace_end, (), False, False, None)
    times = reminder_times(policy, clock)
    reminders = tuple(i for i, at in enumerate(times) if at <= now < deadline)
    passed = now >= deadline
    over = now >= grace_end
    future = [t for t in (*times, deadline, grace_end) if t > now]
    return Due(False, deadline, grace_end, reminders, passed, over, min(future) if future else None)


@dataclass(frozen=True)
class SeatRecord:
    """How often a seat missed its orders, and whether it is abandoned."""

    missed_total: int = 0
    missed_streak: int = 0
    abandoned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "missed_total": self.missed_total,
            "missed_streak": self.missed_streak,
            "abandoned": self.abandoned,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatRecord:
        return cls(
            int(data.get("missed_total", 0)),
            int(data.get("missed_streak", 0)),
            bool(data.get("abandoned", False)),
        )


def record_turn(policy: TimingPolicy, record: SeatRecord, missed: bool) -> SeatRecord:
    """The seat's record after a turn it owed orders for (``missed``: it sent none in time).

    Only seats that owed orders are counted (an eliminated or waiting seat never misses).  A
    seat that sends orders again keeps its total but its streak restarts; an abandoned seat
    stays abandoned until the moderator replaces the player.
    """
    if not missed:
        return replace(record, missed_streak=0)
    total, streak = record.missed_total + 1, record.missed_streak + 1
    count = streak if policy.abandon_count == "consecutive" else total
    abandoned = record.abandoned or (policy.abandon_after > 0 and count >= policy.abandon_after)
    return SeatRecord(total, streak, abandoned)


def stand_in(policy: TimingPolicy, record: SeatRecord) -> Missing:
    """Who plays a seat that sent nothing once the grace period is over."""
    return policy.on_abandoned if record.abandoned else policy.on_missing


class Clock(Protocol):
    """Where the moderator gets the time: whole seconds since the epoch."""

    def now(self) -> int: ...


class SystemClock:
    """The real time."""

    def now(self) -> int:
        return int(time.time())


class FixedClock:
    """A clock for tests: stands still until moved."""

    def __init__(self, start: int = 1_800_000_000) -> None:
        self.at = start

    def now(self) -> int:
        return self.at

    def advance(self, seconds: int) -> None:
        """Move the time forward by ``seconds``."""
        self.at += seconds
