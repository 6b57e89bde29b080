"""Finding order blocks in an email: bodies, attachments, quoted replies and HTML-only mail.

This module never parses or trusts an order block: it hands the text of every candidate
block to the engine's parser (:mod:`pbem.orders`), where only the signature decides who sent
it.  The From header is kept only to answer a mail whose orders could not be used.

The raw mail is read by :mod:`pbem.mail.message` (bounded, never raising anything but
:class:`~pbem.mail.message.BadMail`); here every part is searched within its own bounds: a
part larger than :data:`MAX_PART_BYTES` decoded is not searched (and the answer says so),
and a mail with more than :data:`MAX_BLOCKS` blocks is refused.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from email.message import Message

from pbem.mail import message as mailmsg
from pbem.mail.message import MAX_PART_BYTES, BadMail, parse_mail

ORDERS_BEGIN = "-----BEGIN PBEM ORDERS-----"
ORDERS_END = "-----END PBEM ORDERS-----"
ORDERS_SIGNATURE = "-----BEGIN PBEM SIGNATURE-----"
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"
AGE_BINARY_MAGIC = b"age-encryption.org/v1\n"
ARMOURS = ((ORDERS_BEGIN, ORDERS_END, "orders"), (AGE_BEGIN, AGE_END, "age"))
_BEGINS = frozenset(a[0] for a in ARMOURS)

MAX_BLOCKS = 20
"""Order blocks in one mail (one per game the player is in; a mail with more is refused)."""

_QUOTE = re.compile(r"^((?:[ \t]*>)+[ \t]?)")


MAX_PAD_LINES = 10_000
"""Blank lines the judge puts above a block it files so line numbers match the mail."""


@dataclass(frozen=True)
class Candidate:
    """One block that may be an order file.

    ``data`` is the block's text (BEGIN to END lines, quoting removed) or, for a binary age
    attachment, its bytes.  ``kind`` is ``orders`` or ``age``; ``source`` says where it was
    found (for the answer to the player); ``quoted`` is True if it sat in a quoted reply.
    """

    data: str | bytes
    kind: str
    source: str
    quoted: bool = False
    line: int = 1
    """The line of the text part where the block's BEGIN line stands (1 for attachments)."""

    def filed_text(self) -> str:
        """The block as the judge files it: preceded by as many blank lines as stood above it
        in the mail's text, so that the engine's line numbers are the lines of the mail the
        player wrote (blank lines outside the block are ignored by every reader).  Beyond
        :data:`MAX_PAD_LINES` the block is filed as it is (its lines then count from BEGIN)."""
        data = self.data if isinstance(self.data, str) else self.data.decode("ascii", "replace")
        above = self.line - 1
        return "\n" * above + data if above <= MAX_PAD_LINES else data


@dataclass(frozen=True)
class Extraction:
    """Everything found in one mail."""

    candidates: tuple[Candidate, ...]
    html_only: bool
    """The mail had no text/plain part; its HTML was converted to text and searched."""
    message_id: str | None
    """The mail's Message-ID when it is well formed (an answer repeats it), else None."""
    subject: str
    """The Subject, decoded, on one line, at most 200 characters."""
    skipped: tuple[str, ...] = ()
    """Parts that were not searched, and why ("attachment big.txt is 2,000,000 bytes")."""
    sender: str | None = None
    """The From address when it is a plain ``local@domain`` (never trusted for orders)."""
    automatic: bool = False
    """A bounce, auto-reply, list or bulk mail: never answered automatically."""
    date: str = ""
    """The Date field as the sender's program wrote it, on one line, at most 80 characters ("" if none)."""
    damaged: tuple[str, ...] = ()
    """Parts whose transfer encoding could not be undone cleanly ("the text/plain body")."""
    opaque: bool = False
    """The mail, or a part of it, is encrypted or signed as a whole (S/MIME, PGP/MIME)."""
    tnef: bool = False
    """Outlook put attachments in a ``winmail.dat`` (``application/ms-tnef``)."""

    def problem(self) -> str | None:
        """A clear answer for a mail with no usable block, or None if there are candidates."""
        if self.candidates:
            return None
        skipped = (" Not searched: " + "; ".join(self.skipped) + ".") if self.skipped else ""
        if self.opaque:
            skipped += (
                " Your mail is encrypted or signed as a whole (S/MIME or PGP/MIME), which the judge "
                "cannot open: send it without encryption (pbem sign seals your orders itself) and, "
                "if you sign mail, with a detached signature (multipart/signed)."
            )
        if self.tnef:
            skipped += (
                " Outlook put your attachment inside 'winmail.dat' (its Rich Text format), which the "
                "judge cannot read: set the mail's format to plain text (or HTML) and attach the "
                "file again, or paste the block into the body."
            )
        if self.damaged:
            skipped += (
                f" The base64 encoding of {', '.join(self.damaged)} is damaged (the mail was cut off "
                "or changed on its way), so what it holds could not be read."
            )
        if self.html_only:
            return (
                "your mail had only an HTML part and no order block could be read from it. "
                "Please send your orders as plain text: paste the whole signed block from "
                f"'{ORDERS_BEGIN}' to '{ORDERS_END}' into the body, or attach the file that "
                "'pbem sign' wrote." + skipped
            )
        return (
            f"no order block was found in your mail. Paste the whole signed block, from '{ORDERS_BEGIN}' "
            f"to '{ORDERS_END}', into the body, or attach the file that 'pbem sign' wrote." + skipped
        )


