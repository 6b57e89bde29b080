"""Reading a raw mail without trusting it: bounded parsing and headers that never raise.

Python's :mod:`email` package is built for mail that is mostly well formed: its modern
header parser raises ``IndexError``, ``AttributeError`` or ``ValueError`` on some malformed
address, Message-ID and parameter headers; its feed parser recurses once per nesting level
(3,000 nested multiparts exhaust the stack); a ``charset=idna`` part fails to decode with
``errors="replace"``; an RFC 2231 continuation number of 5,000 digits exceeds ``int``'s
digit limit.  Anyone can send the judge such a mail, so here:

* the mail is parsed with the ``compat32`` policy, which keeps header values as text and
  parses nothing it is not asked for, by a feed parser that counts parts and nesting and
  stops at :data:`MAX_PARTS` and :data:`MAX_DEPTH`;
* the size of the whole mail and of every header section and structural header is checked
  before anything else reads it;
* every header or payload the judge reads goes through one function here that turns any
  failure of the standard library into "absent" (or into :class:`BadMail` for structure),
  and every text it returns is printable, bounded and free of line breaks.

Everything this module raises is :class:`BadMail` (a :class:`pbem.errors.RejectedError`).
"""

from __future__ import annotations

import codecs
import email.header
import email.policy
import email.utils
import re
import unicodedata
from collections.abc import Callable
from email.feedparser import BytesFeedParser
from email.message import Message
from typing import TypeVar

from pbem.errors import RejectedError

MAX_MAIL_BYTES = 4 * 1024 * 1024
"""A mail larger than this is refused by its size alone, before it is downloaded."""
MAX_PARTS = 100
"""MIME parts in one mail (an order mail has one to three)."""
MAX_DEPTH = 8
"""Nesting of multipart and message/rfc822 parts (a forwarded reply is three or four deep)."""
MAX_HEADER_BYTES = 256 * 1024
"""Bytes of one header section (real mail with long Received chains stays under 64 KB)."""
MAX_HEADER_FIELDS = 500
"""Header fields in one header section."""
MAX_STRUCTURE_HEADER = 8 * 1024
"""Characters of a Content-Type, Content-Disposition or Content-Transfer-Encoding value."""
MAX_PART_BYTES = 1_000_000
"""Decoded bytes of one part that are searched for orders (no order file is that big)."""
MAX_TEXT = 200
"""Characters kept of a Subject, a file name or a charset name."""
MAX_ADDRESS = 254
"""Characters of a mail address (RFC 5321's path limit)."""
MAX_MESSAGE_ID = 250
"""Characters of a Message-ID that the judge repeats in its answer."""

STRUCTURE_HEADERS = ("content-type", "content-disposition", "content-transfer-encoding")

T = TypeVar("T")


class BadMail(RejectedError):
    """A mail the judge will not read: too big, too deep, too many parts, broken structure.

    ``reason`` is a sentence for the sender and the moderator ("the mail is 10,485,760
    bytes; the judge reads mails up to 4,194,304 bytes").
    """

    def __init__(self, reason: str, hint: str | None = None) -> None:
        super().__init__(reason, hint or "send only the signed order file, as 'pbem sign' writes it")
        self.reason = reason


def safely(read: Callable[[], T], default: T) -> T:
    """``read()``, or ``default`` when the standard library's mail code fails on it.

    The mail parser's failures on malformed input are many and undocumented (IndexError,
    AttributeError, ValueError, LookupError, UnicodeError, RecursionError...); a header
    that cannot be read is treated as absent, which is what a mail client shows.
    """
    try:
        return read()
    except Exception:  # see the docstring: any failure means "unreadable"
        return default


def _size(n: int) -> str:
    return f"{n:,} bytes"


