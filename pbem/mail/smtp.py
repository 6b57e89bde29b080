"""Sending mail through SMTP: one mail per recipient, report as the body, files attached."""

from __future__ import annotations

import hashlib
import smtplib
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate

from pbem.errors import PbemError
from pbem.mail.settings import MailSettings, Server


class MailError(PbemError):
    """A mail server refused us or could not be reached; retried on the next pass."""

    exit_code = 1


@dataclass(frozen=True)
class Outgoing:
    """One mail to one recipient.

    ``key`` identifies the mail across retries: its Message-ID derives from it, so a mail
    sent twice after a crash can be recognised as the same mail by the recipient's client.
    """

    to: str
    subject: str
    body: str
    key: str
    attachments: tuple[tuple[str, bytes], ...] = ()
    in_reply_to: str | None = None


def message_id(key: str, address: str) -> str:
    """The Message-ID of the mail with this key from this sender."""
    domain = address.rpartition("@")[2] or "pbem.invalid"
    return f"<pbem-{hashlib.sha256(key.encode()).hexdigest()[:32]}@{domain}>"


def build(settings: MailSettings, out: Outgoing, date: int) -> EmailMessage:
    """The EmailMessage for ``out``, dated ``date`` (seconds since the epoch, from the
    caller's clock): plain-text body, attachments as application/octet-stream (text/plain
    for ``.txt`` and ``.asc``, image/svg+xml for ``.svg``)."""
    msg = EmailMessage()
    msg["From"] = formataddr((_one_line(settings.name), settings.address))
    msg["To"] = out.to
    msg["Subject"] = _one_line(out.subject)
    msg["Message-ID"] = message_id(out.key, settings.address)
    msg["Date"] = formatdate(date, localtime=False)
    msg["Auto-Submitted"] = "auto-generated"
    reply = _one_line(out.in_reply_to or "")
    if reply.startswith("<") and reply.endswith(">") and " " not in reply and len(reply) <= 250:
        msg["In-Reply-To"] = reply
        msg["References"] = reply
    msg.set_content(out.body, subtype="plain", charset="utf-8")
    for name, data in out.attachments:
        lower = name.lower()
        if lower.endswith((".txt", ".asc", ".age", ".orders")):
            msg.add_attachment(data.decode("utf-8", errors="replace"), subtype="plain", filename=name)
        elif lower.endswith(".svg"):
            msg.add_attachment(data, maintype="image", subtype="svg+xml", filename=name)
        else:
            msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg


def _one_line(text: str) -> str:
    """``text`` without line breaks or other control characters (a header must be one line)."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:900]


def connect_smtp(server: Server) -> smtplib.SMTP:
    """An SMTP connection, secured and logged in as the settings say.  Raises MailError."""
    try:
        client: smtplib.SMTP
        if server.security == "ssl":
            client = smtplib.SMTP_SSL(
                server.host, server.port, timeout=server.timeout, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
            if server.security == "starttls":
                client.starttls(context=ssl.create_default_context())
        if server.user:
            client.login(server.user, server.password() or "")
        return client
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"cannot send through {server.host}:{server.port}: {exc}") from None


def send(settings: MailSettings, mails: Sequence[Outgoing], date: int) -> list[str]:
    """Send each mail, dated ``date`` (the caller's clock), to its one recipient over one
    connection; return the keys sent.

    A recipient the server refuses, or a queued mail that cannot be made into a message
    (an address no header can carry), is skipped: its key is not returned, so it stays
    queued and never stops the others.  A failed connection raises MailError.
    """
    if not mails:
        return []
    sent: list[str] = []
    client = connect_smtp(settings.smtp)
    try:
        for out in mails:
            try:
                message = build(settings, out, date)
            except Exception:  # the mail code's failures on a strange address or name
                continue
            try:
                client.send_message(message, from_addr=settings.address, to_addrs=[out.to])
            except (smtplib.SMTPRecipientsRefused, smtplib.SMTPNotSupportedError, UnicodeError, ValueError):
                continue  # this mail only: an address the server refuses or cannot carry
            except smtplib.SMTPDataError as exc:
                if 500 <= exc.smtp_code < 600:
                    continue  # refused for good (too large, say): the others still go
                raise MailError(f"sending to {out.to} failed: {exc}") from None
            except (smtplib.SMTPException, OSError) as exc:
                raise MailError(f"sending to {out.to} failed: {exc}") from None
            sent.append(out.key)
    finally:
        try:
            client.quit()
        except (OSError, smtplib.SMTPException):
            client.close()
    return sent
