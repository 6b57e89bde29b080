"""The structure of a save's public body, checked in one place before any command uses it.

A signature says who wrote a save, not that what they wrote is well formed: a save signed by
the right key can still hold a player entry of the wrong shape, an awaited seat out of
range or a damaged replay log (a bug in an older pbem, a hand-edited save re-signed, a
moderator key used by another program).  :func:`check_body` checks every field the engine
and the commands read, so that each of them can index the body without guarding, and a
malformed save is refused with the field's path instead of a traceback deep in a command.

The game's own parts (``public``, ``options`` values, the orders inside ``replay``) are
only checked to be JSON of the right container type: their meaning is the game's.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

from pbem.errors import FormatError

STATUSES = ("active", "resigned", "abandoned")
"""What a seat's ``status`` may be."""
MAX_SEATS = 64
MAX_TURN = 10**9
MAX_TEXT = 100_000
"""The longest string field in a body (an event, a summary) a save may hold."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_GAME_ID = re.compile(r"[0-9A-F]{16}")
_GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_SEED = re.compile(r"(?:[0-9a-f]{2}){16,64}")


class _Checker:
    """Collects the path of the first problem (``body.players[2].status``)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> NoReturn:
        raise FormatError(
            f"save file {self.source}: {path} {problem}",
            "the save is signed but malformed: restore the game's last good save from its history/ "
            "folder (pbem rollback) or your backup, and report how it was written",
        )

    def integer(self, value: Any, path: str, low: int, high: int) -> int:
        if type(value) is not int or not low <= value <= high:
            self.fail(path, f"must be a whole number from {low} to {high}")
        return int(value)

    def text(self, value: Any, path: str, pattern: re.Pattern[str] | None = None) -> str:
        if type(value) is not str or len(value) > MAX_TEXT:
            self.fail(path, f"must be text of at most {MAX_TEXT:,} characters")
        if pattern is not None and not pattern.fullmatch(value):
            self.fail(path, f"is not of the expected form ({pattern.pattern})")
        return str(value)

    def seats(self, value: Any, path: str, count: int, *, distinct: bool = True) -> list[int]:
        if type(value) is not list:
            self.fail(path, "must be a list of seats")
        seats = [self.integer(seat, f"{path}[{i}]", 0, count - 1) for i, seat in enumerate(value)]
        if distinct and len(set(seats)) != len(seats):
            self.fail(path, "names a seat twice")
        return seats

    def obj(self, value: Any, path: str, keys: set[str]) -> dict[str, Any]:
        """``value`` when it is an object with exactly the fields ``keys``; read only (the
        body's own dict, not a copy: every save written or read is checked)."""
        if type(value) is not dict:
            self.fail(path, "must be an object")
        if value.keys() == keys:  # the usual case, compared in C without building sets
            return value
        missing = keys - set(value)
        extra = set(value) - keys
        if missing:
            self.fail(path, f"lacks {sorted(missing)}")
        if extra:
            self.fail(path, f"has unknown fields {sorted(extra)[:5]}")
        return dict(value)