class _BoundedParser(BytesFeedParser):
    """The standard feed parser, stopped at :data:`MAX_PARTS` parts or :data:`MAX_DEPTH` levels."""

    def __init__(self) -> None:
        super().__init__(policy=email.policy.compat32)
        self.parts = 0

    def _new_message(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise BadMail(f"the mail has more than {MAX_PARTS} MIME parts; the judge reads up to {MAX_PARTS}")
        depth = len(self._msgstack)  # type: ignore[attr-defined]
        if depth >= MAX_DEPTH:
            raise BadMail(
                f"the mail's parts are nested more than {MAX_DEPTH} levels deep; "
                f"the judge reads up to {MAX_DEPTH}"
            )
        super()._new_message()  # type: ignore[misc]


def header_section(raw: bytes) -> bytes:
    """The header section of a mail or part (up to the first empty line), without it."""
    match = re.search(rb"\r?\n\r?\n", raw)
    return raw if match is None else raw[: match.start()]


def check_size(size: int) -> None:
    """Raise BadMail if a mail of ``size`` bytes is too big to read."""
    if size > MAX_MAIL_BYTES:
        raise BadMail(
            f"the mail is {_size(size)}; the judge reads mails up to {_size(MAX_MAIL_BYTES)}",
            hint="send only the signed order file (a few kilobytes), as 'pbem sign' writes it, "
            "without pictures or other attachments",
        )


def parse_mail(raw: bytes) -> Message:
    """Parse raw RFC 5322 bytes into a ``compat32`` message, within every bound.

    Raises BadMail for a mail that is too big, has too many or too deeply nested parts, or
    a header section or structural header beyond its bound.
    """
    check_size(len(raw))
    head = header_section(raw)
    if len(head) > MAX_HEADER_BYTES:
        limit = _size(MAX_HEADER_BYTES)
        raise BadMail(f"the mail's header is {_size(len(head))}; the judge reads up to {limit}")
    parser = _BoundedParser()
    try:
        parser.feed(raw)
        msg = parser.close()
    except BadMail:
        raise
    except RecursionError:  # a backstop: MAX_DEPTH keeps the parser far from the limit
        raise BadMail("the mail's structure is nested too deeply to read") from None
    for index, part in enumerate(walk(msg)):
        fields = _fields(part)
        where = "the mail's header" if index == 0 else f"the header of part {index + 1}"
        if len(fields) > MAX_HEADER_FIELDS:
            raise BadMail(f"{where} has {len(fields):,} fields; the judge reads up to {MAX_HEADER_FIELDS}")
        total = 0
        for name, value in fields:
            length = len(name) + len(value) if isinstance(value, str) else len(name)
            total += length
            if str(name).lower() in STRUCTURE_HEADERS and length > MAX_STRUCTURE_HEADER:
                raise BadMail(
                    f"{where}: its {printable(str(name), 40)} field is {length:,} characters; "
                    f"the judge reads up to {MAX_STRUCTURE_HEADER:,}"
                )
        if total > MAX_HEADER_BYTES:
            raise BadMail(f"{where} is {_size(total)}; the judge reads up to {_size(MAX_HEADER_BYTES)}")
    return msg


def _fields(msg: Message) -> list[tuple[str, object]]:
    """The raw (name, value) header fields of one part; [] if they cannot be listed."""
    empty: list[tuple[str, object]] = []
    return safely(lambda: list(msg.raw_items()), empty)


ESSENTIAL = (
    b"from",
    b"subject",
    b"date",
    b"message-id",
    b"auto-submitted",
    b"precedence",
    b"return-path",
    b"list-id",
    b"x-autoreply",
    b"x-autorespond",
)
"""The fields needed to answer a mail (or to know it must not be answered)."""


def essential_headers(raw: bytes) -> Message:
    """A message made of only the :data:`ESSENTIAL` fields of ``raw``'s top header section
    (the first of each, at most 2,000 bytes), so a mail refused for its size or structure
    can still be answered.  Reads at most the first 1 MB; never raises."""
    fields: dict[bytes, bytes] = {}
    current: bytes | None = None
    for line in raw[: 1024 * 1024].split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            break
        if line[:1] in (b" ", b"\t"):
            if current is not None and len(fields[current]) < 2000:
                fields[current] += b" " + line.strip()
            continue
        name, colon, value = line.partition(b":")
        key = name.strip().lower()
        current = None
        if colon and key in ESSENTIAL and key not in fields:
            fields[key] = value.strip()
            current = key
    text = b"".join(k + b": " + v[:2000].replace(b"\0", b" ") + b"\r\n" for k, v in fields.items())
    return safely(lambda: parse_mail(text + b"\r\n"), Message())


def walk(msg: Message) -> list[Message]:
    """Every part of ``msg``, the message itself first, depth first, without recursion."""
    out: list[Message] = []
    stack = [msg]
    while stack:
        part = stack.pop()
        out.append(part)
        payload = safely(part.get_payload, None)
        if isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, Message)]))
    return out


