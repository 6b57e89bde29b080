"""SMTP sending and IMAP intake against real servers on 127.0.0.1."""

from __future__ import annotations

import pytest

from pbem.errors import UsageError
from pbem.mail.imap import Mailbox
from pbem.mail.settings import MailSettings, mail_settings
from pbem.mail.smtp import MailError, Outgoing, send

from .mailservers import ImapServer, SmtpServer

pytestmark = pytest.mark.mail


def _settings(smtp: SmtpServer, imap: ImapServer, **extra: object) -> MailSettings:
    config = {
        "mail": {
            "address": "judge@example.org",
            "imap": {
                "host": "127.0.0.1",
                "port": imap.port,
                "security": "none",
                "user": "judge",
                "password_env": "PBEM_TEST_IMAP_PW",
            },
            "smtp": {
                "host": "127.0.0.1",
                "port": smtp.port,
                "security": "none",
                "user": "judge",
                "password_env": "PBEM_TEST_SMTP_PW",
            },
            **extra,
        }
    }
    return mail_settings(config)


@pytest.fixture
def settings(smtp: SmtpServer, imap_server: ImapServer, monkeypatch: pytest.MonkeyPatch) -> MailSettings:
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap_server.users["judge"])
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", smtp.password)
    return _settings(smtp, imap_server)


def test_one_mail_per_recipient_with_body_and_attachments(settings, smtp: SmtpServer) -> None:
    mails = [
        Outgoing("alice@example.org", "Turn 3", "report for alice", "k-a", (("board.svg", b"<svg/>"),)),
        Outgoing("bob@example.org", "Turn 3", "report for bob", "k-b", (("report.txt", b"hello bob"),)),
    ]
    sent_at = 1_790_000_000
    assert send(settings, mails, date=sent_at) == ["k-a", "k-b"]
    assert [rcpts for rcpts, _ in smtp.received] == [["alice@example.org"], ["bob@example.org"]]
    [alice] = smtp.messages("alice@example.org")
    body = alice.get_body(("plain",))
    assert body is not None
    assert body.get_content().strip() == "report for alice"
    assert [p.get_filename() for p in alice.iter_attachments()] == ["board.svg"]
    [bob] = smtp.messages("bob@example.org")
    assert "alice" not in bob.as_string()
    assert alice["Message-ID"] != bob["Message-ID"]
    assert alice["Date"].datetime.timestamp() == sent_at, "dated by the caller's clock"


def test_wrong_smtp_password_is_a_mail_error(settings, smtp: SmtpServer, monkeypatch) -> None:
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", "wrong")
    with pytest.raises(MailError):
        send(settings, [Outgoing("a@example.org", "s", "b", "k")], date=1_790_000_000)
    assert smtp.received == []


def test_missing_password_variable_is_a_usage_error(settings, monkeypatch) -> None:
    monkeypatch.delenv("PBEM_TEST_SMTP_PW")
    with pytest.raises(UsageError, match="PBEM_TEST_SMTP_PW"):
        send(settings, [Outgoing("a@example.org", "s", "b", "k")], date=1_790_000_000)


def test_imap_fetch_mark_done_and_move(smtp: SmtpServer, imap_server: ImapServer, monkeypatch) -> None:
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap_server.users["judge"])
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", smtp.password)
    settings = _settings(smtp, imap_server, folder="intake-test", processed_folder="done-test")
    import imaplib

    c = imaplib.IMAP4("127.0.0.1", imap_server.port)
    c.login("judge", imap_server.users["judge"])
    c.create("intake-test")
    c.logout()
    with Mailbox(settings) as box:
        for i in range(3):
            box.append(f"Subject: m{i}\r\nMessage-ID: <m{i}@x>\r\n\r\nbody {i}\r\n".encode())
    with Mailbox(settings) as box:
        got = list(box.messages())
        assert [raw.split(b"\r\n")[0] for _, raw in got] == [b"Subject: m0", b"Subject: m1", b"Subject: m2"]
        box.mark_done(got[0][0])
    with Mailbox(settings) as box:
        assert len(box.pending()) == 2
        assert box.uidvalidity > 0
