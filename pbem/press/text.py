"""The armoured text blocks of press, and their one parser.

Three kinds, each a block of ``Name: value`` headers, an optional text, and an optional
Ed25519 signature, in the shape of an order file::

    -----BEGIN PBEM PRESS LETTER-----       the message, encrypted to its recipients
    Game: 5F3A9C0D12E4B7A1                  (signed by the sender; grey letters are not)
    From: alice
    To: bob, carol
    Id: 9A0C...                             random, so no two letters are alike
    Turn: 4

    Bob, Carol: shall we leave Dave's moons alone this round?
    -----BEGIN PBEM SIGNATURE-----
    ...
    -----END PBEM PRESS LETTER-----

``PBEM PRESS`` (the envelope the sender signs for the moderator: who to whom, and the hash of
the encrypted letter) and ``PBEM PRESS RELAY`` (what the moderator signs when it relays a
letter).  Blocks only ever travel inside age encryption, so they need no protection against
mail (the age armour around them is repaired or refused by :mod:`pbem.transit`), but they
are read as untrusted text: bounded, one block of each kind, dash-escaped text (a text line
that starts with ``-`` is written ``- -...``, so no text can forge an armour line), and
every refusal names the block and line.
"""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pbem.errors import FormatError, SignatureError
from pbem.keys import PublicCard

LETTER = "PBEM PRESS LETTER"
ENVELOPE = "PBEM PRESS"
RELAY = "PBEM PRESS RELAY"
SIGNATURE = "-----BEGIN PBEM SIGNATURE-----"
LETTER_DOMAIN = "pbem-press-letter/v1"
ENVELOPE_DOMAIN = "pbem-press/v1"
RELAY_DOMAIN = "pbem-press-relay/v1"
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"

MAX_BLOCK_LINES = 400
MAX_LINE = 1000
MAX_HEADERS = 12
WIDTH = 70
"""The longest text line ``pbem say`` writes (a letter is read on a terminal or in a mail)."""


def begin(kind: str) -> str:
    return f"-----BEGIN {kind}-----"


def end(kind: str) -> str:
    return f"-----END {kind}-----"


def _normal(line: str) -> str:
    return unicodedata.normalize("NFC", line.rstrip())


@dataclass(frozen=True)
class Block:
    """One parsed block: its headers (in order), its text lines and its signature."""

    kind: str
    headers: tuple[tuple[str, str], ...]
    text: tuple[str, ...]
    signed: bytes
    """The exact bytes the signature covers (kind, headers and text, normalised)."""
    signature: bytes | None
    source: str
    line: int
    """The line of the BEGIN line in the text parsed."""

    def header(self, name: str) -> str:
        """A header's value.  Raises FormatError naming the block when it is missing."""
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        raise FormatError(f"{self.source}, line {self.line}: the {self.kind} block has no {name}: line")

    def has(self, name: str) -> bool:
        return any(key.lower() == name.lower() for key, _ in self.headers)

    def verify(self, card: PublicCard, domain: str) -> None:
        """Raise SignatureError unless ``card``'s identity signed this block."""
        if self.signature is None:
            raise SignatureError(f"{self.source}, line {self.line}: the {self.kind} block is not signed")
        card.verify(domain, self.signed, self.signature)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.signed).hexdigest()


