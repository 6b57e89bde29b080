"""Order files: plain text a person writes, signed so that it survives a trip through email.

A signed order file is an armoured block::

    -----BEGIN PBEM ORDERS-----
    Game: 5F3A9C0D12E4B7A1
    Turn: 4
    Player: alice
    Seq: 2

    take            # the 7H on the discard pile
    pair 3H 7H
    discard KS
    -----BEGIN PBEM SIGNATURE-----
    (base64)
    -----END PBEM ORDERS-----

The signature covers a *normalized* form of the lines between the BEGIN line and the
signature line: mail quoting (``> ``) removed, each line trimmed, blank lines dropped,
Unicode NFC, no-break spaces read as spaces, and dash-escaping (``- `` before a line that
starts with ``-``, ``>`` or ``From ``) undone exactly once.  So CRLF line ends, trailing
spaces, quoting in a reply, re-indented blank lines and text around the block do not break
it, while any change to a word of an order does.  Headers are read only from the verified
lines; text outside the block is ignored (a player may reply to a report with orders in it).

A block may be *sealed*: the whole signed block encrypted (age) to the moderator, so that
orders that name hidden cards can sit in a shared folder or a mailing list.
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbem.errors import FormatError
from pbem.game import OrderLine
from pbem.keys import ORDERS_DOMAIN, Identity, PublicCard, encrypt

BEGIN = "-----BEGIN PBEM ORDERS-----"
SIGNATURE = "-----BEGIN PBEM SIGNATURE-----"
END = "-----END PBEM ORDERS-----"
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"

HEADERS = ("Game", "Turn", "Player", "Seq")
_QUOTE_RE = re.compile(r"^(?:[ \t]*>)+[ \t]?")
_HEADER_RE = re.compile(r"^(Game|Turn|Player|Seq)\s*:\s*(.*)$", re.IGNORECASE)
_NEEDS_ESCAPE = ("-", ">", "From ")


@dataclass(frozen=True)
class OrderHeader:
    """Which game, turn and seat an order file is for, and its sequence number."""

    game: str
    turn: int
    player: str
    seq: int

    def lines(self) -> list[str]:
        return [f"Game: {self.game}", f"Turn: {self.turn}", f"Player: {self.player}", f"Seq: {self.seq}"]


@dataclass(frozen=True)
class SignedOrders:
    """An order block as read from a file, before or after its signature is checked."""

    header: OrderHeader
    lines: tuple[OrderLine, ...]
    signed_text: str
    signature: bytes
    source: str

    @property
    def digest(self) -> str:
        """Identifies the content: two files with the same digest say the same thing."""
        return hashlib.sha256(self.signed_text.encode()).hexdigest()

    def verify(self, card: PublicCard) -> None:
        """Raise SignatureError unless ``card``'s identity signed exactly these lines."""
        card.verify(ORDERS_DOMAIN, self.signed_text.encode(), self.signature)


def _is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also accepts "²"
    and "٣", which ``int`` then refuses or reads)."""
    return text.isascii() and text.isdigit()


def _normalize(line: str) -> str:
    # Some mail clients turn spaces into no-break spaces: both sides see plain spaces.
    return unicodedata.normalize("NFC", line.replace("\u00a0", " ").strip())


def _escape(line: str) -> str:
    return "- " + line if line.startswith(_NEEDS_ESCAPE) else line


def _unescape(line: str) -> str:
    return line[2:] if line.startswith("- ") else line


def strip_comment(text: str) -> str:
    """The order part of a line: everything before ``#``, trimmed."""
    return text.split("#", 1)[0].strip()


def signed_text(header: OrderHeader, orders: Iterable[str]) -> str:
    """The exact normalized text a signature covers."""
    body = [_normalize(line) for line in [*header.lines(), *orders]]
    return "\n".join(line for line in body if line) + "\n"


def sign(identity: Identity, header: OrderHeader, orders: Sequence[str]) -> str:
    """Sign ``orders`` (one per line, ``#`` comments allowed) as an armoured block.

    Raises FormatError if an order line is a header or armour line, which would be ambiguous.
    """
    for text in orders:
        norm = _normalize(text)
        if _HEADER_RE.match(norm) or norm.startswith("-----"):
            raise FormatError(f"order line {text!r} looks like a header or armour line")
    text = signed_text(header, orders)
    signature = base64.b64encode(identity.sign(ORDERS_DOMAIN, text.encode())).decode()
    body = text.splitlines()
    out = [BEGIN, *body[:4], "", *(_escape(line) for line in body[4:]), SIGNATURE]
    out += [signature[i : i + 64] for i in range(0, len(signature), 64)]
    out.append(END)
    return "\n".join(out) + "\n"


def seal(block: str, recipients: Sequence[PublicCard | str]) -> str:
    """Encrypt a signed block to the moderator (and anyone else listed)."""
    return encrypt(block.encode(), recipients) + "\n"


