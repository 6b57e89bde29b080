"""Session fixtures: one real SMTP server (aiosmtpd) and one real IMAP server (Dovecot)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .mailservers import ImapServer, SmtpServer, dovecot_binary, start_imap, start_smtp

IMAP_USERS = {
    "judge": "imap-secret",
    "alice": "alice-pw",
    "bob": "bob-pw",
    "carol": "carol-pw",
    "dave": "dave-pw",  # a fourth player: Parasite needs four (test_parasite_mail.py)
}


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpServer]:
    pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install -e '.[test]'")
    server = start_smtp()
    yield server
    server.controller.stop()


@pytest.fixture(scope="session")
def imap_server() -> Iterator[ImapServer]:
    if dovecot_binary() is None:
        pytest.skip(
            "Dovecot is not installed: apt-get install -y --no-install-recommends dovecot-imapd "
            "(the CI script .ci/run does this)"
        )
    server = start_imap(IMAP_USERS)
    yield server
    server.stop()


@pytest.fixture
def smtp(smtp_server: SmtpServer) -> SmtpServer:
    smtp_server.clear()
    return smtp_server
