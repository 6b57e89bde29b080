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
Unicode NFC, no-break spaces read as spaces, byte-order marks dropped, and dash-escaping
(``- `` before a line that starts with ``-``, ``>`` or ``From ``) undone exactly once.  So
CRLF line ends, trailing spaces, quoting in a reply, re-indented blank lines and text around
the block do not break it, while any change to a word of an order does.  Headers are read
only from the verified lines; text outside the block is ignored (a player may reply to a
report with orders in it).  Every line pbem writes is at most :data:`WIDTH` characters.

A block may be *sealed*: the whole signed block encrypted (age) to the moderator, so that
orders that name hidden cards can sit in a shared folder or a mailing list.

Everything read here is bounded (:data:`MAX_TEXT`, :data:`MAX_LINE`, :data:`MAX_ORDERS`, nine
digits for numbers) and every refusal is a :class:`FormatError` naming the file and line.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import textwrap
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbem.errors import FormatError, KeyFileError
from pbem.file_kind import FORM, SIGNED_ORDERS, wrong_file
from pbem.game import OrderLine
from pbem.keys import ORDERS_DOMAIN, Identity, PublicCard, check_name, encrypt
from pbem.mailtext import AGE_BEGIN as AGE_BEGIN  # re-exported: the markers' old home
from pbem.mailtext import AGE_END as AGE_END
from pbem.mailtext import BOM as _BOM
from pbem.mailtext import lines as _lines
from pbem.mailtext import unquoted as _unquoted
from pbem.padding import ORDERS_SIZE, padded_size
from pbem.transit import (
    AGE_WIDTH,
    INVISIBLE,
    WHAT_TO_DO,
    Damage,
    age_header_damage,
    age_payload_length,
    age_plaintext_length,
    armour_damage,
    decode_armour,
    rewrapped,
)

BEGIN = "-----BEGIN PBEM ORDERS-----"
SIGNATURE = "-----BEGIN PBEM SIGNATURE-----"
END = "-----END PBEM ORDERS-----"

HEADERS = ("Game", "Turn", "Player", "Seq")

WIDTH = 71
"""The longest line pbem writes in an order file or form: under 72, so mail does not re-wrap it."""
MAX_TEXT = 1_000_000
"""Characters in a file or mail handed to the order parsers (a reply quoting a whole report
is a few thousand; what pbem sign writes, a few hundred)."""
MAX_LINE = 1_000
"""Characters in one line of an order block or form."""
MAX_BLOCK_LINES = 1_000
"""Lines between an order block's BEGIN and signature lines, comments included."""
MAX_ORDERS = 200
"""Order lines in one file (a turn of any shipped game needs a few dozen at most)."""
MAX_SEALED = 8
"""Sealed blocks looked at in one file or mail (each is decrypted to find the orders)."""
MAX_DIGITS = 9
"""Digits of a Turn or Seq number."""
MAX_SEQ_STEP = 1_000_000
"""How far above a seat's last accepted Seq an order file may number itself: numbers only go
up and have at most :data:`MAX_DIGITS` digits, so a typed 999999999 would leave a player no
number for any later file (the engine refuses a larger jump, and forms stay within it)."""

_HEADER_RE = re.compile(r"^(Game|Turn|Player|Seq)\s*:\s*(.*)$", re.IGNORECASE)
_GAME_ID_RE = re.compile(r"[0-9A-F]{16}")
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
    body: tuple[tuple[int, str], ...] = ()
    """Every signed line with its line number in the file (for diagnosing damage)."""
    signature_widths: tuple[int, ...] = ()
    """The widths of the signature's base64 lines as received."""

    @property
    def digest(self) -> str:
        """Identifies the content: two files with the same digest say the same thing."""
        return hashlib.sha256(self.signed_text.encode()).hexdigest()

    def verify(self, card: PublicCard) -> None:
        """Raise SignatureError unless ``card``'s identity signed exactly these lines."""
        card.verify(ORDERS_DOMAIN, self.signed_text.encode(), self.signature)


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, shortened when long (with its length)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def _is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also accepts "²"
    and "٣", which ``int`` then refuses or reads)."""
    return text.isascii() and text.isdigit()


def _normalize(line: str) -> str:
    """``line`` as signed: stripped, NFC, with no-break spaces read as spaces and byte-order
    marks dropped (some mail clients turn spaces into no-break spaces, Windows editors add
    byte-order marks).  An ASCII line, the usual one, is only stripped: it holds neither mark
    and NFC leaves ASCII as it is (the same answer without the Unicode tables: fuzzed)."""
    if line.isascii():
        return line.strip()
    return unicodedata.normalize("NFC", line.replace("\u00a0", " ").replace(_BOM, "").strip())


def _escape(line: str) -> str:
    return "- " + line if line.startswith(_NEEDS_ESCAPE) else line


def _unescape(line: str) -> str:
    return line[2:] if line.startswith("- ") else line


def strip_comment(text: str) -> str:
    """The order part of a line: everything before ``#``, trimmed."""
    return text.split("#", 1)[0].strip()