def _strip_quote(line: str) -> tuple[str, int]:
    match = _QUOTE.match(line)
    if not match:
        return line, 0
    return line[match.end() :], match.group(1).count(">")


def _strip_depth(line: str, depth: int) -> str | None:
    """``line`` without exactly ``depth`` levels of mail quoting; None if it has fewer."""
    if not line.strip():
        return ""
    for _ in range(depth):
        stripped = line.lstrip(" \t")
        if not stripped.startswith(">"):
            return None
        line = stripped[1:]
        if line.startswith(" "):
            line = line[1:]
    return line


_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"))
"""Byte-order marks and zero-width characters: dropped when an armour line is recognised
(Notepad starts a saved file with a byte-order mark; some clients put zero-width spaces in)."""


def _marker(body: str) -> str:
    """A line as compared with the armour lines: trimmed, invisible characters dropped."""
    stripped = body.strip()
    return stripped if stripped.isascii() else stripped.translate(_INVISIBLE).strip()


def find_blocks(text: str, source: str, limit: int = MAX_BLOCKS + 1) -> list[Candidate]:
    """Every armoured block in ``text``, at any quoting depth (at most ``limit`` of them).

    A block's depth is the depth of its BEGIN line; the same depth of quoting is removed
    from every line up to the END line at that depth.  Text outside blocks is ignored.  A
    block left open (no END line before the quoting changes or another block begins) is
    skipped, and the search goes on from where it stopped, so the time taken grows with the
    length of the text, never with its square.  No-break spaces are read as spaces (as the
    signed form reads them) and invisible characters around an armour line are ignored.  A
    block whose BEGIN line is dash-escaped (``- -----BEGIN``: the player's mail program
    clear-signed the mail with OpenPGP, RFC 4880 section 7.1) has that escaping undone once
    on each of its lines.
    """
    lines = text.replace("\u00a0", " ").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[Candidate] = []
    i = 0
    while i < len(lines) and len(out) < limit:
        body, depth = _strip_quote(lines[i])
        marker = _marker(body)
        dashed = marker.startswith("- ") and marker[2:] in _BEGINS  # in a PGP clear-signed text
        found = next((a for a in ARMOURS if (marker[2:] if dashed else marker) == a[0]), None)
        if found is None:
            i += 1
            continue
        begin, end, kind = found
        block = [begin]
        j = i + 1
        closed = False
        while j < len(lines):
            inner = _strip_depth(lines[j], depth)
            if inner is not None and dashed and inner.startswith("- "):
                inner = inner[2:]
            if inner is None or _marker(_strip_quote(lines[j])[0]) in _BEGINS or _marker(inner) in _BEGINS:
                break
            block.append(ORDERS_SIGNATURE if _marker(inner) == ORDERS_SIGNATURE else inner.rstrip())
            j += 1
            if _marker(inner) == end:
                closed = True
                break
        if closed:
            block[-1] = end
            out.append(Candidate("\n".join(block) + "\n", kind, source, quoted=depth > 0, line=i + 1))
        i = max(j, i + 1)
    return out


MAX_QUOTE = 10
"""Levels of ``<blockquote>`` turned into ``> `` quoting (deeper ones get no more marks)."""
_BREAKS = frozenset({"br", "p", "div", "tr", "li", "pre", "blockquote", "h1", "h2", "h3", "table"})
_HIDDEN = frozenset({"script", "style", "head"})
_TAG = re.compile(r"\s*(/?)\s*([A-Za-z][A-Za-z0-9]{0,15})")


