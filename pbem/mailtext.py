"""Text as mail and editors deliver it: line ends of any kind, a byte-order mark, mail
quoting (``> ``) and no-break spaces; and the markers of an age-armoured block in it.

Kept apart from :mod:`pbem.orders` so that reading a report (``pbem read``) does not load
the order-file code."""

from __future__ import annotations

import re

AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"

BOM = "\ufeff"
QUOTE_RE = re.compile(r"^(?:[ \t]*>)+[ \t]?")
"""Mail quoting at the start of a line: any number of ``>``, with the space after the last."""


def lines(text: str) -> list[str]:
    """Lines of ``text`` (any line ends), without a leading byte-order mark."""
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n").split("\n")


def unquoted(text: str) -> list[str]:
    """Lines of ``text`` with mail quoting removed and no-break spaces read as spaces."""
    text = text.replace("\u00a0", " ")
    if ">" not in text:  # QUOTE_RE needs a '>' to match: no line is quoted (one scan in C)
        return lines(text)
    return [QUOTE_RE.sub("", raw) for raw in lines(text)]
