"""Text a person reads: players' names put in for seat numbers, lines folded for mail.

Games know seats, not names: they write "player 3" (1-based) in reports, events, order
forms, outcome summaries, pictures and validation errors.  :func:`name_seats` is the one
place where those references become the players' names; every text and picture pbem shows
a person goes through it (reports, order forms, validation errors, the moderator's notices
and previews, ``advance``, ``show`` and ``status``).

:func:`counted` writes a number with its noun ("1 point", "2 points") and :func:`join_names`
a list of names ("alice, bob and dave"): every count and list a person reads goes through
them.

Mail clients fold lines longer than 72 columns, and quoting adds two more: :func:`wrap_text`
folds every line pbem writes for mail to :data:`WIDTH` columns, keeping a line's
indentation, its list bullet and its ``#`` comment mark on the continuation lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.engine import Advanced
    from pbem.game import Event

WIDTH = 70
"""Columns pbem fills in text for mail: under 72 even after one level of "> " quoting."""

_SEAT_RE = re.compile(r"\b[Pp]layer (\d{1,2})\b")
"""A seat reference: what :func:`name_seats` replaces (the definition; the search uses
:data:`_SEAT_AT`, the same matches)."""
_SEAT_AT = re.compile(r"layer (?<=(?<!\w)[Pp]layer )(\d{1,2})\b")
""":data:`_SEAT_RE`'s matches found from their literal "layer ": the regex engine then skips
to each "layer " (a literal prefix) where ``[Pp]`` first tested every character through its
charset code (~40 instructions a character); the letter before, and the word boundary
before it, are checked looking back.  A match of this pattern is a match of
:data:`_SEAT_RE` less its first character, and the other way round."""
_PREFIX_RE = re.compile(r"^(\s*)(#+\s*)?([-*]\s+|\d{1,3}[.)]\s+)?")
"""Indentation, a comment mark (``#``), then a list bullet ("- ", "* ", "3. ")."""


def name_seats(text: str, names: Sequence[str]) -> str:
    """Replace the games' seat references ("player 3", 1-based) by the players' names.

    A number with no such seat is left alone.  Never raises.
    """

    parts = _SEAT_AT.split(text)  # text, seat number, text, ... (each text before ends with P or p)
    if len(parts) == 1:
        return text
    out: list[str] = []
    for at in range(1, len(parts), 2):
        index = int(parts[at]) - 1
        if 0 <= index < len(names):
            out += (parts[at - 1][:-1], names[index])
        else:
            out += (parts[at - 1], "layer ", parts[at])
    out.append(parts[-1])
    return "".join(out)


@lru_cache(maxsize=8192)
def wrap_line(line: str, width: int = WIDTH) -> tuple[str, ...]:
    """``line`` folded into lines of at most ``width`` columns where it has spaces to fold at.

    Continuation lines repeat the indentation and comment mark and are indented under the
    text after a bullet (two more columns where there is none), so a folded ``#`` comment
    stays a comment and a folded list item or table row reads as one.  Words are never
    split: a single word longer than the line (a long path) stays whole.  A line that fits
    is returned unchanged.
    """
    line = line.rstrip()
    if len(line) <= width:
        return (line,)
    match = _PREFIX_RE.match(line)
    assert match is not None  # every group is optional
    indent, comment, bullet = match.group(1), match.group(2) or "", match.group(3) or ""
    head = indent + comment + bullet
    if comment:
        comment = comment.rstrip() + " "
        rest = " " * (len(match.group(2)) - len(comment))
    else:
        rest = ""
    follow = indent + comment + rest + (" " * len(bullet) if bullet else "  ")
    if len(follow) > width // 2:
        follow = indent[: width // 4] + comment
    body = line[len(head) :]
    import textwrap  # here: `pbem status` needs the names, not the folding (start-up)

    folded = textwrap.wrap(
        body,
        width,
        initial_indent=head,
        subsequent_indent=follow,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return tuple(folded) or (line,)


def fold(
    text: str,
    width: int,
    initial_indent: str = "",
    subsequent_indent: str = "",
    break_on_hyphens: bool = True,
) -> list[str]:
    """``textwrap.wrap(text, width, initial_indent=..., subsequent_indent=...,
    break_on_hyphens=...)``: the same lines, without textwrap's chunk regex and its loop
    where the text is plain words.

    That is when ``text`` is words (no white space of any kind) joined by single spaces,
    each word fits a line whatever its indent, and it holds no hyphen where textwrap could
    break at one (or it all fits on the first line): textwrap then fills each line
    greedily with whole words, one space apart, as here.  Any other text goes to textwrap
    (a test fuzzes the two against each other).  Never raises for a string.
    """
    words = text.split(" ")
    room, later = width - len(initial_indent), width - len(subsequent_indent)
    if (
        not text
        or words != text.split()
        or max(map(len, words)) > min(room, later)
        or (break_on_hyphens and "-" in text and len(text) > room)
    ):
        import textwrap  # here: `pbem status` needs the names, not the folding (start-up)

        return textwrap.wrap(
            text,
            width,
            initial_indent=initial_indent,
            subsequent_indent=subsequent_indent,
            break_on_hyphens=break_on_hyphens,
        )
    if len(text) <= room:
        return [initial_indent + text]
    out: list[str] = []
    line, size = [words[0]], len(words[0])
    for word in words[1:]:
        if size + 1 + len(word) <= room:
            line.append(word)
            size += 1 + len(word)
        else:
            out.append((subsequent_indent if out else initial_indent) + " ".join(line))
            line, size, room = [word], len(word), later
    out.append((subsequent_indent if out else initial_indent) + " ".join(line))
    return out


def wrap_lines(lines: Iterable[str], width: int = WIDTH) -> list[str]:
    """Every line of ``lines`` folded by :func:`wrap_line`."""
    out: list[str] = []
    append = out.append
    for line in lines:
        line = line.rstrip()
        if len(line) <= width:  # what wrap_line returns for a line that fits, without the call
            append(line)
        else:
            out += wrap_line(line, width)
    return out


def wrap_text(text: str, width: int = WIDTH) -> str:
    """``text`` with every line folded by :func:`wrap_line` (a final newline is kept)."""
    lines = text.split("\n")
    trimmed = list(map(str.rstrip, lines))
    if max(map(len, trimmed)) <= width:
        # Every line fits (what pbem's templates and games write): :func:`wrap_lines` would
        # only trim each line, done here by ``map`` in C instead of a loop in Python.
        return "\n".join(trimmed)
    folded = "\n".join(wrap_lines(lines, width))
    return folded


def for_people(text: str, names: Sequence[str], width: int = WIDTH) -> str:
    """Names put in for seat references, then lines folded: what a person reads."""
    return wrap_text(name_seats(text, names), width)


def form_lines(lines: Iterable[str], names: Sequence[str], width: int = WIDTH) -> list[str]:
    """Order form lines with names put in and ``#`` comments folded.

    Order lines (not comments) are left exactly as the game wrote them: folding one would
    turn one order into two.
    """
    out: list[str] = []
    for line in lines:
        if line.lstrip().startswith("#"):
            out += wrap_line(name_seats(line, names), width)
        else:
            out.append(line)
    return out


def event_lines(events: Iterable[Event], names: Sequence[str], indent: str = "  ") -> list[str]:
    """A turn's events for the moderator's screen, named; private ones say whose they are."""
    out = []
    for event in events:
        whose = ""
        if event.to is not None:
            readers = ", ".join(seat_name(s, names) for s in event.to)
            whose = f"(private to {readers}) "
        out.append(f"{indent}{whose}{name_seats(event.text, names)}")
    return out


def advanced_lines(result: Advanced, names: Sequence[str], *, preview: bool, fill: str) -> list[str]:
    """What ``pbem advance`` prints: the events, stand-ins, and the outcome or who is next."""
    out = ["preview only, nothing written:"] if preview else []
    out += event_lines(result.events, names)
    if result.filled:
        out.append(f"orders filled in ({fill}) for: {', '.join(result.filled)}")
    if result.outcome is not None:
        out.append(f"game over: {name_seats(result.outcome.summary, names)}")
    else:
        out.append(f"turn {result.turn}: awaiting {', '.join(result.awaiting)}")
    return out


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, the noun plural unless ``n`` is 1 or -1: "1 point", "0 points", "3 cards".

    ``plural`` is the plural where it is not ``noun`` + "s" ("Psi", "lives").  Never raises.
    """
    return f"{n} {noun if n in (1, -1) else (plural if plural is not None else noun + 's')}"


def join_names(names: Iterable[str], empty: str = "") -> str:
    """Names as a person lists them: "alice", "alice and bob", "alice, bob and dave".

    ``empty`` is what an empty list reads as ("nobody").  Never raises.
    """
    items = list(names)
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def seat_name(seat: object, names: Sequence[str]) -> str:
    """The name of a 0-based seat number, or "seat N" for a number with no such seat."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def outcome_line(summary: str, winners: Sequence[str]) -> str:
    """A finished game's result said once: the game's own summary (names put in), and who won
    only where the summary does not already name every winner.

    "bob won (alice 7, bob 1)." stays as it is; "solo timed: 35 Psi after 40 rounds" becomes
    "solo timed: 35 Psi after 40 rounds; won by alice", and a summary that names no winner
    when there is none gets "; nobody won".  Never raises.
    """
    text = summary.strip()
    if winners:
        if all(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) for name in winners):
            return text
        return f"{text.rstrip('.')}; won by {join_names(winners)}"
    if re.search(r"\b(nobody|no winner|no one)\b", text, re.IGNORECASE):
        return text
    return f"{text.rstrip('.')}; nobody won"


def named_outcome(outcome: Mapping[str, Any] | None, names: Sequence[str]) -> dict[str, Any] | None:
    """A save's outcome record with the summary named and ``won_by``: the winners' names."""
    if outcome is None:
        return None
    winners = outcome.get("winners")
    return dict(
        outcome,
        summary=name_seats(str(outcome.get("summary", "")), names),
        won_by=[seat_name(w, names) for w in winners] if isinstance(winners, list) else [],
    )