def check_size(text: str, source: str) -> None:
    """Raise FormatError if ``text`` is larger than any order file (checked before any work)."""
    if len(text) > MAX_TEXT:
        raise FormatError(
            f"{source}: {len(text):,} characters; an order file or mail holds at most {MAX_TEXT:,}",
            "send only your order file (pbem sign writes a few hundred characters)",
        )


def _header_value(name: str, value: str, where: str) -> str | int:
    """Check one header value; raise FormatError saying what is wrong and where."""
    if name in ("Turn", "Seq"):
        if not _is_number(value):
            raise FormatError(f"{where}: {name} must be a whole number, got {shown(value)}")
        if len(value) > MAX_DIGITS:
            raise FormatError(
                f"{where}: {name} must be a whole number of at most {MAX_DIGITS} digits, got {shown(value)}",
                "copy the headers from your order form (pbem orders writes them)",
            )
        return int(value)
    if name == "Game":
        if not _GAME_ID_RE.fullmatch(value.upper()):
            raise FormatError(
                f"{where}: Game must be a game id of 16 hexadecimal digits, got {shown(value)}",
                "copy the game id from your report (pbem orders writes it)",
            )
        return value.upper()
    try:
        return check_name(value)
    except KeyFileError:
        raise FormatError(
            f"{where}: Player must be a player name (1-32 letters, digits, '_', '.' or '-'), "
            f"got {shown(value)}"
        ) from None


def _header(values: dict[str, tuple[int, str]], where: str) -> OrderHeader:
    checked = {name: _header_value(name, value, f"{where}, line {n}") for name, (n, value) in values.items()}
    return OrderHeader(
        game=str(checked["Game"]),
        turn=int(checked["Turn"]),
        player=str(checked["Player"]),
        seq=int(checked["Seq"]),
    )


def signed_text(header: OrderHeader, orders: Iterable[str]) -> str:
    """The exact normalized text a signature covers."""
    body = [_normalize(line) for line in [*header.lines(), *orders]]
    return "\n".join(line for line in body if line) + "\n"


def fit_width(lines: Sequence[tuple[int, str]], source: str) -> list[str]:
    """Order lines (with their line numbers) made to fit :data:`WIDTH` as signed.

    A long ``#`` comment moves to comment lines of its own under the order; an order that is
    itself too long cannot be wrapped, so FormatError names its line and what to do.
    """
    out: list[str] = []
    for number, raw in lines:
        text = _normalize(raw)
        if len(_escape(text)) <= WIDTH:
            out.append(text)
            continue
        order = strip_comment(text)
        comment = text.split("#", 1)[1].strip() if "#" in text else ""
        if not comment or len(_escape(order)) > WIDTH:
            raise FormatError(
                f"{source}, line {number}: the order {shown(order)} is {len(_escape(order))} characters; "
                f"pbem keeps every line at most {WIDTH} characters so that mail does not re-wrap it",
                "shorten that line, or split it into several orders (see the game's order syntax)",
            )
        if order:
            out.append(order)
        out += textwrap.wrap(comment, WIDTH, initial_indent="# ", subsequent_indent="# ")
    return out


