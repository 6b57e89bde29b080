"""The award line of every board position and rider, read from a table instead of searched (issue 13).

Awarding Psi needs only which satellites the best line through a rider's satellite runs
along and whether it ends in an eclipse (:func:`.rules.award_line`), and the board has only
3 * 6 * 12 * 28 positions times 4 riders (24,192).  ``award_table.json`` holds the answer of
the exact line search (:func:`.rules.best_line_at`) for each, one character per position and
rider, so that a game's first visit to a position costs a string look-up instead of a search
(the search is kept for the witness angles reports draw, and for anything the table cannot
answer).

The file names the board it was made for (a hash of every satellite's allowed arcs, the
radii and Jupiter's): on another board, or if the file is missing or unreadable, every
look-up answers :data:`UNKNOWN` and the rules search as before, so a stale table can slow a
game down but never change an award.  ``tests/jovian_syzygy/test_jovian_award_table.py``
checks every entry against the search; after changing the board or the search, write the
table again with
``python -c "from pbem_games.jovian_syzygy import award_table; award_table.main()"``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from functools import cache
from itertools import product
from pathlib import Path
from typing import Final

from . import board

Award = tuple[tuple[str, ...], bool]
"""An award line: the satellites along it (the rider's first) and whether it is an eclipse."""

UNKNOWN: Final = "unknown"
"""What :func:`lookup` answers when the table cannot (not loaded, or not a board position)."""

FORMAT = 1
_FILE = Path(__file__).with_name("award_table.json")
_NONE = "."
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_SEGMENTS = tuple(t.segments for t in board.TRACKS)
_RIDER = {moon: i for i, moon in enumerate(board.MOONS)}
SIZE = len(board.MOONS)
for _count in _SEGMENTS:
    SIZE *= _count


def board_hash() -> str:
    """What the line search's answers depend on, hashed: every satellite's allowed arc on
    every segment, the tracks' radii and Jupiter's radius (a table made for another board is
    not used)."""
    facts = [
        (t.moon, t.radius, t.segments, [board.allowed_arc(t.moon, s) for s in range(t.segments)])
        for t in board.TRACKS
    ]
    text = json.dumps([FORMAT, board.JUPITER_RADIUS, facts], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def index(sats: Sequence[int], moon: str) -> int | None:
    """The position of (``sats``, ``moon``) in the table, or None if it is not a position of
    the board (a wrong count of satellites, a segment out of range, an unknown moon)."""
    rider = _RIDER.get(moon) if isinstance(moon, str) else None
    if rider is None or len(sats) != len(_SEGMENTS):
        return None
    at = 0
    for seg, count in zip(sats, _SEGMENTS, strict=True):
        if type(seg) is not int or not 0 <= seg < count:
            return None
        at = at * count + seg
    return at * len(_RIDER) + rider


def positions() -> list[tuple[tuple[int, ...], str]]:
    """Every (satellites, rider) in table order."""
    return [(sats, moon) for sats in product(*(range(n) for n in _SEGMENTS)) for moon in board.MOONS]


def build(search: Callable[[tuple[int, ...], str], Award | None]) -> dict[str, object]:
    """The table as JSON: ``search`` asked for every position and rider."""
    lines: list[Award] = []
    chars = []
    for sats, moon in positions():
        award = search(sats, moon)
        if award is None:
            chars.append(_NONE)
            continue
        if award not in lines:
            lines.append(award)
        chars.append(_ALPHABET[lines.index(award)])
    return {
        "format": FORMAT,
        "board": board_hash(),
        "lines": [[list(moons), eclipse] for moons, eclipse in lines],
        "table": "".join(chars),
    }


@cache
def _loaded() -> tuple[str, tuple[Award, ...]] | None:
    """The table and its lines from the file, or None if it is missing, unreadable, in
    another format or made for another board."""
    try:
        data = json.loads(_FILE.read_text(encoding="utf-8"))
        table, raw = data["table"], data["lines"]
        if data["format"] != FORMAT or data["board"] != board_hash():
            return None
        lines = tuple((tuple(str(m) for m in moons), bool(eclipse)) for moons, eclipse in raw)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(table, str) or len(table) != SIZE or len(lines) > len(_ALPHABET):
        return None
    if set(table) - {_NONE, *_ALPHABET[: len(lines)]}:
        return None
    return table, lines


_LINE_OF = {char: i for i, char in enumerate(_ALPHABET)}


def lookup(sats: Sequence[int], moon: str) -> Award | str | None:
    """The award line of ``moon``'s rider with the satellites on ``sats`` (None: no line), or
    :data:`UNKNOWN` when the table cannot say (then search)."""
    loaded = _loaded()
    at = index(sats, moon)
    if loaded is None or at is None:
        return UNKNOWN
    table, lines = loaded
    char = table[at]
    return None if char == _NONE else lines[_LINE_OF[char]]


def main() -> None:
    """Write the table again from the line search (after a change to the board or the search)."""
    from .rules import search_award_line

    data = build(search_award_line)
    parts = [f" {json.dumps(k)}: {json.dumps(data[k])}" for k in ("format", "board")]
    lines = ",\n".join(f"  {json.dumps(line)}" for line in data["lines"])  # type: ignore[attr-defined]
    parts += [f' "lines": [\n{lines}\n ]', f' "table": {json.dumps(data["table"])}']
    _FILE.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")
    print(f"wrote {_FILE.name}: {SIZE:,} positions and riders")
