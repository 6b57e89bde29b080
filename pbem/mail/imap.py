"""Fetching order mails from an IMAP mailbox, by UID, marking each one handled.

A mail is handled at most once: the judge records its UID (with the mailbox's UIDVALIDITY)
and Message-ID in its local journal before it marks the mail on the server with the
keyword ``$PbemDone`` (and ``\\Seen``), and optionally moves it to a processed folder.  A
crash between the two steps only makes the judge see the mail again and skip it.
"""

from __future__ import annotations

import imaplib
import re
import ssl
from collections.abc import Iterator
from types import TracebackType

from pbem.mail.settings import MailSettings
from pbem.mail.smtp import MailError

DONE = "$PbemDone"


class Mailbox:
    """One logged-in IMAP session on the judge's folder.  Use as a context manager."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings
        self.client: imaplib.IMAP4 | None = None
        self.uidvalidity = 0
        self.can_move = False

    def __enter__(self) -> Mailbox:
        server = self.settings.imap
        try:
            if server.security == "ssl":
                client: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    server.host, server.port, ssl_context=ssl.create_default_context(), timeout=server.timeout
                )
            else:
                client = imaplib.IMAP4(server.host, server.port, timeout=server.timeout)
                if server.security == "starttls":
                    client.starttls(ssl_context=ssl.create_default_context())
            client.login(server.user or self.settings.address, server.password() or "")
            typ, data = client.select(_quote(self.settings.folder))
            if typ != "OK":
                raise MailError(f"cannot open mail folder {self.settings.folder!r}: {data!r}")
            validity = client.untagged_responses.get("UIDVALIDITY", [b"0"])[0]
            self.uidvalidity = int(validity) if isinstance(validity, bytes | str) else 0
            typ, caps = client.capability()
            self.can_move = typ == "OK" and b"MOVE" in (caps[0] or b"").upper().split()
        except (OSError, imaplib.IMAP4.error) as exc:
            raise MailError(f"cannot read mail from {server.host}:{server.port}: {exc}") from None
        self.client = client
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.client is not None:
            try:
                self.client.close()
                self.client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
            self.client = None

    def _client(self) -> imaplib.IMAP4:
        if self.client is None:
            raise MailError("the mailbox is not open")
        return self.client

    def pending(self) -> list[int]:
        """UIDs of mails not yet marked handled, oldest first."""
        typ, data = self._client().uid("SEARCH", "UNKEYWORD", DONE)
        if typ != "OK":
            raise MailError(f"IMAP search failed: {data!r}")
        return sorted(int(x) for x in (data[0] or b"").split())

    def fetch(self, uid: int) -> bytes | None:
        """The raw bytes of mail ``uid`` (not marked seen by reading); None if it is gone."""
        typ, data = self._client().uid("FETCH", str(uid), "(BODY.PEEK[])")
        if typ != "OK":
            raise MailError(f"IMAP fetch of {uid} failed: {data!r}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2:
                return bytes(item[1])
        return None

    def messages(self) -> Iterator[tuple[int, bytes]]:
        """(uid, raw) of every mail not yet handled, oldest first."""
        for uid in self.pending():
            raw = self.fetch(uid)
            if raw is not None:
                yield uid, raw

    def mark_done(self, uid: int) -> None:
        """Flag mail ``uid`` handled and seen, and move it to the processed folder if set."""
        client = self._client()
        typ, data = client.uid("STORE", str(uid), "+FLAGS", f"({DONE} \\Seen)")
        if typ != "OK":
            raise MailError(f"IMAP store on {uid} failed: {data!r}")
        target = self.settings.processed_folder
        if target:
            client.create(_quote(target))  # fails harmlessly if it exists
            if self.can_move:
                client.uid("MOVE", str(uid), _quote(target))
            else:
                typ, _ = client.uid("COPY", str(uid), _quote(target))
                if typ == "OK":
                    client.uid("STORE", str(uid), "+FLAGS", "(\\Deleted)")
                    client.expunge()

    def append(self, raw: bytes, folder: str | None = None) -> None:
        """Put a mail into a folder (tests deliver mail this way)."""
        typ, data = self._client().append(_quote(folder or self.settings.folder), "", None, raw)
        if typ != "OK":
            raise MailError(f"IMAP append failed: {data!r}")


_ATOM = re.compile(r"^[A-Za-z0-9_.\-/]+$")


def _quote(name: str) -> str:
    return name if _ATOM.match(name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