def one_line(line: str, where: str) -> None:
    """Refuse (FormatError, naming ``where``) an order line that holds a character ending a
    line when a signed block is read (U+2028, U+2029, U+0085, a form feed and their kind,
    where ``str.splitlines`` breaks): signed, it would read as two lines and fail its
    signature.  Shared by :func:`sign` and :func:`parse_draft`, so that ``pbem check`` and
    ``pbem sign`` agree."""
    if len(f"{line}.".splitlines()) > 1:  # the block is read by splitlines(): it splits here
        odd = next(c for c in line if len(f".{c}.".splitlines()) > 1)
        raise FormatError(
            f"{where}: {shown(line)} holds U+{ord(odd):04X}, which ends a line when the "
            "signed block is read: the moderator would refuse it as changed after signing",
            "delete that character (write the comment on one line, or on several comment lines)",
        )


def sign(identity: Identity, header: OrderHeader, orders: Sequence[str]) -> str:
    """Sign ``orders`` (one per line, ``#`` comments allowed) as an armoured block.

    Long comments are wrapped to :data:`WIDTH`.  Raises FormatError if an order line is a
    header or armour line (which would be ambiguous), longer than :data:`WIDTH`, or if there
    are more than :data:`MAX_ORDERS` orders, or if a line holds a character that ends a line
    when the block is read (U+2028 and its kind: the block would not verify).
    """
    for number, line in enumerate(orders, start=1):
        one_line(line, f"orders, line {number}")
    fitted = fit_width(list(enumerate(orders, start=1)), "orders")
    for text in fitted:
        norm = _normalize(text)
        if _HEADER_RE.match(norm) or norm.startswith("-----"):
            raise FormatError(f"order line {text!r} looks like a header or armour line")
    if sum(1 for text in fitted if strip_comment(_normalize(text))) > MAX_ORDERS:
        raise FormatError(f"more than {MAX_ORDERS} orders in one file", "send fewer orders")
    text = signed_text(header, fitted)
    signature = base64.b64encode(identity.sign(ORDERS_DOMAIN, text.encode())).decode()
    body = text.splitlines()
    out = [BEGIN, *body[:4], "", *(_escape(line) for line in body[4:]), SIGNATURE]
    out += [signature[i : i + 64] for i in range(0, len(signature), 64)]
    out.append(END)
    return "\n".join(out) + "\n"


def seal(block: str, recipients: Sequence[PublicCard | str]) -> str:
    """Encrypt a signed block to the moderator (and anyone else listed).

    The block is padded to :data:`pbem.padding.ORDERS_SIZE` (the same for every game and
    player), so a sealed file's size does not say how many cards or orders it holds.
    """
    return encrypt(block.encode(), recipients, pad_to=ORDERS_SIZE) + "\n"


# ---- sealed blocks ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Armour:
    """One age block found in a text: its BEGIN line number and its base64 lines."""

    begin: int
    body: tuple[tuple[int, str], ...]
    closed: bool


def _age_blocks(lines: Sequence[str]) -> list[_Armour]:
    blocks: list[_Armour] = []
    begin: int | None = None
    body: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped == AGE_BEGIN:
            if begin is not None:
                blocks.append(_Armour(begin, tuple(body), False))
            begin, body = number, []
        elif begin is not None:
            if stripped == AGE_END:
                blocks.append(_Armour(begin, tuple(body), True))
                begin = None
            elif stripped:
                body.append((number, stripped))
    if begin is not None:
        blocks.append(_Armour(begin, tuple(body), False))
    return blocks


def _has_clear_block(lines: Sequence[str]) -> bool:
    return any(line.strip() == BEGIN for line in lines)


def find_sealed(text: str) -> list[str]:
    """Every complete age-armoured block in ``text`` (quoting removed), in order."""
    return [
        "\n".join([AGE_BEGIN, *(t for _, t in a.body), AGE_END]) + "\n"
        for a in _age_blocks(_unquoted(text))
        if a.closed
    ]


def is_sealed(text: str) -> bool:
    """Whether ``text`` is a sealed order file exactly as pbem sign writes it: one age block in
    standard armour and nothing else but blank lines, so it may be archived as it is.

    A clear block that merely contains an age BEGIN line, or a reply with text around a
    sealed block, is not: the engine seals those before it files them.
    """
    if len(text) > MAX_TEXT:
        return False
    content = [(n, line) for n, line in enumerate(_lines(text), start=1) if line.strip()]
    if len(content) < 3 or content[0][1] != AGE_BEGIN or content[-1][1] != AGE_END:
        return False
    return armour_damage(content[1:-1]) is None


