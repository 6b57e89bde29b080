"""Handing things to players: files in their own folder and, for the judge, mail.

Every notice, receipt, reminder and report goes to ``<game>/players/<name>/`` (a folder only
that player and the moderator need to read) and, when mail is on and the player has an
address, into the moderator's local outbox.  Both steps are idempotent by name, so a
restarted moderator repeats them without sending anything twice; the outbox is flushed
through SMTP separately (a crash between the SMTP answer and the removal of the outbox
entry resends that one mail, with the same Message-ID).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.moderator.durable import remove, write_atomic, write_once
from pbem.wording import wrap_text

if TYPE_CHECKING:  # smtplib, ssl and email load only when mail is sent
    from pbem.mail.smtp import Outgoing

PLAYERS_DIR = "players"
INBOX_DIR = "inbox"
MAIL_FOLDER = "_mail"
NOTICES_DIR = "notices"
"""The inbox sub-folder the judge drops mailed order blocks into."""


def _queued_mail(raw: bytes) -> Outgoing | None:
    """The mail in one outbox entry, or None if the entry is damaged."""
    from pbem.mail.smtp import Outgoing

    try:
        data = json.loads(raw)
        texts = [data[k] for k in ("to", "subject", "body", "key")]
        reply = data.get("in_reply_to")
        if not all(isinstance(t, str) for t in texts) or not (reply is None or isinstance(reply, str)):
            return None
        attachments = tuple((n, base64.b64decode(d, validate=True)) for n, d in data["attachments"])
        if not all(isinstance(n, str) for n, _ in attachments):
            return None
    except (ValueError, TypeError, KeyError, RecursionError, binascii.Error):
        return None
    return Outgoing(texts[0], texts[1], texts[2], texts[3], attachments, reply)


class Outbox:
    """Mails waiting to be sent, one JSON file each, on the moderator's local disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha256(key.encode()).hexdigest()[:40]}.json"

    def enqueue(self, mail: Outgoing) -> bool:
        """Queue ``mail`` unless a mail with its key was queued before; True if queued now."""
        sent_marker = self.folder / "sent" / self._path(mail.key).name
        if sent_marker.exists():
            return False
        data = {
            "to": mail.to,
            "subject": mail.subject,
            "body": mail.body,
            "key": mail.key,
            "in_reply_to": mail.in_reply_to,
            "attachments": [[n, base64.b64encode(d).decode()] for n, d in mail.attachments],
        }
        return write_once(self._path(mail.key), json.dumps(data, sort_keys=True))

    def pending(self) -> list[tuple[Path, Outgoing]]:
        """Queued mails, oldest first.  An entry that cannot be read as a queued mail
        (damaged, truncated, wrong types) is moved to ``damaged/`` and skipped, so one bad
        entry never stops the others from being sent."""
        out = []
        try:
            entries = sorted(
                (
                    e
                    for e in os.scandir(self.folder)
                    if e.is_file(follow_symlinks=False) and e.name.endswith(".json")
                ),
                key=lambda e: (e.stat(follow_symlinks=False).st_mtime_ns, e.name),
            )
        except OSError:
            return []
        for entry in entries:
            path = Path(entry.path)
            try:
                mail = _queued_mail(path.read_bytes())
            except OSError:
                continue
            if mail is None:
                with contextlib.suppress(OSError):
                    (self.folder / "damaged").mkdir(exist_ok=True)
                    os.replace(path, self.folder / "damaged" / path.name)
                continue
            out.append((path, mail))
        return out

    def mark_sent(self, path: Path) -> None:
        """Remember a mail as sent (so it is never queued again) and drop it from the queue."""
        write_once(self.folder / "sent" / path.name, b"")
        remove(path)


@dataclass
class Post:
    """Delivery for one game: player folders, plus mail when an outbox is given."""

    game_dir: Path
    game_id: str
    outbox: Outbox | None = None
    emails: dict[str, str] | None = None

    def folder_of(self, name: str) -> Path:
        return self.game_dir / PLAYERS_DIR / name

    def email_of(self, name: str) -> str | None:
        return None if self.emails is None else self.emails.get(name.lower())

    def put(
        self,
        name: str,
        filename: str,
        text: str,
        subject: str,
        *,
        attachments: Sequence[tuple[str, bytes]] = (),
        overwrite: bool = False,
        mail_key: str | None = None,
    ) -> None:
        """Give ``text`` to player ``name``: as a file in their folder and, if they have an
        address and mail is on, as a mail with ``attachments``.  Lines are folded for mail
        (pbem.wording.wrap_text: a no-op on reports, whose lines already fit)."""
        text = wrap_text(text)
        path = self.folder_of(name) / filename
        if overwrite:
            write_atomic(path, text)
        else:
            write_once(path, text)
        self._queue(name, filename, text, subject, attachments, mail_key)

    def mails(self, name: str) -> bool:
        """True if what player ``name`` is given is also mailed (mail on, an address known)."""
        return self.outbox is not None and bool(self.email_of(name))

    def mail(
        self,
        name: str,
        filename: str,
        text: str,
        subject: str,
        *,
        attachments: Sequence[tuple[str, bytes]] = (),
        mail_key: str | None = None,
    ) -> None:
        """Queue ``text`` for player ``name`` as a mail, if :meth:`mails` (idempotent by
        ``mail_key``, by default the game, player and ``filename``).  Lines are folded for
        mail as in :meth:`put`."""
        if self.mails(name):
            self._queue(name, filename, wrap_text(text), subject, attachments, mail_key)

    def _queue(
        self,
        name: str,
        filename: str,
        text: str,
        subject: str,
        attachments: Sequence[tuple[str, bytes]],
        mail_key: str | None,
    ) -> None:
        address = self.email_of(name)
        if self.outbox is not None and address:
            key = mail_key or f"{self.game_id}/{name}/{filename}"
            from pbem.mail.smtp import Outgoing

            self.outbox.enqueue(Outgoing(address, subject, text, key, tuple(attachments)))

    def mail_only(self, address: str, subject: str, text: str, key: str, in_reply_to: str | None) -> None:
        """Answer an address directly (a mail whose sender the signature could not tell)."""
        if self.outbox is not None:
            from pbem.mail.smtp import Outgoing

            self.outbox.enqueue(Outgoing(address, subject, wrap_text(text), key, (), in_reply_to))
