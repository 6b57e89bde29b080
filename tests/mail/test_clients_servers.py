"""Mail clients review (eleventh session), with real servers: a player's orders leave a
client that sends ``format=flowed`` with ``delsp=yes``, no-break spaces and a charset it
mis-declares, through aiosmtpd into Dovecot, and the judge reads them over IMAP and accepts
them (tests/mail/test_clients_*.py check each trigger with an in-memory mailbox; this checks
that nothing on a real path, SMTP and IMAP, undoes what they rely on)."""

from __future__ import annotations

import smtplib
from pathlib import Path

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import parse, sign
from pbem.player import form_header
from pbem.reports import parse_report

from .mailservers import ImapServer, SmtpServer
from .test_clients_flowed import flowed
from .test_judge import MailPlayer, _judge, _report_of, _root, keys, post_office  # noqa: F401

pytestmark = pytest.mark.mail


def test_a_flowed_mis_declared_mail_through_real_servers(
    post_office: None,  # noqa: F811
    smtp: SmtpServer,
    imap_server: ImapServer,
    keys: dict[str, Identity],  # noqa: F811
    tmp_path: Path,
) -> None:
    root = _root(tmp_path, smtp, imap_server, keys)
    judge = _judge(root, keys, tmp_path)
    judge.run_once()
    save = GameFolder(root / "game").read()
    name = save.names[save.awaiting[0]]
    [(report_text, source)] = [
        found for m in MailPlayer(keys[name], imap_server, smtp).new_mail() if (found := _report_of(m))
    ]
    player = keys[name]
    report = parse_report(report_text, source, player)
    block = sign(
        player,
        form_header(report),
        ["draw  # un coup \u00e9tonnant, je crois, le meilleur de la partie jusqu'ici"],
    )
    assert parse(block).header.player == name
    body = flowed("Bonjour,\n\n" + block.replace(" ", "\u00a0"), 30, True)
    raw = (
        (
            f"From: {name}@example.org\r\nTo: judge@example.org\r\nSubject: ordres\r\n"
            "Date: Tue, 24 Nov 2026 06:00:00 +0000\r\nMIME-Version: 1.0\r\n"
            "Content-Type: text/plain; charset=iso-8859-1; format=flowed; delsp=yes\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n"
        ).encode()
        + body.encode("utf-8")
        + b"\r\n"
    )
    with smtplib.SMTP("127.0.0.1", smtp.port) as client:
        client.sendmail(f"{name}@example.org", ["judge@example.org"], raw)
    intake, result, _ = judge.run_once()
    assert (intake.mails, intake.blocks, intake.quarantined) == (1, 1, 0), intake
    assert "accepted" in result.games[0].notices, result