def _sealed_length(text: str) -> int | None:
    """The plaintext length of the one age block of a sealed file, read from its armour
    alone, or None if the armour cannot be read."""
    return age_plaintext_length(
        [line.strip() for line in _lines(text) if line.strip() and not line.startswith("-----")]
    )


@dataclass(frozen=True)
class _Standard:
    """A text that is one age block exactly as age writes it: its armour (the base64 lines
    between the BEGIN and END lines, joined by newlines), and the bytes they decode to."""

    armour: str
    raw: bytes

    @property
    def lines(self) -> tuple[str, ...]:
        """The base64 lines."""
        return tuple(self.armour.split("\n"))


_STANDARD_MEMO: dict[str, _Standard | None] = {}
""":func:`_standard_block` of the last few texts, by the whole text (its value, not its id)."""
_MEMO_ENTRIES = 8
_MEMO_TEXT = 64 * 1024
"""Texts longer than this are not remembered (a sealed order file is about 3,300 characters)."""


def _standard_block(text: str) -> _Standard | None:
    """The lines and bytes of ``text`` when it is one age block exactly as age (and so
    :func:`seal`) writes it: the BEGIN line first, lines of 64 base64 characters and a last
    shorter one, '=' only at the end, the END line, then nothing but newlines; else None.

    Such a text is :func:`is_sealed` and its armour lines are those :func:`_sealed_length`
    reads: found with a few operations in C instead of a walk line by line.  The characters
    are checked by decoding them (strict base64: only its alphabet, padding only at the end),
    which the opening needs anyway, instead of by a pattern first and a decoding after.

    Remembered for the last :data:`_MEMO_ENTRIES` texts (each at most :data:`_MEMO_TEXT`
    characters), keyed by the text itself: the engine opens an order file and then files its
    copy (:func:`archive_copy`), two looks at the same characters in one turn.  A str cannot
    change, and the answer is a pure function of it, so a remembered answer is the answer."""
    if text in _STANDARD_MEMO:
        return _STANDARD_MEMO[text]
    found = _standard_plain(text)
    if len(text) <= _MEMO_TEXT:
        if len(_STANDARD_MEMO) >= _MEMO_ENTRIES:
            _STANDARD_MEMO.pop(next(iter(_STANDARD_MEMO), ""), None)  # the oldest
        _STANDARD_MEMO[text] = found
    return found


def _standard_plain(text: str) -> _Standard | None:
    """:func:`_standard_block`, worked out (nothing remembered)."""
    head, tail = AGE_BEGIN + "\n", "\n" + AGE_END
    if len(text) > MAX_TEXT or not text.startswith(head):
        return None
    rest = text.rstrip("\n")
    if not rest.endswith(tail) or len(rest) <= len(head) + len(tail):
        return None
    armour = rest[len(head) : -len(tail)]
    # k lines of 64 characters, each with its newline, then a last one of 1 to 64: the
    # newlines are exactly at 64, 129, ... (counted and picked out in C, no list of lines)
    full = (len(armour) - 1) // (AGE_WIDTH + 1)
    if len(armour) - full * (AGE_WIDTH + 1) > AGE_WIDTH:  # the last line would be 65
        return None
    if armour.count("\n") != full or armour[AGE_WIDTH :: AGE_WIDTH + 1] != "\n" * full:
        return None
    joined = armour.replace("\n", "")
    if len(joined) % 4 or joined.endswith("==="):  # what strict decoding lets through
        return None
    try:
        raw = binascii.a2b_base64(joined, strict_mode=True)
    except ValueError:  # binascii.Error, or a character beyond ASCII
        return None
    return _Standard(armour, raw)


