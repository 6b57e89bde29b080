"""Whether an encrypted block in a report is ASCII armour as age writes it.

A turn's reports take a shortcut (:class:`pbem.reports._Turn`) only where the encrypted block
needs no folding, is its own normal form, and leaves the word digest alone: that is what
:func:`plain_armour` tells.  The block is made in this process by age (pyrage); the test is
not a defence against a hostile file (a report read from a file is checked by
:func:`pbem.reports.parse_report`), it decides whether the shortcut gives the plain way's bytes.
"""

from __future__ import annotations

from pbem.mailtext import AGE_BEGIN, AGE_END
from pbem.wording import WIDTH

ARMOUR_HEAD, ARMOUR_TAIL = AGE_BEGIN + "\n", "\n" + AGE_END
_NOT_IN_ARMOUR = b"\x00 \t\r\x0b\x0c\x1c\x1d\x1e\x1f"
"""NUL and the ASCII white space but the line break (what str.split splits at besides it)."""

_BASE64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_BASE64_KEPT = bytes(c if c in _BASE64 else (c + 1) % 256 for c in range(256))
"""A translation table that keeps each character of standard base64 (and its padding) and
changes every other byte: a text is all base64 exactly when translating it changes nothing."""


def armour_lines(block: str) -> list[str] | None:
    """The lines between the marker lines of ``block`` (trimmed) when it is ASCII age armour
    as pbem's encryption writes it: lines without white space, none blank (such a block is
    its own normal form); None for any other block.  In an ASCII text every white space
    character is one :meth:`str.split` splits at, so the lines are the words exactly then."""
    if not (block.isascii() and block.startswith(ARMOUR_HEAD) and block.endswith(ARMOUR_TAIL)):
        return None
    body = block[len(ARMOUR_HEAD) : -len(ARMOUR_TAIL)]
    lines = body.split("\n")
    return lines if lines == body.split() else None


def plain_armour(block: str) -> bool:
    """Whether ``block`` (an encrypted block, trimmed at its end) is ASCII armour as age writes
    it: its marker lines, one of each, around lines without white space, none blank, each
    within :data:`WIDTH` (then folding leaves it as it is, it is its own normal form, and
    the word digest of a text holding it as whole lines leaves it out).

    age's own form (:func:`_base64_columns`) is recognised by one translation of the body;
    any other body is tested condition by condition (:func:`_plain_armour_general`).  Both
    are fuzzed against the conditions one by one (``tests/engine/test_turn_reuse.py``,
    ``tests/engine/test_report_armour.py``)."""
    if not (block.startswith(ARMOUR_HEAD) and block.endswith(ARMOUR_TAIL)):
        return False
    body = block[len(ARMOUR_HEAD) : -len(ARMOUR_TAIL)]
    return _base64_columns(body) or _plain_armour_general(block, body)


def _base64_columns(body: str) -> bool:
    """Whether ``body`` is what age writes between the marker lines: standard base64 in lines
    of 64 characters, the last of 1 to 64.  Never raises.

    Such a body meets every condition of :func:`plain_armour`: ASCII, no white space but
    the line breaks, no blank line, lines within :data:`WIDTH`; and without a hyphen (not a
    base64 character) neither marker line can occur in it, so the block holds each marker
    once, in its first and last line (no marker holds a line break, so none can reach
    across the head's or the tail's line break either).

    What it saves: the general test deletes white space from a copy, counts the line breaks
    and both markers, and searches for blank lines, five passes over the block (~87,000
    instructions for a report's 2.8 kB block, four a turn); here one copy, one translation
    through a table and one comparison (~35,000).  The line breaks at 64, 129, ... are
    checked, then overwritten in the copy with a base64 character, so that any other line
    break is a byte the translation changes."""
    if not body or body[-1] == "\n" or not body.isascii():
        return False
    marked = bytearray(body, "ascii")
    breaks = len(marked[64::65])
    if marked[64::65] != b"\n" * breaks:
        return False
    marked[64::65] = b"A" * breaks
    return marked.translate(_BASE64_KEPT) == marked


def _plain_armour_general(block: str, body: str) -> bool:
    """:func:`plain_armour` for any block with its marker lines at both ends (``body``: what
    is between them), each condition by an operation in C over the whole block: a blank
    line is a line break at either end or two together, white space or NUL is found by
    deleting those bytes and comparing lengths, and lines of 64 columns by the characters
    at 64, 129, ... being the line breaks, all of them; only other line lengths are
    measured line by line."""
    if not block.isascii():
        return False
    if not body or body[0] == "\n" or body[-1] == "\n" or "\n\n" in body:
        return False
    raw = body.encode()
    if len(raw.translate(None, _NOT_IN_ARMOUR)) != len(raw):
        return False
    breaks = body[64::65]
    columns64 = breaks == "\n" * len(breaks) and body.count("\n") == len(breaks)
    if not columns64 and max(map(len, body.split("\n"))) > WIDTH:
        return False
    return block.count(AGE_BEGIN) == 1 and block.count(AGE_END) == 1
