"""Hostile mails: one or more per trigger family of issue 8's "one mail kills pbem judge".

Each is raw bytes as a mail server would hand them over.  ``TRIGGERS`` maps a name to
``(family, raw, answerable)``: ``answerable`` says whether the mail has a plain From address
the judge may answer (else the judge only logs it).
"""

from __future__ import annotations

GAME = "5F3A9C0D12E4B7A1"
BEGIN, END = "-----BEGIN PBEM ORDERS-----", "-----END PBEM ORDERS-----"


def mail(headers: bytes, body: bytes = b"hello\r\n", sender: bytes = b"mallory@example.org") -> bytes:
    """A raw mail: a From line (unless ``headers`` has one), ``headers``, a blank line, ``body``."""
    top = b"" if headers.lower().startswith(b"from:") else b"From: " + sender + b"\r\n"
    return top + b"Subject: orders\r\n" + headers + b"\r\n" + body


def unsigned_block(turn: str = "3", seq: str = "1", game: str = GAME) -> bytes:
    return (
        f"{BEGIN}\nGame: {game}\nTurn: {turn}\nPlayer: alice\nSeq: {seq}\n\ntake\n"
        f"-----BEGIN PBEM SIGNATURE-----\nAAAA\n{END}\n"
    ).encode()


def nested_multipart(depth: int) -> bytes:
    out = [b"From: mallory@example.org\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n"]
    for i in range(depth):
        out.append(b"--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n" % (i, i + 1))
    return b"".join(out)


def nested_rfc822(depth: int) -> bytes:
    head = b"From: mallory@example.org\r\nContent-Type: message/rfc822\r\n\r\n"
    inner = b"Content-Type: message/rfc822\r\n\r\n"
    return head + inner * depth + b"\r\nbody\r\n"