def _unquoted(text: str) -> list[str]:
    """Lines of ``text`` with mail quoting removed and no-break spaces read as spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
    return [_QUOTE_RE.sub("", raw) for raw in text.split("\n")]


def find_sealed(text: str) -> list[str]:
    """Every age-armoured block in ``text`` (quoting removed), in order."""
    blocks, current = [], None
    for line in _unquoted(text):
        stripped = line.strip()
        if stripped == AGE_BEGIN:
            current = [stripped]
        elif current is not None:
            current.append(stripped)
            if stripped == AGE_END:
                blocks.append("\n".join(current) + "\n")
                current = None
    return blocks


def unseal(text: str, identity: Identity, source: str) -> str:
    """Replace ``text`` by the plaintext of its sealed block when it holds one.

    Raises FormatError if a sealed block cannot be opened with ``identity``.
    """
    if BEGIN in text and AGE_BEGIN not in text:
        return text
    sealed = find_sealed(text)
    if not sealed:
        return text
    if len(sealed) > 1:
        raise FormatError(
            f"{source}: holds {len(sealed)} sealed blocks", "send one order block per file or mail"
        )
    try:
        return identity.decrypt(sealed[0]).decode("utf-8")
    except (FormatError, UnicodeDecodeError):
        raise FormatError(
            f"{source}: the sealed order block cannot be opened with the moderator's key",
            "seal your orders to this game's moderator (pbem sign reads the key from your report)",
        ) from None


def parse(text: str, source: str = "orders") -> SignedOrders:
    """Read the one signed order block in ``text``; the signature is NOT checked here.

    Raises FormatError (with the file, line and offending text) when there is no block,
    more than one, a missing or malformed header, or no signature.
    """
    lines = _unquoted(text)
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        raise FormatError(
            f"{source}: no signed order block found (no line {BEGIN!r})",
            "sign your orders with: pbem sign ORDERS --key YOUR.key",
        )
    if len(starts) > 1:
        raise FormatError(
            f"{source}: {len(starts)} order blocks found (lines {', '.join(str(s + 1) for s in starts)})",
            "send one order block per file or mail",
        )
    start = starts[0]
    sig_at = end_at = None
    for i in range(start + 1, len(lines)):
        stripped = lines[i].strip()
        if stripped == SIGNATURE and sig_at is None:
            sig_at = i
        elif stripped == END:
            end_at = i
            break
    if end_at is None:
        raise FormatError(f"{source}: the order block starting at line {start + 1} has no {END!r} line")
    if sig_at is None:
        raise FormatError(
            f"{source}, line {start + 1}: the order block is not signed",
            "sign it with: pbem sign ORDERS --key YOUR.key",
        )
    try:
        signature = base64.b64decode(
            "".join(line.strip() for line in lines[sig_at + 1 : end_at]), validate=True
        )
    except ValueError:
        raise FormatError(f"{source}, line {sig_at + 2}: the signature is not valid base64") from None

    kept: list[tuple[int, str]] = []
    for i in range(start + 1, sig_at):
        norm = _normalize(lines[i])
        if norm:
            kept.append((i + 1, _unescape(norm)))
    header_values: dict[str, tuple[int, str]] = {}
    for number, line in kept[:4]:
        match = _HEADER_RE.match(line)
        if not match:
            break
        name = match.group(1).capitalize()
        if name in header_values:
            raise FormatError(f"{source}, line {number}: header {name!r} given twice")
        header_values[name] = (number, match.group(2).strip())
    missing = [h for h in HEADERS if h not in header_values]
    if missing:
        raise FormatError(
            f"{source}, line {start + 2}: the order block lacks the header(s) {', '.join(missing)}",
            "start the block with Game:, Turn:, Player: and Seq: lines (pbem orders writes them)",
        )
    ints: dict[str, int] = {}
    for name in ("Turn", "Seq"):
        number, value = header_values[name]
        if not _is_number(value):
            raise FormatError(f"{source}, line {number}: {name} must be a whole number, got {value!r}")
        ints[name] = int(value)
    header = OrderHeader(
        game=header_values["Game"][1].upper(),
        turn=ints["Turn"],
        player=header_values["Player"][1],
        seq=ints["Seq"],
    )
    orders = tuple(OrderLine(n, strip_comment(t)) for n, t in kept[4:] if strip_comment(t))
    signed = "\n".join(t for _, t in kept) + "\n"
    return SignedOrders(header, orders, signed, signature, source)


@dataclass(frozen=True)
class Draft:
    """An unsigned order file as a player fills it in: headers, orders, comments."""

    header: OrderHeader
    orders: tuple[str, ...]
    lines: tuple[OrderLine, ...]
    seal_to: str | None


def parse_draft(text: str, source: str = "orders") -> Draft:
    """Read an unsigned order form (``pbem orders`` writes one).

    Header lines may come anywhere; ``Seal-To: age1...`` names the moderator's recipient.
    Raises FormatError for missing headers or a file that is already signed.
    """
    if BEGIN in text:
        raise FormatError(f"{source} is already signed", "edit the unsigned form and sign it again")
    values: dict[str, str] = {}
    orders: list[str] = []
    lines: list[OrderLine] = []
    seal_to = None
    for number, raw in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        norm = _normalize(raw)
        match = _HEADER_RE.match(strip_comment(norm))
        if match:
            values[match.group(1).capitalize()] = match.group(2).strip()
            continue
        if norm.lower().startswith("seal-to:"):
            seal_to = norm.split(":", 1)[1].strip()
            continue
        if norm and not norm.startswith("#"):
            orders.append(norm)
        if strip_comment(norm):
            lines.append(OrderLine(number, strip_comment(norm)))
    missing = [h for h in HEADERS if h not in values]
    if missing:
        raise FormatError(
            f"{source}: the order form lacks the header(s) {', '.join(missing)}",
            "start from the form pbem orders writes",
        )
    for name in ("Turn", "Seq"):
        if not _is_number(values[name]):
            raise FormatError(f"{source}: {name} must be a whole number, got {values[name]!r}")
    header = OrderHeader(values["Game"].upper(), int(values["Turn"]), values["Player"], int(values["Seq"]))
    return Draft(header, tuple(orders), tuple(lines), seal_to)