class _TextFromHtml:
    """HTML to plain text, keeping line breaks where the HTML had them and ``> `` quoting
    for ``<blockquote>``.

    A scanner of its own rather than :class:`html.parser.HTMLParser`, whose handling of
    unclosed tags is quadratic (150 KB of ``<a `` took minutes): here every position of the
    text is looked at a bounded number of times.
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0

    def tag(self, inner: str) -> None:
        match = _TAG.match(inner)
        if match is None:
            return
        closing, name = match.group(1) == "/", match.group(2).lower()
        step = -1 if closing else 1
        if name in _HIDDEN:
            self.skip = max(0, self.skip + step)
        if name == "blockquote":
            self.quote = max(0, self.quote + step)
        if name in _BREAKS:
            self.parts.append("\n")

    def data(self, text: str) -> None:
        if self.skip or not text:
            return
        text = html.unescape(text)
        if self.quote:
            marks = "> " * min(self.quote, MAX_QUOTE)
            text = text.replace("\n", "\n" + marks)
            if not self.parts or self.parts[-1].endswith("\n"):
                text = marks + text
        self.parts.append(text)

    def feed(self, markup: str) -> None:
        i, n, gt = 0, len(markup), -1
        while i < n:
            lt = markup.find("<", i)
            if lt < 0:
                self.data(markup[i:])
                return
            self.data(markup[i:lt])
            if markup.startswith("<!--", lt):
                end = markup.find("-->", lt + 4)
                if end < 0:
                    return  # an unclosed comment hides the rest
                i = end + 3
                continue
            if gt < lt:
                gt = markup.find(">", lt)
            if gt < 0:
                self.data(markup[lt:])
                return
            following = markup.find("<", lt + 1)
            if 0 <= following < gt:  # a '<' that opens no tag: text
                self.data("<")
                i = lt + 1
                continue
            self.tag(markup[lt + 1 : gt])
            i = gt + 1


def html_to_text(markup: str) -> str:
    """Plain text of an HTML body: tags dropped, entities decoded, breaks kept, nbsp as
    space; time linear in the length of ``markup``."""
    parser = _TextFromHtml()
    parser.feed(markup)
    return "".join(parser.parts).replace("\xa0", " ")


def unflow(text: str, delsp: bool) -> str:
    """A ``format=flowed`` text (RFC 3676) as its writer typed it: each line ending in a space
    (a soft break, which the client put there) joined to the next line of the same quoting
    depth, without that space when ``delsp``; the space a client puts before a line starting
    with a space, ``>`` or ``From`` removed.  Quoting is written back as ``> `` per level;
    the signature separator ``-- `` is no soft break.  Time linear in the length of ``text``."""
    out: list[str] = []
    pending: list[str] = []
    pending_depth = -1
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        content = line.lstrip(">")
        depth = len(line) - len(content)
        content = content.removeprefix(" ")
        if pending and depth != pending_depth:  # improperly flowed: the quoting changed
            out.append(("> " * pending_depth) + "".join(pending))
            pending = []
        soft = content.endswith(" ") and content != "-- "
        pending.append(content[:-1] if soft and delsp else content)
        pending_depth = depth
        if not soft:
            out.append(("> " * depth) + "".join(pending))
            pending = []
    if pending:
        out.append(("> " * pending_depth) + "".join(pending))
    return "\n".join(out)


def _param(part: Message, name: str) -> str:
    value = mailmsg.safely(lambda: part.get_param(name), None)
    return value.strip().lower() if isinstance(value, str) else ""


_SINGLE_BYTE = re.compile(r"(us-)?ascii|iso[-_]?8859[-_]?\d+|latin[-_]?\d|(windows|cp)[-_]?125\d")
"""Charsets a client declares by habit: bytes that are valid UTF-8 under them are UTF-8."""
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def body_text(data: bytes, declared: str | None) -> str:
    """The text of a part's body, read as its writer meant it when the client mis-declared
    the charset: bytes that are valid UTF-8 (and not all ASCII) under a declared ASCII,
    Latin or Windows charset are UTF-8 (no Latin text of real words decodes as UTF-8);
    bytes that are not valid UTF-8 under a declared UTF-8, or no charset, are Windows-1252
    (an attachment saved by a Windows editor); a body that
    starts with a UTF-16 byte-order mark is UTF-16 whatever is declared.  Otherwise the
    declared charset, as :func:`pbem.mail.message.decode_bytes` reads it.  Never raises."""
    name = (declared or "").strip().strip('"').lower()
    if data.startswith(_UTF16_BOMS) and not name.startswith("utf-16"):
        return data.decode("utf-16", errors="replace")
    if not data.isascii() and (not name or _SINGLE_BYTE.fullmatch(name) or name in ("utf-8", "utf8")):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            if name in ("", "utf-8", "utf8"):
                return data.decode("cp1252", errors="replace")
    return mailmsg.decode_bytes(data, declared)


def _part_text(part: Message, data: bytes) -> str:
    """A text part's body as text: decoded (:func:`body_text`), a ``format=flowed`` one unflowed."""
    text = body_text(data, mailmsg.charset(part))
    if _param(part, "format") == "flowed":
        return unflow(text, _param(part, "delsp") == "yes")
    return text


def _too_big(what: str, size: int) -> str:
    return f"{what} is {size:,} bytes (the judge searches parts up to {MAX_PART_BYTES:,})"