def archive_copy(text: str, identity: Identity, moderator: PublicCard, source: str) -> str:
    """What the engine files in the public orders/ folder for an accepted order file: the
    file itself when pbem sign sealed it (one age block, padded to an
    :data:`~pbem.padding.ORDERS_SIZE` size), else the signed text sealed to ``moderator`` and
    padded, so that neither a clear file nor one sealed by another tool (plain ``age``, an
    older pbem) shows its length, or anything else, to the other players.

    Raises FormatError as :func:`open_sealed` does (only for a file already accepted, so
    never in practice).
    """
    standard = _standard_block(text)  # remembered from open_sealed: no second decoding
    if standard is not None:  # the usual file, as pbem sign writes it
        length = age_payload_length(standard.raw)
        if length is not None and length >= ORDERS_SIZE and length == padded_size(length, ORDERS_SIZE):
            return text
    if is_sealed(text):
        length = _sealed_length(text)
        if length is not None and length >= ORDERS_SIZE and length == padded_size(length, ORDERS_SIZE):
            return text
        opened = open_sealed(text, identity, source)
        if opened is not None:
            return seal(opened[0], [moderator])
    return seal(text, [moderator])


def _open_block(block: _Armour, identity: Identity, source: str, decoded: bytes | None = None) -> str:
    """Decrypt one age block, repairing re-wrapped lines; FormatError says what went wrong.
    ``decoded``: the bytes of a block known to be standard armour (:func:`_standard_block`
    checked what :func:`armour_damage` checks, and decoded it), so its lines are neither walked
    nor decoded again.  age is handed the bytes, not the armour: it would decode it again."""
    where = f"{source}, line {block.begin}"
    if not block.closed:
        raise FormatError(
            f"{where}: the sealed block has no {AGE_END!r} line: the block was changed in transit "
            "(its end was cut off)",
            WHAT_TO_DO,
        )
    raw = decoded
    if raw is None:
        damage = armour_damage(block.body)
        if damage is not None and not damage.repairable:
            raise FormatError(f"{where}: {damage.describe()}", WHAT_TO_DO)
        raw = decode_armour(rewrapped(block.body) if damage is not None else [t for _, t in block.body])
    problem = "the data is not base64" if raw is None else age_header_damage(raw)
    if raw is None or problem is not None:
        raise FormatError(
            f"{where}: {Damage('damaged characters', problem or '').describe()}",
            WHAT_TO_DO,
        )
    try:
        plain = identity.decrypt(raw)
    except FormatError as exc:
        if "no matching keys" not in exc.message.lower():
            damaged = Damage("damaged characters", "the encrypted data does not check out")
            raise FormatError(
                f"{where}: {damaged.describe()}",
                WHAT_TO_DO,
            ) from None
        raise FormatError(
            f"{where}: the sealed order block cannot be opened with the moderator's key: it was sealed "
            "to another key, or the key lines in its header were changed in transit",
            "seal your orders to this game's moderator (pbem sign reads the key from your report); "
            f"if you did, {WHAT_TO_DO}",
        ) from None
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError(f"{where}: the sealed block does not hold an order file (not UTF-8 text)") from None


def open_sealed(text: str, identity: Identity, source: str, _depth: int = 0) -> tuple[str, int] | None:
    """The plaintext of the one sealed *order* block in ``text`` and its line, or None when
    ``text`` holds a clear order block or no sealed block at all.

    Sealed blocks that open to something else (the private part of a report quoted in a
    reply, encrypted to the moderator too) are passed over; one that opens to a text with a
    sealed order block in it (a reply the engine filed sealed as a whole) is opened too.
    Raises FormatError when the text is too large, holds several sealed order blocks or too
    many blocks, or when the only candidates cannot be opened (saying whether they were
    damaged in transit).
    """
    check_size(text, source)
    standard = _standard_block(text)
    if standard is not None:  # one block as age writes it: what the general way finds in it
        # its lines are not listed: _open_block is handed their bytes and does not read them
        blocks = [_Armour(1, (), True)]
    else:
        lines = _unquoted(text)
        if _has_clear_block(lines):
            return None
        blocks = _age_blocks(lines)
        if not blocks:
            return None
    if len(blocks) > MAX_SEALED:
        raise FormatError(
            f"{source}: holds {len(blocks)} sealed blocks; at most {MAX_SEALED} are read",
            "send one order block per file or mail",
        )
    found: list[tuple[str, int]] = []
    failures: list[FormatError] = []
    for block in blocks:
        try:
            plain = _open_block(block, identity, source, None if standard is None else standard.raw)
        except FormatError as exc:
            failures.append(exc)
            continue
        if _has_clear_block(_lines(plain)):
            found.append((plain, block.begin))
        elif _depth == 0 and any(line.strip() == AGE_BEGIN for line in _lines(plain)):
            # a reply with sealed orders in it, filed sealed as a whole by the engine
            inner = open_sealed(plain, identity, source, 1)
            if inner is not None:
                found.append((inner[0], block.begin))
    if len(found) > 1:
        raise FormatError(
            f"{source}: holds {len(found)} sealed order blocks (lines {', '.join(str(b) for _, b in found)})",
            "send one order block per file or mail",
        )
    if found:
        return found[0]
    if failures:
        raise failures[0]
    raise wrong_file(text, source, SIGNED_ORDERS) or FormatError(
        f"{source}: no order block found: its sealed block(s) hold no orders (a quoted report?)",
        "sign your orders with: pbem sign ORDERS --key YOUR.key, and send what it writes",
    )


