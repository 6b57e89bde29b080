"""Mail clients review (eleventh session): orders in a mail the player's client clear-signed
with OpenPGP (Thunderbird's and Mutt's inline PGP, Enigmail's "traditional" signing).

A clear-signed text has every line that starts with ``-`` dash-escaped (``- -----BEGIN PBEM
ORDERS-----``, RFC 4880 section 7.1).  The signed content of the order block is intact, so
the orders must be accepted.  Before, the judge found no block ("no order block was found
in your mail").  A PGP/MIME signed mail (multipart/signed) was already read; it is checked
here too.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest

from pbem.mail.extract import find_blocks
from pbem.orders import parse, sign

from .clientkit import World, headers, judge_mail, make_world, raw_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("pgp"))


def clearsigned(text: str) -> str:
    """``text`` as gpg --clearsign writes it (the signature itself is not checked by pbem)."""
    escaped = "\n".join("- " + line if line.startswith(("-", "From ")) else line for line in text.split("\n"))
    return (
        "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
        + escaped
        + "\n-----BEGIN PGP SIGNATURE-----\n\niHUEARYKAB0WIQTexample\n=abcd\n-----END PGP SIGNATURE-----\n"
    )


@pytest.mark.parametrize("kind", ["clear", "sealed"])
@pytest.mark.parametrize("quoted", [False, True])
def test_a_clear_signed_mail_is_accepted(world: World, kind: str, quoted: bool, tmp_path: Path) -> None:
    block: str = getattr(world, kind)
    body = clearsigned("Hi,\n\n" + block + "\n-- \nAlice")
    if quoted:
        body = "On Monday alice wrote:\n" + "\n".join("> " + line for line in body.split("\n"))
    msg = headers(EmailMessage(), world)
    msg.set_content(body)
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    assert outcome.accepted, outcome


def test_dash_escaping_is_undone_exactly_once(world: World) -> None:
    block = sign(world.player, parse(world.clear).header, ["draw", "# - a dash", "- not an order"])
    assert "\n- - not an order\n" in block, "pbem escapes its own line"
    [plain] = find_blocks(block, "x")
    [pgp] = find_blocks(clearsigned(block), "x")
    assert pgp.data == plain.data


def test_a_pgp_mime_signed_mail_is_accepted(world: World, tmp_path: Path) -> None:
    signed = MIMEMultipart("signed", protocol="application/pgp-signature", micalg="pgp-sha256")
    for name, value in headers(EmailMessage(), world).items():
        signed[name] = value
    signed.attach(MIMEText("Hi,\n\n" + world.clear, "plain", "utf-8"))
    signed.attach(MIMEApplication(b"-----BEGIN PGP SIGNATURE-----\n=abcd\n", "pgp-signature"))
    outcome = judge_mail(world, signed.as_bytes(), tmp_path)
    assert outcome.accepted, outcome


ENCRYPTED = (
    'multipart/encrypted; protocol="application/pgp-encrypted"; boundary="b"',
    b"--b\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n--b\r\n"
    b'Content-Type: application/octet-stream; name="encrypted.asc"\r\n\r\n'
    b"-----BEGIN PGP MESSAGE-----\r\nhQEMA\r\n-----END PGP MESSAGE-----\r\n--b--\r\n",
)
OPAQUE_SMIME = (
    'application/pkcs7-mime; smime-type=signed-data; name="smime.p7m"',
    b"MIIFBgYJKoZIhvcNAQcCoIIE9zCCBPMCAQExDzANBglghkgBZQMEAgEFADALBgkq\r\n",
)


@pytest.mark.parametrize("kind", ["PGP/MIME encrypted", "S/MIME opaque-signed"])
def test_a_mail_encrypted_or_signed_as_a_whole_is_answered_saying_so(
    world: World, kind: str, tmp_path: Path
) -> None:
    ctype, body = ENCRYPTED if kind == "PGP/MIME encrypted" else OPAQUE_SMIME
    encoding = "7bit" if kind == "PGP/MIME encrypted" else "base64"
    outcome = judge_mail(world, raw_mail(world, body, ctype, encoding), tmp_path)
    [answer] = outcome.answers
    assert "encrypted or signed as a whole (S/MIME or PGP/MIME)" in answer, answer
    assert "send it without encryption" in answer


def test_outlooks_winmail_dat_is_answered_saying_so(world: World, tmp_path: Path) -> None:
    """Outlook in Rich Text mode sends attachments inside winmail.dat (TNEF): say so."""
    msg = headers(EmailMessage(), world)
    msg.set_content("My orders are attached.\n")
    tnef = b"\x78\x9f\x3e\x22\x01\x00" + world.clear.encode() + b"\x00\x01"
    msg.add_attachment(tnef, maintype="application", subtype="ms-tnef", filename="winmail.dat")
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    [answer] = outcome.answers
    assert "Outlook put your attachment inside 'winmail.dat'" in answer, answer
    assert "plain text" in answer
