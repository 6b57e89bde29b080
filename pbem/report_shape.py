"""The structure of a report's data block, checked before anything reads it.

A report is signed, but anyone can sign one with their own key (and put their own card in
it): until the reader's pinned moderator key is compared, the data block is untrusted, and
even a report signed by the right key may come from a buggy program.  :func:`check_report_data`
checks every field a player's commands read (``pbem read``, ``orders``, ``check``, ``sign``),
so a malformed block is refused with the field's name instead of failing deep inside.
The game's ``public`` view is only checked to be an object: its meaning is the game's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from pbem.errors import FormatError, PbemError

T = TypeVar("T")

MAX_SEATS = 64
MAX_NUMBER = 10**9
_HEX64 = re.compile(r"[0-9a-f]{64}")
_GAME_ID = re.compile(r"[0-9A-F]{16}")
_GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def _fail(source: str, field: str, problem: str) -> NoReturn:
    raise FormatError(
        f"{source}: the report data block is damaged ({field} {problem})",
        "ask the moderator for the report again; do not act on this copy",
    )


def _number(source: str, data: dict[str, Any], field: str, low: int) -> int:
    value = data[field]
    if type(value) is not int or not low <= value <= MAX_NUMBER:
        _fail(source, field, f"must be a whole number from {low} to {MAX_NUMBER}")
    return int(value)


def _text(source: str, data: dict[str, Any], field: str, pattern: re.Pattern[str]) -> str:
    value = data[field]
    if type(value) is not str or not pattern.fullmatch(value):
        _fail(source, field, f"must be text of the form {pattern.pattern}")
    return str(value)


def check_report_data(data: dict[str, Any], source: str) -> None:
    """Check the fields of a report data block (all present: checked by the caller).

    Raises FormatError naming the report and the field.
    """
    _text(source, data, "game", _GAME_NAME)
    _text(source, data, "game_id", _GAME_ID)
    _number(source, data, "turn", 1)
    _number(source, data, "revision", 0)
    _text(source, data, "text_sha256", _HEX64)
    if data["private_sha256"] is not None:
        _text(source, data, "private_sha256", _HEX64)
    names = data["names"]
    if (
        type(names) is not list
        or not 1 <= len(names) <= MAX_SEATS
        or any(type(n) is not str or not 0 < len(n) <= 64 for n in names)
    ):
        _fail(source, "names", f"must list 1 to {MAX_SEATS} player names")
    awaiting = data["awaiting"]
    if type(awaiting) is not list or any(name not in names for name in awaiting):
        _fail(source, "awaiting", "must list players of this game")
    seat, player = data["seat"], data["player"]
    if seat is None:
        if player is not None or data["seq"] is not None:
            _fail(source, "player", "must be null in the public report")
    else:
        if type(seat) is not int or not 0 <= seat < len(names):
            _fail(source, "seat", "must be a seat of this game")
        if player != names[seat]:
            _fail(source, "player", "must be the name of the report's seat")
        _number(source, data, "seq", 0)
    if type(data["public"]) is not dict:
        _fail(source, "public", "must be an object")


def game_call(source: str, step: Callable[..., T], *args: Any) -> T:
    """Run the game's code (``order_form``, ``validate``, a bot) on a view read from the
    report ``source``.

    The view came from a file: a game that cannot read it means the report is not what a
    moderator's pbem wrote.  Raises FormatError saying so instead of the game's own
    exception; pbem errors and the game's OrderErrors (bad orders) pass through.
    """
    from pbem.game import OrderErrors

    try:
        return step(*args)
    except (PbemError, OrderErrors):
        raise
    except Exception as exc:  # the game's code on data it never checked: any error is a refusal
        text = str(exc) if len(str(exc)) <= 80 else f"{str(exc)[:77]}..."
        raise FormatError(
            f"{source}: the game cannot read the position in this report ({type(exc).__name__}: {text})",
            "ask the moderator for the report again; do not act on this copy",
        ) from None