def unseal(text: str, identity: Identity, source: str) -> str:
    """Replace ``text`` by the plaintext of its sealed order block when it holds one.

    Raises FormatError as :func:`open_sealed` does.
    """
    opened = open_sealed(text, identity, source)
    return text if opened is None else opened[0]


def open_orders(text: str, identity: Identity, source: str) -> SignedOrders:
    """Read the order block of a file or mail, opening it first if it is sealed.

    Line numbers point into the file for a clear block; for a sealed one, into the signed
    block inside it, and the source says so ("alice.txt, sealed block, line 7").
    Raises FormatError as :func:`open_sealed` and :func:`parse` do.
    """
    opened = open_sealed(text, identity, source)
    if opened is None:
        return parse(text, source)
    plain, line = opened
    label = f"{source}, sealed block" if line == 1 else f"{source}, sealed block of line {line}"
    return parse(_unpadded(plain), label)


def _unpadded(plain: str) -> str:
    """``plain`` without the white space :func:`pbem.padding.pad` put after it (spaces, then a
    newline: about 2,000 characters after a signed block).  :func:`parse` reads the same
    from both (it strips every line it reads, drops blank ones, and nothing after the block's
    END line counts), but no longer splits and strips the padding, twice.  ``rstrip()``
    without arguments: with a set of characters it looks each one up, ten times slower."""
    return plain.rstrip() + "\n"