# ---- text for people -------------------------------------------------------------------------
def printable(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` on one line, control and format characters shown as ``\\xNN``/``\\uNNNN``,
    runs of white space made one space, and shortened in the middle past ``limit``."""
    out = []
    for char in text:
        if char in "\t\r\n":
            out.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        else:
            out.append(char)
    safe = " ".join("".join(out).split())
    if len(safe) > limit:
        half = (limit - 3) // 2
        safe = f"{safe[:half]}...{safe[-half:]}"
    return safe


def _raw(value: object) -> str:
    """A compat32 header value as text: undecodable bytes (kept by the parser as surrogate
    escapes) become U+FFFD; a Header object becomes its text."""
    text = value if isinstance(value, str) else safely(lambda: str(value), "")
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def raw_header(msg: Message, name: str) -> str | None:
    """The first ``name`` field of ``msg`` as raw text (no decoding of encoded words), or None."""
    for key, value in _fields(msg):
        if isinstance(key, str) and key.lower() == name.lower():
            return _raw(value)
    return None


def header_text(msg: Message, name: str, limit: int = MAX_TEXT) -> str:
    """The ``name`` field of ``msg`` as printable text: RFC 2047 encoded words decoded when
    they can be, the raw text otherwise; "" when absent.  Never raises."""
    raw = raw_header(msg, name)
    if raw is None:
        return ""
    raw = raw[: limit * 8]  # encoded words are at most a few times longer than their text

    def decode() -> str:
        pieces = []
        for chunk, charset in email.header.decode_header(raw):
            if isinstance(chunk, bytes):
                pieces.append(decode_bytes(chunk, charset))
            else:
                pieces.append(chunk)
        return "".join(pieces)

    return printable(safely(decode, raw), limit)


_ADDRESS = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$"
)


def sender_address(msg: Message) -> str | None:
    """The From address if it is a plain, deliverable-looking ``local@domain``; else None.

    Only such an address is ever answered (nothing with spaces, quotes, line breaks or
    non-ASCII, which a later mail header could not carry safely)."""
    raw = raw_header(msg, "from")
    if raw is None or len(raw) > 4 * MAX_ADDRESS:
        return None
    address = safely(lambda: email.utils.parseaddr(raw)[1], "")
    if len(address) > MAX_ADDRESS or not _ADDRESS.match(address) or ".." in address:
        return None
    return address


_MESSAGE_ID = re.compile(r"^<[\x21-\x3b\x3d\x3f-\x7e]{1,248}>$")


def message_id(msg: Message) -> str | None:
    """The Message-ID if it is one well-formed ``<...>`` token that an answer may repeat."""
    raw = raw_header(msg, "message-id")
    if raw is None:
        return None
    value = raw.strip()
    return value if len(value) <= MAX_MESSAGE_ID and _MESSAGE_ID.match(value) else None


def is_automatic(msg: Message, own_address: str) -> bool:
    """True for mail no one should answer automatically (RFC 3834): bounces, auto-replies,
    mailing-list and bulk mail, and the judge's own mail coming back."""
    auto = header_text(msg, "auto-submitted", 40).lower()
    if auto and auto.split(";")[0].strip() != "no":
        return True
    if header_text(msg, "precedence", 40).lower() in ("bulk", "junk", "list"):
        return True
    if header_text(msg, "return-path", 40).strip() == "<>":
        return True
    if any(raw_header(msg, name) is not None for name in ("list-id", "x-autoreply", "x-autorespond")):
        return True
    sender = sender_address(msg)
    if sender is None:
        return False
    local = sender.split("@")[0].lower()
    return sender.lower() == own_address.lower() or local in ("mailer-daemon", "postmaster")


# ---- parts ---------------------------------------------------------------------------------
_NOT_FOR_TEXT = frozenset({"idna", "punycode", "unicode_escape", "raw_unicode_escape", "undefined"})


def decode_bytes(data: bytes, charset: str | None) -> str:
    """``data`` decoded with the part's ``charset`` when that is a real text encoding, as
    UTF-8 otherwise; undecodable bytes become U+FFFD.  Never raises."""
    name = (charset or "utf-8").strip().strip('"').lower()
    codec = None
    if len(name) <= 40 and name.isascii():
        codec = safely(lambda: codecs.lookup(name), None)
    usable = (
        codec is not None
        and getattr(codec, "_is_text_encoding", True)
        and codec.name not in _NOT_FOR_TEXT
        and not codec.name.startswith("unknown")
    )
    if usable and codec is not None:
        text = safely(lambda: data.decode(codec.name, errors="replace"), None)
        if isinstance(text, str):
            return text
    return data.decode("utf-8", errors="replace")


def content_type(part: Message) -> str:
    """The part's ``maintype/subtype`` (``text/plain`` when missing or unreadable)."""
    return safely(part.get_content_type, "text/plain")


def filename(part: Message) -> str | None:
    """The part's file name, printable and bounded, or None."""
    name = safely(part.get_filename, None)
    if not isinstance(name, str) or not name:
        return None
    return printable(_raw(name), 80) or None


def disposition(part: Message) -> str | None:
    """``attachment``, ``inline`` or None."""
    value = safely(part.get_content_disposition, None)
    return value if isinstance(value, str) else None


def payload(part: Message) -> bytes | None:
    """The part's decoded body (base64, quoted-printable, uuencode undone), or None for a
    multipart or a body that cannot be decoded."""
    data = safely(lambda: part.get_payload(decode=True), None)
    return data if isinstance(data, bytes) else None


def charset(part: Message) -> str | None:
    """The part's declared charset, or None."""
    value = safely(part.get_content_charset, None)
    return value if isinstance(value, str) else None
