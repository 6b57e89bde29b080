"""Mail clients review (eleventh session): a body whose charset the client declared wrongly.

Old and misconfigured clients declare ``iso-8859-1`` or ``windows-1252`` for every mail while
sending UTF-8 (or ``utf-8`` while sending Windows-1252), and Windows tools write UTF-16 with a
byte-order mark under no charset at all.  The bytes of a clear order block with an accented
comment are intact, so the orders must be accepted.  Before, the judge read the body as
declared ("\u00e9" became "\u00c3\u00a9", or U+FFFD, or nothing was found at all) and refused the orders
as "changed after signing", or answered "no order block was found".
"""

from __future__ import annotations

import base64
import quopri
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail.extract import body_text

from .clientkit import World, headers, judge_mail, make_world, raw_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("charset"))


def _body(world: World) -> str:
    assert not world.clear.isascii(), "the block's comment has an accented letter"
    return "Bonjour, voici mes ordres.\n\n" + world.clear


CASES = {
    "utf-8 declared latin-1": ("utf-8", "text/plain; charset=iso-8859-1", "8bit"),
    "utf-8 declared windows-1252, quoted-printable": ("utf-8", "text/plain; charset=windows-1252", "qp"),
    "utf-8 declared us-ascii": ("utf-8", "text/plain; charset=us-ascii", "8bit"),
    "windows-1252 declared utf-8": ("cp1252", "text/plain; charset=utf-8", "8bit"),
    "utf-16 with a byte-order mark, no charset": ("utf-16", "text/plain", "base64"),
    "latin-1 declared latin-1 (as before)": ("latin-1", "text/plain; charset=iso-8859-1", "8bit"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_mis_declared_charset_does_not_lose_the_orders(world: World, case: str, tmp_path: Path) -> None:
    codec, ctype, encoding = CASES[case]
    data = _body(world).replace("\n", "\r\n").encode(codec)
    if encoding == "qp":
        data, encoding = quopri.encodestring(data), "quoted-printable"
    elif encoding == "base64":
        data = base64.encodebytes(data)
    outcome = judge_mail(world, raw_mail(world, data, ctype, encoding), tmp_path)
    assert outcome.accepted, outcome


def test_body_text_keeps_what_was_declared_when_it_fits() -> None:
    assert body_text("caf\u00e9".encode("latin-1"), "iso-8859-1") == "caf\u00e9"
    assert body_text("\u0434\u0430".encode("koi8-r"), "koi8-r") == "\u0434\u0430", "another declared charset"
    assert body_text(b"plain!", "utf-16-le") == b"plain!".decode("utf-16-le"), "a declared UTF-16 is kept"
    assert body_text(b"caf\xc3\xa9 \xff", "utf-8") == "caf\u00c3\u00a9 \u00ff", "not UTF-8: Windows-1252"


def test_an_attachment_in_windows_1252_without_a_charset_is_read(world: World, tmp_path: Path) -> None:
    """A signed file a Windows editor saved again in its "ANSI" code page, attached as
    application/octet-stream (no charset): before, its accented letters became U+FFFD."""
    msg = headers(EmailMessage(), world)
    msg.set_content("Attached.\n")
    data = world.clear.replace("\n", "\r\n").encode("cp1252")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename="orders.txt")
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    assert outcome.accepted, outcome