def check_body(body: dict[str, Any], source: str) -> None:
    """Check the structure of a save's body (its top-level field types already checked).

    Raises FormatError naming the save, the field's path and what it must be.
    """
    from pbem.keys import PublicCard

    c = _Checker(source)
    c.text(body["game"], "body.game", _GAME_NAME)
    c.text(body["game_id"], "body.game_id", _GAME_ID)
    c.integer(body["turn"], "body.turn", 1, MAX_TURN)
    c.integer(body["revision"], "body.revision", 0, MAX_TURN)
    for name in body["options"]:
        value = body["options"][name]
        c.text(name, "body.options (a name)")
        if type(value) not in (bool, int, str):
            c.fail(f"body.options.{name}", "must be true, false, a number or text")

    players = body["players"]
    if not 1 <= len(players) <= MAX_SEATS:
        c.fail("body.players", f"must list 1 to {MAX_SEATS} seats")
    names: list[str] = []
    for seat, player in enumerate(players):
        path = f"body.players[{seat}]"
        entry = c.obj(player, path, {"card", "status"})
        if entry["status"] not in STATUSES:
            c.fail(f"{path}.status", f"must be one of {', '.join(STATUSES)}")
        try:
            fields = c.obj(entry["card"], f"{path}.card", {"name", "sign", "age", "self_sig"})
            card = PublicCard.from_json(fields)
        except FormatError as exc:
            c.fail(f"{path}.card", f"is not a public key record ({exc.message})")
        c.text(card.name, f"{path}.card.name")
        if card.name.lower() in names:
            c.fail(f"{path}.card.name", f"repeats the player name {card.name!r}")
        names.append(card.name.lower())
    count = len(players)

    c.seats(body["awaiting"], "body.awaiting", count)
    c.seats(body["submitted"], "body.submitted", count)
    for name, seq in body["seq"].items():
        c.integer(seq, f"body.seq.{name[:40]}", 0, 10**9)
    for i, event in enumerate(body["events"]):
        entry = c.obj(event, f"body.events[{i}]", {"text", "to"})
        c.text(entry["text"], f"body.events[{i}].text")
        if entry["to"] is not None:
            c.seats(entry["to"], f"body.events[{i}].to", count)

    outcome = body["outcome"]
    if outcome is not None:
        entry = c.obj(outcome, "body.outcome", {"winners", "scores", "summary"})
        c.seats(entry["winners"], "body.outcome.winners", count)
        c.text(entry["summary"], "body.outcome.summary")
        if entry["scores"] is not None and type(entry["scores"]) is not list:
            c.fail("body.outcome.scores", "must be a list or null")
    c.text(body["seed_commitment"], "body.seed_commitment", _HEX64)
    if body["prev"] is not None:
        c.text(body["prev"], "body.prev", _HEX64)
    c.text(body["written"], "body.written")
    if len(body["written"]) > 40:
        c.fail("body.written", "is not a time")
    _check_end(c, body, count)
    for i, pledge in enumerate(body.get("reseeds", [])):
        entry = c.obj(pledge, f"body.reseeds[{i}]", {"turn", "revision", "commitment"})
        c.integer(entry["turn"], f"body.reseeds[{i}].turn", 1, MAX_TURN)
        c.integer(entry["revision"], f"body.reseeds[{i}].revision", 0, MAX_TURN)
        c.text(entry["commitment"], f"body.reseeds[{i}].commitment", _HEX64)


def _check_end(c: _Checker, body: dict[str, Any], count: int) -> None:
    """A finished game reveals its seed and its replay log; an unfinished one neither."""
    over = body["outcome"] is not None
    if (body["seed"] is not None) != over or (body["replay"] is not None) != over:
        c.fail(
            "body.seed and body.replay",
            "must both be set when the game is over (body.outcome) and both be null before",
        )
    if not over:
        return
    c.text(body["seed"], "body.seed", _SEED)
    for i, entry in enumerate(body["replay"]):
        path = f"body.replay[{i}]"
        if type(entry) is dict and "reseed" in entry:
            step = c.obj(entry, path, {"turn", "reseed"})
            c.integer(step["turn"], f"{path}.turn", 1, MAX_TURN)
            c.text(step["reseed"], f"{path}.reseed", _SEED)
            continue
        step = c.obj(entry, path, {"turn", "orders"})
        c.integer(step["turn"], f"{path}.turn", 1, MAX_TURN)
        if type(step["orders"]) is not dict:
            c.fail(f"{path}.orders", "must be an object from seat to orders")
        for seat in step["orders"]:
            if not (seat.isascii() and seat.isdigit() and len(seat) <= 3 and int(seat) < count):
                c.fail(f"{path}.orders", f"names seat {seat[:20]!r}, not a seat of this game")
