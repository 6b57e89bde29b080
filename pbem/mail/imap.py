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
QUARANTINED = "$PbemQuarantined"
_UID = re.compile(rb"\bUID (\d{1,10})\b")
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d{1,15})\b")


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

    def _uid(self, command: str, *args: str) -> tuple[str, list[object]]:
        """One UID command; a dropped connection or a protocol error becomes MailError."""
        try:
            typ, data = self._client().uid(command, *args)
        except (OSError, imaplib.IMAP4.error) as exc:
            server = self.settings.imap
            raise MailError(f"IMAP {command} on {server.host}:{server.port} failed: {exc}") from None
        return typ, list(data)

    def pending(self) -> list[int]:
        """UIDs of mails not yet marked handled, oldest first.  Raises MailError."""
        typ, data = self._uid("SEARCH", "UNKEYWORD", DONE)
        if typ != "OK":
            raise MailError(f"IMAP search failed: {_shown(data)}")
        words = b" ".join(x for x in data if isinstance(x, bytes)).split()
        return sorted(int(x) for x in words if x.isdigit() and len(x) <= 10)

    def sizes(self, uids: list[int]) -> dict[int, int]:
        """The size in bytes (RFC822.SIZE) of each mail in ``uids``, asked in one command,
        so a huge mail is refused before a byte of it is downloaded.  A mail the server
        does not report on is left out.  Raises MailError."""
        out: dict[int, int] = {}
        for start in range(0, len(uids), 200):
            chunk = ",".join(map(str, uids[start : start + 200]))
            typ, data = self._uid("FETCH", chunk, "(RFC822.SIZE)")
            if typ != "OK":
                raise MailError(f"IMAP fetch of sizes failed: {_shown(data)}")
            out.update(_sizes(data))
        return out

    def fetch(self, uid: int) -> bytes | None:
        """The raw bytes of mail ``uid`` (not marked seen by reading); None if it is gone."""
        return self._fetch(uid, "BODY.PEEK[]")

    def fetch_head(self, uid: int, limit: int) -> bytes | None:
        """At most ``limit`` bytes of the header section of mail ``uid``; None if it is gone."""
        return self._fetch(uid, f"BODY.PEEK[HEADER]<0.{limit}>")

    def _fetch(self, uid: int, what: str) -> bytes | None:
        typ, data = self._uid("FETCH", str(uid), f"({what})")
        if typ != "OK":
            raise MailError(f"IMAP fetch of {uid} failed: {_shown(data)}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return bytes(item[1])
        return None

    def messages(self) -> Iterator[tuple[int, bytes]]:
        """(uid, raw) of every mail not yet handled, oldest first (no size check)."""
        for uid in self.pending():
            raw = self.fetch(uid)
            if raw is not None:
                yield uid, raw

    def mark_done(self, uid: int, quarantined: bool = False) -> None:
        """Flag mail ``uid`` handled and seen, and move it to the processed folder if set.

        A quarantined mail (one that was not read, or from which nothing was used) also
        gets the keyword ``$PbemQuarantined`` and goes to the quarantine folder if one is
        set (else where handled mails go).  Raises MailError if the flags cannot be set; a
        failed move leaves the flagged mail where it is."""
        client = self._client()
        flags = f"({DONE} {QUARANTINED} \\Seen)" if quarantined else f"({DONE} \\Seen)"
        typ, data = self._uid("STORE", str(uid), "+FLAGS", flags)
        if typ != "OK":
            raise MailError(f"IMAP store on {uid} failed: {_shown(data)}")
        target = self.settings.processed_folder
        if quarantined and self.settings.quarantine_folder:
            target = self.settings.quarantine_folder
        if not target:
            return
        try:
            client.create(_quote(target))  # fails harmlessly if it exists
            if self.can_move:
                client.uid("MOVE", str(uid), _quote(target))
            else:
                typ, _ = client.uid("COPY", str(uid), _quote(target))
                if typ == "OK":
                    client.uid("STORE", str(uid), "+FLAGS", "(\\Deleted)")
                    client.expunge()
        except (OSError, imaplib.IMAP4.error):
            return  # flagged handled: it will not be read again, wherever it stays

    def append(self, raw: bytes, folder: str | None = None) -> None:
        """Put a mail into a folder (tests deliver mail this way)."""
        typ, data = self._client().append(_quote(folder or self.settings.folder), "", None, raw)
        if typ != "OK":
            raise MailError(f"IMAP append failed: {data!r}")


_ATOM = re.compile(r"^[A-Za-z0-9_.\-/]+$")


def _sizes(data: list[object]) -> dict[int, int]:
    """UID and RFC822.SIZE pairs from a FETCH answer."""
    out: dict[int, int] = {}
    for item in data:
        line = item[0] if isinstance(item, tuple) else item
        if not isinstance(line, bytes):
            continue
        uid, size = _UID.search(line), _SIZE.search(line)
        if uid and size:
            out[int(uid.group(1))] = int(size.group(1))
    return out


def _shown(data: object) -> str:
    """A server's answer, shortened for an error message."""
    text = repr(data)
    return text if len(text) <= 200 else text[:200] + "..."


def _quote(name: str) -> str:
    return name if _ATOM.match(name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