# ---- clear blocks -----------------------------------------------------------------------------
def parse(text: str, source: str = "orders") -> SignedOrders:
    """Read the one signed order block in ``text``; the signature is NOT checked here.

    Raises FormatError (with the file, line and offending text) when the text is too large,
    there is no block, more than one, a missing or malformed header, a line or block beyond
    the bounds, or no signature.
    """
    check_size(text, source)
    lines = _unquoted(text)
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        raise wrong_file(text, source, SIGNED_ORDERS) or FormatError(
            f"{source}: no signed order block found (no line {BEGIN!r})",
            "sign your orders with: pbem sign ORDERS --key YOUR.key",
        )
    if len(starts) > 1:
        shown_starts = ", ".join(str(s + 1) for s in starts[:10]) + (", ..." if len(starts) > 10 else "")
        raise FormatError(
            f"{source}: {len(starts)} order blocks found (lines {shown_starts})",
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
    if sig_at - start - 1 > MAX_BLOCK_LINES:
        raise FormatError(
            f"{source}, line {start + 1}: the order block has {sig_at - start - 1:,} lines; "
            f"at most {MAX_BLOCK_LINES:,} are read",
            "send only your orders",
        )
    sig_lines = [line.strip() for line in lines[sig_at + 1 : end_at] if line.strip()]
    if len("".join(sig_lines)) > 200:
        raise FormatError(f"{source}, line {sig_at + 2}: the signature is far too long to be one")
    try:
        signature = base64.b64decode("".join(sig_lines), validate=True)
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
        hidden = next(
            (
                (n, t)
                for n, t in kept[:4]
                if not _HEADER_RE.match(t) and _HEADER_RE.match(t.translate(INVISIBLE))
            ),
            None,
        )
        if hidden is not None:  # "\u200bSeq: 1": a header the mail program put a character into
            chars = ", ".join(sorted({f"U+{ord(c):04X}" for c in hidden[1] if ord(c) in INVISIBLE}))
            raise FormatError(
                f"{source}, line {hidden[0]}: the header {shown(hidden[1])} holds an invisible "
                f"character ({chars}), put there by a mail program or an editor, so the block cannot be read",
                WHAT_TO_DO,
            )
        raise FormatError(
            f"{source}, line {start + 2}: the order block lacks the header(s) {', '.join(missing)}",
            "start the block with Game:, Turn:, Player: and Seq: lines (pbem orders writes them)",
        )
    header = _header(header_values, source)
    for number, line in kept[4:]:
        if len(line) > MAX_LINE:
            raise FormatError(
                f"{source}, line {number}: {len(line):,} characters; a line holds at most {MAX_LINE:,}",
                "no order is that long: send the file pbem sign wrote",
            )
    orders = tuple(OrderLine(n, order) for n, t in kept[4:] if (order := strip_comment(t)))
    if len(orders) > MAX_ORDERS:
        raise FormatError(
            f"{source}, line {orders[MAX_ORDERS].number}: more than {MAX_ORDERS} orders in one file",
            "send fewer orders",
        )
    signed = "\n".join(t for _, t in kept) + "\n"
    widths = tuple(len(line) for line in sig_lines)
    return SignedOrders(header, orders, signed, signature, source, tuple(kept), widths)


# ---- forms ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Draft:
    """An unsigned order file as a player fills it in: headers, orders, comments."""

    header: OrderHeader
    orders: tuple[str, ...]
    lines: tuple[OrderLine, ...]
    seal_to: str | None
    numbered: tuple[tuple[int, str], ...] = ()
    """The lines to sign (``orders``) with their line numbers in the form."""


def parse_draft(text: str, source: str = "orders") -> Draft:
    """Read an unsigned order form (``pbem orders`` writes one).

    Header lines may come anywhere; ``Seal-To: age1...`` names the moderator's recipient;
    mail quoting and a byte-order mark are ignored.  Raises FormatError for a file that is
    too large, signed or sealed already, lines beyond the bounds, or missing, repeated or
    malformed headers.
    """
    check_size(text, source)
    raw_lines = _unquoted(text)
    if _has_clear_block(raw_lines):
        raise FormatError(f"{source} is already signed", "edit the unsigned form and sign it again")
    if any(line.strip() == AGE_BEGIN for line in raw_lines):
        raise wrong_file(text, source, FORM) or FormatError(
            f"{source} is sealed already", "sign the unsigned form you filled in"
        )
    values: dict[str, tuple[int, str]] = {}
    numbered: list[tuple[int, str]] = []
    lines: list[OrderLine] = []
    seal_to = None
    for number, raw in enumerate(raw_lines, start=1):
        norm = _normalize(raw)
        match = _HEADER_RE.match(strip_comment(norm))
        if not match and len(norm) > MAX_LINE:
            raise FormatError(
                f"{source}, line {number}: {len(norm):,} characters; a line holds at most {MAX_LINE:,}",
                "no order is that long: start from the form pbem orders writes",
            )
        if match:
            name, value = match.group(1).capitalize(), match.group(2).strip()
            if name in values and values[name][1] != value:
                raise FormatError(
                    f"{source}, line {number}: header {name!r} given twice "
                    f"(line {values[name][0]} says {shown(values[name][1])})",
                    "keep one of them",
                )
            values[name] = (number, value)
            continue
        if norm.lower().startswith("seal-to:"):
            seal_to = norm.split(":", 1)[1].strip()
            continue
        one_line(norm, f"{source}, line {number}")
        if norm and not norm.startswith("#"):
            numbered.append((number, norm))
        if strip_comment(norm):
            lines.append(OrderLine(number, strip_comment(norm)))
            if len(lines) > MAX_ORDERS:
                raise FormatError(f"{source}, line {number}: more than {MAX_ORDERS} orders in one file")
    missing = [h for h in HEADERS if h not in values]
    if missing:
        raise wrong_file(text, source, FORM) or FormatError(
            f"{source}: the order form lacks the header(s) {', '.join(missing)}",
            "start from the form pbem orders writes",
        )
    header = _header(values, source)
    return Draft(header, tuple(t for _, t in numbered), tuple(lines), seal_to, tuple(numbered))
