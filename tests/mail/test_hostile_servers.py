"""Hostile mail against real servers (Dovecot IMAP, aiosmtpd SMTP): issue 8's first bullet.

Hostile mails sit in the judge's mailbox before a player's good orders: the good orders are
filed and accepted, each hostile mail is answered once (or only logged), flagged
``$PbemQuarantined`` and moved to the quarantine folder on the server; a restarted judge
reads none of them again; and ``pbem judge --watch`` in its own process survives them.
"""

from __future__ import annotations

import imaplib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pbem.keys import Identity

from .hostile import TRIGGERS
from .mailservers import ImapServer, SmtpServer
from .test_judge import MailPlayer, _judge, _orders_mail, _report_of, _root, keys, post_office  # noqa: F401

pytestmark = pytest.mark.mail

ONE_PER_FAMILY = (
    "seq-5000-digits",
    "charset-'idna'",
    "nested-multipart-3000",
    "from-0",
    "ew-crlf-injection",
    "message-id-0",
    "rfc2231-broken",
    "subject-2mb",
    "latin1-headers",
    "ten-megabytes",
)


def _imap(server: ImapServer) -> imaplib.IMAP4:
    client = imaplib.IMAP4("127.0.0.1", server.port)
    client.login("judge", server.users["judge"])
    return client


def _append(server: ImapServer, raws: list[bytes]) -> None:
    client = _imap(server)
    for raw in raws:
        typ, data = client.append("INBOX", "", None, raw)
        assert typ == "OK", data
    client.logout()


def _count(server: ImapServer, folder: str, *criteria: str) -> int:
    client = _imap(server)
    typ, _ = client.select(folder)
    if typ != "OK":
        client.logout()
        return 0
    _, data = client.uid("SEARCH", *(criteria or ("ALL",)))
    client.logout()
    return len((data[0] or b"").split())


def _configure(root: Path, folder: str) -> None:
    config = root / "moderator.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace(
            'processed_folder = "processed"',
            f'processed_folder = "processed"\nquarantine_folder = "{folder}"',
        ),
        encoding="utf-8",
    )


def test_hostile_mails_then_good_orders_with_real_servers(
    post_office: None,  # noqa: F811
    smtp: SmtpServer,
    imap_server: ImapServer,
    keys: dict[str, Identity],  # noqa: F811
    tmp_path: Path,
) -> None:
    folder = f"quarantine-{tmp_path.name}"
    root = _root(tmp_path, smtp, imap_server, keys)
    _configure(root, folder)
    judge = _judge(root, keys, tmp_path)
    judge.run_once()
    alice = MailPlayer(keys["alice"], imap_server, smtp)
    [report] = [found for m in alice.new_mail() if (found := _report_of(m))]
    _append(imap_server, [TRIGGERS[name][1] for name in ONE_PER_FAMILY])
    alice.send(_orders_mail(alice, report[0], report[1], 0, 0))
    smtp.clear()
    intake, result, _ = judge.run_once()
    # The good orders were filed and accepted; every hostile mail was set aside.
    assert (intake.mails, intake.blocks, intake.quarantined) == (
        len(ONE_PER_FAMILY) + 1,
        1,
        len(ONE_PER_FAMILY),
    )
    assert result.games[0].notices == ("accepted",)
    answerable = sum(TRIGGERS[name][2] for name in ONE_PER_FAMILY)
    answers = [rcpts for rcpts, _ in smtp.received if rcpts == ["mallory@example.org"]]
    assert len(answers) == answerable == intake.answered
    assert all(b"\nBcc:" not in data for _, data in smtp.received), "no header injected through a Subject"
    # On the server: nothing pending, hostile mails flagged and moved to the quarantine folder.
    assert _count(imap_server, "INBOX", "UNKEYWORD", "$PbemDone") == 0
    assert _count(imap_server, folder, "KEYWORD", "$PbemQuarantined") == len(ONE_PER_FAMILY)
    assert _count(imap_server, "processed") == 1
    # A restarted judge reads none of them again.
    again = _judge(root, keys, tmp_path)
    assert again.intake().mails == 0


def test_judge_watch_survives_hostile_mail(
    post_office: None,  # noqa: F811
    smtp: SmtpServer,
    imap_server: ImapServer,
    keys: dict[str, Identity],  # noqa: F811
    tmp_path: Path,
) -> None:
    root = _root(tmp_path, smtp, imap_server, keys)
    _configure(root, f"quarantine-{tmp_path.name}")
    key = tmp_path / "moderator.key"
    keys["moderator"].save(key)
    alice = MailPlayer(keys["alice"], imap_server, smtp)
    _append(imap_server, [TRIGGERS[name][1] for name in ONE_PER_FAMILY[:5]])
    command = [sys.executable, "-m", "pbem", "judge", str(root), "--key", str(key)]
    command += ["--state-dir", str(tmp_path / "state"), "--watch", "--poll", "1"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PBEM_HOME": str(tmp_path)},
    )
    try:
        deadline = time.monotonic() + 30
        report = None
        while report is None and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.3)
            report = next((found for m in alice.new_mail() if (found := _report_of(m))), None)
        assert report is not None, "the judge mailed the first report"
        # More hostile mail while it runs, then good orders: filed by a later poll.
        _append(imap_server, [TRIGGERS[name][1] for name in ONE_PER_FAMILY[5:]])
        alice.send(_orders_mail(alice, report[0], report[1], 0, 0))
        accepted = False
        while not accepted and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.3)
            accepted = any("ACCEPTED" in str(m) for m in alice.new_mail())
        assert accepted, "the good orders were accepted while the loop ran"
        assert process.poll() is None, "the watch loop is still running"
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err.decode(errors="replace")
    assert b"stopped" in out
    assert b"Traceback" not in err
    assert err.count(b"mail set aside:") == len(ONE_PER_FAMILY)
    assert _count(imap_server, "INBOX", "UNKEYWORD", "$PbemDone") == 0
