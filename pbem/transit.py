"""What mail or an editor did to an armoured block, told from facts that can be checked.

Blocks are damaged on their way: a mail client re-wraps lines to another width, a gateway
turns ``=`` into ``=3D`` or a quote into a curly one, a line is lost.  A bare "cannot be
opened" or "signature does not verify" then sends the player after the wrong cause (their
key, the moderator's key).  The functions here look only at what can be checked: the
width of armour lines against what pbem and age write, the base64 alphabet and padding,
the structure of an age header, the shape of a signature.  They never guess; when the facts
do not tell damage from a wrong key, the message says both.

A sealed block that was only re-wrapped is repaired exactly: base64 does not depend on
where its lines break, and age authenticates every byte it decrypts.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

AGE_WIDTH = 64
"""age writes its armour in lines of exactly 64 characters, the last one shorter."""
SIGNATURE_WIDTH = 64
"""pbem writes an order signature (88 base64 characters) as lines of 64 and 24."""
AGE_MAGIC = b"age-encryption.org/v1\n"

CLIENT_CHARACTERS = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2013": "-",
    "\u2014": "--",
    "\u2026": "...",
    "\u00ad": "",
    "\u200b": "",
    "\u200c": "",
    "\u200d": "",
    "\u2060": "",
}
"""What mail programs and word processors put for what was typed: typographic quotes and
dashes, an ellipsis, soft hyphens and zero-width characters (and what was typed)."""
CLIENT_TABLE = str.maketrans(CLIENT_CHARACTERS)
""":data:`CLIENT_CHARACTERS` for ``str.translate``: each put back as it was typed."""
INVISIBLE = str.maketrans({c: "" for c, typed in CLIENT_CHARACTERS.items() if not typed})
"""The invisible ones of :data:`CLIENT_CHARACTERS`, for ``str.translate``: each removed."""

_B64 = re.compile(r"[A-Za-z0-9+/=]*")
_B64_BODY = re.compile(r"[A-Za-z0-9+/]*")
_RAW64 = re.compile(r"[A-Za-z0-9+/]{43}")

WHAT_TO_DO = (
    "send the file again as an attachment rather than pasted into the mail body, or set your mail "
    "program to plain text without line wrapping"
)


@dataclass(frozen=True)
class Damage:
    """Evidence that a block changed in transit: what happened, and where."""

    what: str
    """``re-wrapped lines`` or ``damaged characters``."""
    detail: str
    """The fact it rests on, e.g. "lines of 50 and 14 characters; age writes 64"."""
    repairable: bool = False
    """True when the original can be rebuilt exactly (re-wrapped base64)."""

    def describe(self) -> str:
        return f"the block was changed in transit: {self.what} ({self.detail})"


def _shown(text: str, limit: int = 20) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _widths(widths: Sequence[int]) -> str:
    seen = sorted(set(widths), reverse=True)
    shown = ", ".join(str(w) for w in seen[:4]) + (", ..." if len(seen) > 4 else "")
    return f"lines of {shown} characters"


def armour_damage(body: Sequence[tuple[int, str]]) -> Damage | None:
    """Check the base64 lines of an age armour block (``(line number, text)`` pairs, trimmed).

    Returns None when the lines are exactly what age writes, else the first fact that is not:
    a character outside base64 (with its line), padding inside the text, a length that is not
    a whole number of base64 quads, or lines re-wrapped to another width (repairable).
    """
    if not body:
        return Damage("damaged characters", "the block holds no encrypted data")
    for number, line in body:
        if not _B64.fullmatch(line):
            bad = next(ch for ch in line if not _B64.fullmatch(ch))
            return Damage("damaged characters", f"line {number} holds {bad!r}, which age never writes")
    joined = "".join(line for _, line in body)
    if "=" in joined.rstrip("="):
        number, line = next((n, t) for n, t in body if "=" in t)
        return Damage("damaged characters", f"line {number} has '=' inside the data: {_shown(line)}")
    if len(joined) % 4:
        return Damage(
            "damaged characters",
            f"the data is {len(joined)} characters, not a whole number of base64 groups of 4: "
            "characters or lines were lost or added",
        )
    widths = [len(line) for _, line in body]
    if any(w != AGE_WIDTH for w in widths[:-1]) or not 0 < widths[-1] <= AGE_WIDTH:
        return Damage("re-wrapped lines", f"{_widths(widths)}; age writes {AGE_WIDTH}", repairable=True)
    return None


def rewrapped(body: Sequence[tuple[int, str]]) -> list[str]:
    """The base64 lines of ``body`` wrapped again at age's width."""
    joined = "".join(line for _, line in body)
    return [joined[i : i + AGE_WIDTH] for i in range(0, len(joined), AGE_WIDTH)]


