"""Finding order blocks in an email: bodies, attachments, quoted replies and HTML-only mail.

This module never parses or trusts an order block: it hands the text of every candidate
block to the engine's parser (:mod:`pbem.orders`), where only the signature decides who sent
it.  The From header is never consulted here.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from html.parser import HTMLParser

ORDERS_BEGIN = "-----BEGIN PBEM ORDERS-----"
ORDERS_END = "-----END PBEM ORDERS-----"
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"
AGE_BINARY_MAGIC = b"age-encryption.org/v1\n"
ARMOURS = ((ORDERS_BEGIN, ORDERS_END, "orders"), (AGE_BEGIN, AGE_END, "age"))

MAX_PART_BYTES = 1_000_000
"""Parts larger than this are not searched (no order file is that big)."""

_QUOTE = re.compile(r"^((?:[ \t]*>)+[ \t]?)")


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


@dataclass(frozen=True)
class Extraction:
    """Everything found in one mail."""

    candidates: tuple[Candidate, ...]
    html_only: bool
    """The mail had no text/plain part; its HTML was converted to text and searched."""
    message_id: str | None
    subject: str

    def problem(self) -> str | None:
        """A clear answer for a mail with no usable block, or None if there are candidates."""
        if self.candidates:
            return None
        if self.html_only:
            return (
                "your mail had only an HTML part and no order block could be read from it. "
                "Please send your orders as plain text: paste the whole signed block from "
                f"'{ORDERS_BEGIN}' to '{ORDERS_END}' into the body, or attach the file that "
                "'pbem sign' wrote."
            )
        return (
            f"no order block was found in your mail. Paste the whole signed block, from '{ORDERS_BEGIN}' "
            f"to '{ORDERS_END}', into the body, or attach the file that 'pbem sign' wrote."
        )


def parse_mail(raw: bytes) -> EmailMessage:
    """Parse raw RFC 5322 bytes into a message (modern policy; never raises on bad mail)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


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


def find_blocks(text: str, source: str) -> list[Candidate]:
    """Every armoured block in ``text``, at any quoting depth.

    A block's depth is the depth of its BEGIN line; the same depth of quoting is removed
    from every line up to the END line at that depth.  Text outside blocks is ignored.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[Candidate] = []
    i = 0
    while i < len(lines):
        body, depth = _strip_quote(lines[i])
        found = next((a for a in ARMOURS if body.strip() == a[0]), None)
        if found is None:
            i += 1
            continue
        begin, end, kind = found
        block = [begin]
        j = i + 1
        closed = False
        while j < len(lines):
            inner = _strip_depth(lines[j], depth)
            if inner is None:
                break
            block.append(inner.rstrip())
            j += 1
            if inner.strip() == end:
                closed = True
                break
        if closed:
            block[-1] = end
            out.append(Candidate("\n".join(block) + "\n", kind, source, quoted=depth > 0))
            i = j
        else:
            i += 1
    return out


class _TextFromHtml(HTMLParser):
    """HTML to plain text, keeping line breaks where the HTML had them."""

    _BREAKS = frozenset({"br", "p", "div", "tr", "li", "pre", "blockquote", "h1", "h2", "h3", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self.skip += 1
        if tag == "blockquote":
            self.quote += 1
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.quote:
            data = data.replace("\n", "\n" + "> " * self.quote)
            if not self.parts or self.parts[-1].endswith("\n"):
                data = "> " * self.quote + data
        self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Plain text of an HTML body: tags dropped, entities decoded, breaks kept, nbsp as space."""
    parser = _TextFromHtml()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.parts).replace("\xa0", " ")
    return html.unescape(text)


def _part_text(part: Message) -> str | None:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes) or len(payload) > MAX_PART_BYTES:
        return None
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def extract(msg: EmailMessage) -> Extraction:
    """Every candidate order block in a mail: text bodies, attachments, then HTML as a fallback.

    Blocks outside quoting win: quoted blocks (what the player replied to) are kept only
    when the mail has no unquoted block.  The same block found twice (say in the body and
    as an attachment) is returned once.
    """
    plain: list[Candidate] = []
    html_parts: list[str] = []
    has_plain = False
    for index, part in enumerate(msg.walk()):
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        filename = part.get_filename()
        disposition = part.get_content_disposition()
        if filename or disposition == "attachment":
            name = filename or f"attachment {index}"
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes) or len(payload) > MAX_PART_BYTES:
                continue
            if payload.startswith(AGE_BINARY_MAGIC):
                plain.append(Candidate(payload, "age", f"attachment {name}"))
                continue
            text = _part_text(part)
            if text is not None:
                plain.extend(find_blocks(text, f"attachment {name}"))
            continue
        if ctype == "text/plain":
            has_plain = True
            text = _part_text(part)
            if text is not None:
                plain.extend(find_blocks(text, "mail body"))
        elif ctype == "text/html":
            text = _part_text(part)
            if text is not None:
                html_parts.append(text)
    html_only = not has_plain and bool(html_parts)
    if html_only:
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
    subject = str(msg.get("Subject", "") or "")
    message_id = msg.get("Message-ID")
    return Extraction(tuple(unique), html_only, str(message_id).strip() if message_id else None, subject)


def extract_raw(raw: bytes) -> Extraction:
    """:func:`extract` on raw mail bytes."""
    return extract(parse_mail(raw))