def signed_bytes(kind: str, headers: Sequence[tuple[str, str]], text: Sequence[str]) -> bytes:
    """What a block's signature covers."""
    lines = [kind, *(f"{k}: {_normal(v)}" for k, v in headers), "", *(_normal(t) for t in text)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write(
    kind: str,
    headers: Sequence[tuple[str, str]],
    text: Sequence[str] = (),
    sign: Callable[[bytes], bytes] | None = None,
) -> str:
    """A block of ``kind``; signed when ``sign`` is given (it signs :func:`signed_bytes`)."""
    out = [begin(kind), *(f"{k}: {_normal(v)}" for k, v in headers), ""]
    out += [f"- {_normal(t)}" if t.startswith("-") else _normal(t) for t in text]
    if sign is not None:
        signature = base64.b64encode(sign(signed_bytes(kind, headers, text))).decode()
        out += [SIGNATURE, *(signature[i : i + 64] for i in range(0, len(signature), 64))]
    out.append(end(kind))
    return "\n".join(out) + "\n"


def parse(text: str, kind: str, source: str) -> Block:
    """The one block of ``kind`` in ``text``.

    Raises FormatError (with the line) for no block, several, one never closed, too many
    lines, a malformed header or signature.
    """
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == begin(kind)]
    if not starts:
        raise FormatError(f"{source}: no {kind} block found (no line {begin(kind)!r})")
    if len(starts) > 1:
        raise FormatError(f"{source}: {len(starts)} {kind} blocks (lines {starts[0] + 1}, {starts[1] + 1})")
    start = starts[0]
    stop = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == end(kind)), None)
    if stop is None:
        raise FormatError(f"{source}, line {start + 1}: the {kind} block has no {end(kind)!r} line")
    if stop - start > MAX_BLOCK_LINES:
        raise FormatError(
            f"{source}, line {start + 1}: the {kind} block has {stop - start:,} lines; "
            f"at most {MAX_BLOCK_LINES} are read"
        )
    sig_at = next((i for i in range(start + 1, stop) if lines[i].strip() == SIGNATURE), None)
    headers: list[tuple[str, str]] = []
    i = start + 1
    while i < (sig_at or stop) and lines[i].strip():
        line = lines[i]
        name, sep, value = line.partition(":")
        if not sep or not name.strip().isalpha() or len(headers) >= MAX_HEADERS or len(line) > MAX_LINE:
            raise FormatError(
                f"{source}, line {i + 1}: {line[:60]!r} is not a header line (Name: value)",
                "send the file pbem say writes",
            )
        headers.append((name.strip(), value.strip()))
        i += 1
    body: list[str] = []
    for j in range(i + 1, sig_at or stop):
        line = lines[j]
        if len(line) > MAX_LINE:
            raise FormatError(
                f"{source}, line {j + 1}: {len(line):,} characters; a line holds at most {MAX_LINE}"
            )
        if line.startswith("-"):
            if not line.startswith("- "):
                raise FormatError(
                    f"{source}, line {j + 1}: an armour-like line {line[:40]!r} inside the text"
                )
            line = line[2:]
        body.append(_normal(line))
    while body and not body[-1]:
        body.pop()
    signature = None
    if sig_at is not None:
        raw = "".join(line.strip() for line in lines[sig_at + 1 : stop])
        try:
            signature = base64.b64decode(raw, validate=True)
        except ValueError:
            raise FormatError(f"{source}, line {sig_at + 2}: the signature is not base64") from None
        if len(signature) != 64:
            raise FormatError(f"{source}, line {sig_at + 2}: the signature is not an Ed25519 signature")
    return Block(
        kind, tuple(headers), tuple(body), signed_bytes(kind, headers, body), signature, source, start + 1
    )


def age_blocks(text: str) -> list[tuple[int, str]]:
    """Every complete age armour block in ``text``, with its BEGIN line, normalised (each line
    trimmed, blank lines dropped)."""
    out: list[tuple[int, str]] = []
    current: list[str] | None = None
    first = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line == AGE_BEGIN:
            current, first = [line], number
        elif current is not None and line:
            current.append(line)
            if line == AGE_END:
                out.append((first, "\n".join(current) + "\n"))
                current = None
    return out


def armour_digest(armour: str) -> str:
    """SHA-256 of an age armour block as normalised by :func:`age_blocks` (the same for
    every copy of one letter, whatever line ends or indentation it travelled with)."""
    found = age_blocks(armour)
    normal = found[0][1] if found else armour
    return hashlib.sha256(normal.encode("ascii", "replace")).hexdigest()


def names_list(value: str) -> tuple[str, ...]:
    """A ``To:`` header's names (comma separated)."""
    return tuple(n.strip() for n in value.split(",") if n.strip())