def _stanza_body_ok(lines: list[bytes], start: int) -> tuple[bool, int]:
    """Whether the stanza body starting at ``start`` is age's unpadded base64, ending with a
    line shorter than 64; returns the index after it."""
    i = start
    while i < len(lines):
        line = lines[i]
        if not _B64_BODY.fullmatch(line.decode("ascii", "replace")) or len(line) > AGE_WIDTH:
            return False, i
        i += 1
        if len(line) < AGE_WIDTH:
            return True, i
    return False, i


_WELL_FORMED_HEADER = re.compile(
    rb"age-encryption\.org/v1\n"
    rb"(?:-> (?:X25519 [A-Za-z0-9+/]{43}|(?!X25519[ \n])[^ \n][^\n]*)\n"  # a stanza's line
    rb"(?:[A-Za-z0-9+/]{64}\n)*[A-Za-z0-9+/]{0,63}\n)+"  # and its body
    rb"--- [A-Za-z0-9+/]{43}\n"
)
"""A header :func:`age_header_damage`'s walk finds well formed, as one pattern (in C): every
header it matches, the walk passes (fuzzed); one it does not match is walked."""


def age_header_damage(data: bytes) -> str | None:
    """Check the structure of a decoded age file's header; None when it is well formed.

    age's header is the version line, stanzas (``-> TYPE ARGS`` and a base64 body), and the
    MAC line ``--- `` with 43 base64 characters.  An X25519 stanza's argument is 43 base64
    characters.  Anything else is damage, not a wrong key.  A header that
    :data:`_WELL_FORMED_HEADER` matches is well formed without the walk line by line.
    """
    if _WELL_FORMED_HEADER.match(data):
        return None
    return _header_walk(data)


def _header_walk(data: bytes) -> str | None:
    """:func:`age_header_damage`, line by line: what is damaged, or None."""
    if not data.startswith(AGE_MAGIC):
        return "the data does not start with age's version line"
    end = data.find(b"\n--- ")
    if end < 0:
        return "the age header has no MAC line"
    mac_end = data.find(b"\n", end + 1)
    mac = data[end + 5 : mac_end if mac_end >= 0 else len(data)]
    if mac_end < 0 or not _RAW64.fullmatch(mac.decode("ascii", "replace")):
        return "the age header's MAC line is damaged"
    lines = data[len(AGE_MAGIC) : end + 1].split(b"\n")[:-1]
    if not lines:
        return "the age header has no recipient stanza"
    i = 0
    while i < len(lines):
        head = lines[i].decode("ascii", "replace").split(" ")
        if head[0] != "->" or len(head) < 2 or not head[1]:
            return f"the age header's stanza line {i + 1} is damaged"
        if head[1] == "X25519" and (len(head) != 3 or not _RAW64.fullmatch(head[2])):
            return "the age header's X25519 stanza is damaged"
        ok, i = _stanza_body_ok(lines, i + 1)
        if not ok:
            return "the body of a stanza in the age header is damaged"
    return None


def decode_armour(lines: Sequence[str]) -> bytes | None:
    """The bytes of well-formed base64 lines, or None."""
    try:
        return base64.b64decode("".join(lines), validate=True)
    except (binascii.Error, ValueError):
        return None


def signature_damage(widths: Sequence[int], signature: bytes) -> Damage | None:
    """Facts about an order block's signature lines: pbem writes 88 base64 characters as
    lines of 64 and 24, decoding to a 64-byte Ed25519 signature."""
    if len(signature) != 64:
        return Damage(
            "damaged characters",
            f"the signature decodes to {len(signature)} bytes; an Ed25519 signature has 64",
        )
    if list(widths) != [SIGNATURE_WIDTH, 88 - SIGNATURE_WIDTH]:
        return Damage(
            "re-wrapped lines",
            f"the signature is in {_widths(widths)}; pbem writes one of 64 and one of 24",
        )
    return None


def long_line(lines: Sequence[tuple[int, str]], limit: int) -> Damage | None:
    """A line longer than pbem ever writes (``limit``): lines were joined on the way."""
    for number, text in lines:
        if len(text) > limit:
            return Damage(
                "re-wrapped lines",
                f"line {number} is {len(text)} characters; pbem writes at most {limit}, so lines were joined",
            )
    return None


def age_plaintext_length(armour: Sequence[str]) -> int | None:
    """The plaintext length of one age file from its armour lines alone, no key needed (the
    header ends at the ``---`` line; the payload is a 16-byte nonce, then chunks of up to 64
    KiB each with a 16-byte tag), or None when the armour cannot be read.  What an outsider
    learns of a sealed file's size, so padding is checked against it."""
    raw = decode_armour(armour)
    return None if raw is None else age_payload_length(raw)


def age_payload_length(raw: bytes) -> int | None:
    """:func:`age_plaintext_length` of the bytes an armour decodes to (for a caller that
    decoded them already), or None when they hold no age header's end."""
    try:
        header_end = raw.index(b"\n", raw.index(b"\n--- ") + 1) + 1
    except ValueError:
        return None
    payload = len(raw) - header_end - 16
    chunks = max(1, -(-payload // (64 * 1024 + 16)))
    return payload - 16 * chunks