def many_parts(count: int) -> bytes:
    parts = b"".join(b"--x\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(count))
    return mail(b"Content-Type: multipart/mixed; boundary=x\r\n", parts + b"--x--\r\n")


def _triggers() -> dict[str, tuple[str, bytes, bool]]:
    t: dict[str, tuple[str, bytes, bool]] = {}

    def add(name: str, family: str, raw: bytes, answerable: bool = True) -> None:
        t[name] = (family, raw, answerable)

    # Numbers beyond int()'s digit limit, in an unsigned block (no key needed).
    add("seq-5000-digits", "huge numbers", mail(b"", unsigned_block(seq="9" * 5000)))
    add("turn-5000-digits", "huge numbers", mail(b"", unsigned_block(turn="9" * 5000)))
    add("game-5000-hex", "huge numbers", mail(b"", unsigned_block(game="F" * 5000)))
    add(
        "rfc2231-5000-digit-section",
        "huge numbers",
        mail(b"Content-Disposition: attachment; filename*" + b"9" * 5000 + b"*=utf-8''x.txt\r\n"),
    )
    # Charsets that are not text encodings, unknown, or absurd.
    for charset in (b"idna", b"punycode", b"rot13", b"base64_codec", b"x-unknown", b"utf\x008", b"u" * 5000):
        body = b"\xff\xfe hello\r\n" + unsigned_block()
        name = f"charset-{charset[:12].decode('latin-1')!r}"
        add(name, "charsets", mail(b'Content-Type: text/plain; charset="' + charset + b'"\r\n', body))
    add(
        "charset-idna-subject",
        "charsets",
        mail(b"Content-Type: text/plain; charset=utf-8\r\nX: =?idna?q?=FF?=\r\n".replace(b"X", b"X-Note")),
    )
    # Structure: nesting, parts, boundaries.
    add("nested-multipart-3000", "structure", nested_multipart(3000))
    add("nested-rfc822-3000", "structure", nested_rfc822(3000))
    add("parts-500", "structure", many_parts(500))
    add("multipart-no-boundary", "structure", mail(b"Content-Type: multipart/mixed\r\n", b"--\r\n--x--\r\n"))
    add(
        "multipart-unterminated",
        "structure",
        mail(b"Content-Type: multipart/alternative; boundary=q\r\n", b"--q\r\n\r\n" + unsigned_block()),
    )
    add("blocks-1000", "structure", mail(b"", b"".join(unsigned_block(seq=str(i)) for i in range(1000))))
    add("open-blocks-30000", "structure", mail(b"", (BEGIN + "\n").encode() * 30000))
    add(
        "html-pathological",
        "structure",
        mail(b"Content-Type: text/html\r\n", b"<a " * 50000 + b"<!--" + b"<![CDATA[" * 1000),
    )
    # Address headers the modern parser raises on.
    add("from-angle", "address headers", b'From: <mallory@example.org>>, "\r\nSubject: x\r\n\r\nhello\r\n')
    for n, value in enumerate((b"a@[", b"a:b:c;d;@", b'"\\', b"<>" * 3000, b"a@b@c")):
        add(f"from-{n}", "address headers", b"From: " + value + b"\r\nSubject: x\r\n\r\nhello\r\n", False)
    add(
        "from-encoded-crlf",
        "address headers",
        b"From: =?utf-8?q?=0D=0ABcc=3A_x?= <mallory@example.org>\r\nSubject: x\r\n\r\nhello\r\n",
    )
    add("to-group", "address headers", mail(b"To: a:;, b:\r\nCc: ,,,@,\r\n"))
    add("reply-to-broken", "address headers", mail(b"Reply-To: a@[\r\nSender: <<>>\r\n"))
    # Encoded words.
    add(
        "ew-bad-base64",
        "encoded words",
        mail(b"X-Y: 1\r\n").replace(b"Subject: orders", b"Subject: =?utf-8?b?====?="),
    )
    add(
        "ew-unknown-charset",
        "encoded words",
        mail(b"").replace(b"Subject: orders", b"Subject: =?x-foo?q?abc?="),
    )
    add("ew-8bit", "encoded words", mail(b"").replace(b"Subject: orders", b"Subject: =?utf-8?q?\xff\xfe?="))
    add(
        "ew-crlf-injection",
        "encoded words",
        mail(b"").replace(b"Subject: orders", b"Subject: =?utf-8?q?x=0D=0ABcc=3A_victim=40example=2Eorg?="),
    )
    # Message-ID and Date.
    for n, value in enumerate((b"<[", b'"\\', b"<" + b"a" * 5000 + b"@b>", b"<a@b>\r\n <c@d>", b"")):
        add(f"message-id-{n}", "Message-ID, Date", mail(b"Message-ID: " + value + b"\r\n"))
    add("date-absurd", "Message-ID, Date", mail(b"Date: Mon, 99 Foo 99999999999 99:99:99 +9999\r\n"))
    add("date-empty", "Message-ID, Date", mail(b"Date:\r\n"))
    # Content-Type parameters, RFC 2231 continuations.
    add(
        "rfc2231-broken",
        "Content-Type parameters",
        mail(
            b"Content-Type: text/plain; name*0*=''x; name*1*=%ff; charset*=bogus'en'%\r\n"
            b"Content-Disposition: attachment; filename*0*=us-ascii''a; filename*2=b; filename*1*=%%%\r\n"
        ),
    )
    add(
        "rfc2231-charset-continuation",
        "Content-Type parameters",
        mail(b"Content-Type: text/plain; charset*0*=x''; charset*1=\"\r\n"),
    )
    add("content-type-slash", "Content-Type parameters", mail(b"Content-Type: /\r\n"))
    add(
        "content-type-quotes",
        "Content-Type parameters",
        mail(b'Content-Type: text/plain; a="' * 900 + b"\r\n"),
    )
    add("cte-bad-base64", "Content-Type parameters", mail(b"Content-Transfer-Encoding: base64\r\n", b"!!!!="))
    add(
        "cte-bad-uu",
        "Content-Type parameters",
        mail(b"Content-Transfer-Encoding: x-uuencode\r\n", b"begin 644 x\n\xff\nend\n"),
    )
    # Very long header lines.
    add("subject-2mb", "long headers", mail(b"").replace(b"Subject: orders", b"Subject: " + b"x" * 2_000_000))
    add(
        "content-type-100kb", "long headers", mail(b"Content-Type: text/plain; x=" + b"y" * 100_000 + b"\r\n")
    )
    add("header-fields-5000", "long headers", mail(b"X-A: b\r\n" * 5000))
    # NUL bytes and 8-bit (non-UTF-8) headers.
    add(
        "nul-in-headers",
        "NUL and 8-bit",
        mail(b'Subject: a\x00b\r\nContent-Type: text/plain; charset="utf\x008"\r\n'),
    )
    add("nul-in-from", "NUL and 8-bit", b"From: a\x00@b.c\r\n\r\nhi\r\n", False)
    add(
        "latin1-headers",
        "NUL and 8-bit",
        b"From: \xe9\xff <mallory@example.org>\r\nSubject: \xe9t\xe9\r\n"
        b'Content-Disposition: attachment; filename="\xff.txt"\r\n\r\n' + unsigned_block(),
    )
    add("header-name-8bit", "NUL and 8-bit", mail(b"X-\xff\xfe: \xff\r\n\xff: x\r\n"))
    # Size.
    add("ten-megabytes", "size", mail(b"", b"x" * 10_000_000))
    return t


TRIGGERS = _triggers()