_OPAQUE = frozenset({"multipart/encrypted", "application/pkcs7-mime", "application/x-pkcs7-mime"})
"""Content types that hide the mail's text: PGP/MIME encryption, S/MIME encryption or opaque signing."""
_TNEF = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})
_BASE64_DEFECTS = ("InvalidBase64PaddingDefect", "InvalidBase64CharactersDefect", "InvalidBase64LengthDefect")


def _damaged(part: Message) -> bool:
    """Whether decoding the part's base64 body (done just before) found it damaged."""
    empty: list[object] = []
    defects = mailmsg.safely(lambda: list[object](part.defects), empty)
    return any(type(d).__name__ in _BASE64_DEFECTS for d in defects)


def extract(msg: Message, own_address: str = "") -> Extraction:
    """Every candidate order block in a mail: text bodies, attachments, then HTML as a fallback
    (searched when no text part or attachment holds a block: an HTML-only mail, or a
    multipart/alternative whose text part a client wrote without the block).

    Blocks outside quoting win: quoted blocks (what the player replied to) are kept only
    when the mail has no unquoted block.  The same block found twice (say in the body and
    as an attachment) is returned once.  ``own_address`` is the judge's (its own mail coming
    back is never answered).  Raises BadMail for a mail with more than :data:`MAX_BLOCKS`
    blocks; never anything else, whatever the mail holds.
    """
    plain: list[Candidate] = []
    html_parts: list[str] = []
    skipped: list[str] = []
    damaged: list[str] = []
    has_plain = False
    opaque = tnef = False
    for index, part in enumerate(mailmsg.walk(msg)):
        if len(plain) > MAX_BLOCKS:
            break
        ctype = mailmsg.content_type(part)
        opaque = opaque or ctype in _OPAQUE
        tnef = tnef or ctype in _TNEF
        if mailmsg.safely(part.is_multipart, True):
            continue
        name = mailmsg.filename(part)
        if name or mailmsg.disposition(part) == "attachment":
            where = f"attachment {name or index}"
            data = mailmsg.payload(part)
            if data is None:
                continue
            if _damaged(part):
                damaged.append(where)
            if len(data) > MAX_PART_BYTES:
                skipped.append(_too_big(where, len(data)))
                continue
            if data.startswith(AGE_BINARY_MAGIC):
                plain.append(Candidate(data, "age", where))
                continue
            plain.extend(find_blocks(_part_text(part, data), where))
            continue
        if ctype not in ("text/plain", "text/html"):
            continue
        data = mailmsg.payload(part)
        if ctype == "text/plain":
            has_plain = True
        if data is None:
            continue
        if _damaged(part):
            damaged.append(f"the {ctype} body")
        if len(data) > MAX_PART_BYTES:
            skipped.append(_too_big(f"the {ctype} body", len(data)))
        elif ctype == "text/plain":
            plain.extend(find_blocks(_part_text(part, data), "mail body"))
        else:
            html_parts.append(_part_text(part, data))
    html_only = not has_plain and bool(html_parts)
    if html_parts and not plain:  # HTML only, or text that lacks the block its HTML holds
        for markup in html_parts:
            plain.extend(find_blocks(html_to_text(markup), "HTML mail body"))
    unquoted = [c for c in plain if not c.quoted]
    chosen = unquoted or plain
    seen: set[str | bytes] = set()
    unique = []
    for cand in chosen:
        key = cand.data if isinstance(cand.data, bytes) else cand.data.strip()
        if key not in seen:
            seen.add(key)
            unique.append(cand)
    if len(unique) > MAX_BLOCKS:
        raise BadMail(
            f"the mail holds more than {MAX_BLOCKS} order blocks; the judge reads up to {MAX_BLOCKS}",
            hint="send one signed order block per game, each as 'pbem sign' writes it",
        )
    return Extraction(
        tuple(unique),
        html_only,
        mailmsg.message_id(msg),
        mailmsg.header_text(msg, "subject"),
        tuple(skipped),
        mailmsg.sender_address(msg),
        mailmsg.is_automatic(msg, own_address),
        mailmsg.header_text(msg, "date", 80),
        tuple(damaged[:5]),
        opaque,
        tnef,
    )


def extract_raw(raw: bytes, own_address: str = "") -> Extraction:
    """:func:`extract` on raw mail bytes.  Raises BadMail for a mail beyond the bounds of
    :mod:`pbem.mail.message` or :func:`extract`, and nothing else."""
    return extract(parse_mail(raw), own_address)


__all__ = [
    "AGE_BEGIN",
    "AGE_END",
    "ORDERS_BEGIN",
    "ORDERS_END",
    "BadMail",
    "Candidate",
    "Extraction",
    "body_text",
    "extract",
    "extract_raw",
    "find_blocks",
    "html_to_text",
    "parse_mail",
    "unflow",
]
