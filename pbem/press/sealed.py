"""Sizes of press's encrypted parts, and opening a sealed block that came by mail.

Every press part is padded (:mod:`pbem.padding`) to one size whatever it says and whoever
sent it, so that no byte count tells a message's length or its sender:

- a letter (the message, encrypted to its recipients): exactly :data:`LETTER_SIZE` bytes of
  plaintext; a longer one is refused (``pbem say`` before signing, the relay by the size of
  the ciphertext, which it can compute without reading it);
- what ``pbem say`` seals to the moderator (envelope and letter): :data:`SEALED_SIZE`;
- a relayed copy (the moderator's signed relay block and the letter): :data:`RELAY_SIZE`.

The two outer sizes hold a letter encrypted to 64 players (the most a game has), so they
never change either.
"""

from __future__ import annotations

import base64

from pbem.errors import FormatError
from pbem.keys import Identity
from pbem.transit import Damage, age_header_damage, armour_damage, decode_armour, rewrapped

LETTER_SIZE = 4096
SEALED_SIZE = 16384
RELAY_SIZE = 16384
MAX_FILE = 1_000_000
"""Characters of a press file or mail read (a real one is about 22,000)."""
MAX_BLOCKS = 8
"""Age blocks looked at in one file."""

AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"


def _blocks(text: str) -> list[tuple[int, list[tuple[int, str]], bool]]:
    """Age blocks in ``text`` (mail quoting removed): BEGIN line, body lines, closed?"""
    from pbem.orders import _unquoted

    out: list[tuple[int, list[tuple[int, str]], bool]] = []
    begin: int | None = None
    body: list[tuple[int, str]] = []
    for number, raw in enumerate(_unquoted(text), start=1):
        line = raw.strip()
        if line == AGE_BEGIN:
            if begin is not None:
                out.append((begin, body, False))
            begin, body = number, []
        elif begin is not None:
            if line == AGE_END:
                out.append((begin, body, True))
                begin = None
            elif line:
                body.append((number, line))
    if begin is not None:
        out.append((begin, body, False))
    return out


def armour_lines(text: str) -> list[str] | None:
    """The base64 lines of the one complete age block in ``text``, re-wrapped to age's own
    width when mail re-wrapped them, or None if there is not exactly one usable block."""
    blocks = [b for b in _blocks(text) if b[2]]
    if len(blocks) != 1:
        return None
    body = blocks[0][1]
    damage = armour_damage(body)
    if damage is not None and not damage.repairable:
        return None
    return rewrapped(body) if damage is not None else [t for _, t in body]


def stanzas(lines: list[str]) -> list[str]:
    """The recipient stanza types of an age file (``X25519``, or a grease type), in order."""
    try:
        raw = base64.b64decode("".join(lines), validate=True)
        header = raw[: raw.index(b"\n--- ")].decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return []
    return [line[3:].split(" ", 1)[0] for line in header.split("\n") if line.startswith("-> ")]


def normal_armour(lines: list[str]) -> str:
    return "\n".join([AGE_BEGIN, *lines, AGE_END]) + "\n"


def open_block(
    text: str, identity: Identity, source: str, what: str, *, keep: bool = False
) -> tuple[str, int] | None:
    """The plaintext of the first age block in ``text`` that ``identity`` opens, with its
    line; None when no block opens with that key (not sealed to it).  ``keep``: the
    opening is kept for a later reader of the same block (:meth:`Identity.decrypt`).

    A block re-wrapped by mail is repaired; one damaged beyond repair, when no other block
    opens, raises FormatError saying what mail did to it.  Raises FormatError for a text
    that is too large or holds too many blocks, or a plaintext that is not UTF-8.
    """
    if len(text) > MAX_FILE:
        raise FormatError(
            f"{source}: {len(text):,} characters; a {what} holds at most {MAX_FILE:,}",
            "send only the file pbem wrote",
        )
    blocks = _blocks(text)
    if len(blocks) > MAX_BLOCKS:
        raise FormatError(f"{source}: holds {len(blocks)} encrypted blocks; at most {MAX_BLOCKS} are read")
    damaged: FormatError | None = None
    for begin, body, closed in blocks:
        where = f"{source}, line {begin}"
        if not closed:
            damaged = FormatError(
                f"{where}: the encrypted block has no {AGE_END!r} line (cut off in transit)"
            )
            continue
        damage = armour_damage(body)
        if damage is not None and not damage.repairable:
            damaged = FormatError(f"{where}: {damage.describe()}")
            continue
        lines = rewrapped(body) if damage is not None else [t for _, t in body]
        raw = decode_armour(lines)
        problem = "the data is not base64" if raw is None else age_header_damage(raw)
        if problem is not None:
            damaged = FormatError(f"{where}: {Damage('damaged characters', problem).describe()}")
            continue
        try:
            plain = identity.decrypt(raw or normal_armour(lines), keep=keep)  # the bytes: as the order reader
        except FormatError as exc:
            if "no matching keys" not in exc.message.lower():
                damaged = FormatError(
                    f"{where}: {Damage('damaged characters', 'it does not decrypt').describe()}"
                )
            continue
        try:
            return plain.decode("utf-8"), begin
        except UnicodeDecodeError:
            raise FormatError(
                f"{where}: the encrypted block does not hold a {what} (not UTF-8 text)"
            ) from None
    if damaged is not None:
        raise damaged
    return None
