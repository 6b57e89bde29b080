"""Mail server settings from the TOML config, and passwords from outside the shared folder.

A password is never written in the config (which may sit in a shared folder every player can
read): it comes from an environment variable (``password_env``) or from a file
(``password_file``) that must lie outside the shared root.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import UsageError

SECURITY = ("ssl", "starttls", "none")


@dataclass(frozen=True)
class Server:
    """One mail server: where, how to secure the connection, and who we log in as."""

    host: str
    port: int
    security: str = "ssl"
    user: str | None = None
    password_env: str | None = None
    password_file: str | None = None
    timeout: int = 30

    def password(self) -> str | None:
        """The login password, read now from the environment or the password file.

        Raises UsageError if the variable is unset or the file cannot be read.
        """
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value is None:
                raise UsageError(
                    f"the environment variable {self.password_env} (password for {self.host}) is not set",
                    hint=f"export {self.password_env}=... before starting the judge",
                )
            return value
        if self.password_file:
            try:
                return Path(self.password_file).read_text(encoding="utf-8").strip("\r\n")
            except OSError as exc:
                raise UsageError(f"cannot read the password file for {self.host}: {exc.strerror}") from None
        return None


@dataclass(frozen=True)
class MailSettings:
    """The judge's address and its two servers."""

    address: str
    name: str
    imap: Server
    smtp: Server
    folder: str = "INBOX"
    processed_folder: str | None = None
    """Move handled mails here (created if missing); None: only flag them."""
    quarantine_folder: str | None = None
    """Move mails that were not read or not used here (created if missing); None: treat
    them as handled mails.  Either way they carry the keyword ``$PbemQuarantined``."""
    answer_unsigned: bool = True
    """Answer mails whose orders carry no valid signature, to their From address (no game facts)."""


def _server(
    table: Mapping[str, Any], what: str, default_port: dict[str, int], shared_root: Path | None
) -> Server:
    known = {"host", "port", "security", "user", "password_env", "password_file", "timeout", "password"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise UsageError(f"[{what}]: unknown setting(s) {', '.join(unknown)}")
    if "password" in table:
        raise UsageError(
            f"[{what}]: a password must not be written in the config",
            hint="use password_env = 'VARIABLE' or password_file = '/path/outside/the/shared/folder'",
        )
    host = table.get("host")
    if not isinstance(host, str) or not host:
        raise UsageError(f"[{what}]: host is required")
    security = str(table.get("security", "ssl")).lower()
    if security not in SECURITY:
        raise UsageError(f"[{what}] security: expected one of {', '.join(SECURITY)}, got {security!r}")
    port = table.get("port", default_port[security])
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise UsageError(f"[{what}] port: expected a port number, got {port!r}")
    password_file = table.get("password_file")
    if password_file is not None:
        resolved = Path(password_file).expanduser().resolve()
        if shared_root is not None and resolved.is_relative_to(shared_root.resolve()):
            raise UsageError(
                f"[{what}] password_file lies inside the shared folder, where players could read it",
                hint="keep it on the moderator's own disk, outside the shared folder",
            )
        password_file = str(resolved)
    timeout = table.get("timeout", 30)
    if isinstance(timeout, bool) or not isinstance(timeout, int) or timeout <= 0:
        raise UsageError(f"[{what}] timeout: expected whole seconds > 0")
    return Server(
        host=host,
        port=port,
        security=security,
        user=table.get("user"),
        password_env=table.get("password_env"),
        password_file=password_file,
        timeout=timeout,
    )


def _folder(table: Mapping[str, Any], key: str) -> str | None:
    """A mailbox folder name from ``[mail]``: text without control characters, or None."""
    value = table.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise UsageError(
            f"[mail] {key}: expected a folder name (text of at most 200 characters, no control "
            f"characters), got {str(value)[:60]!r}"
        )
    return value


def mail_settings(config: Mapping[str, Any], shared_root: Path | None = None) -> MailSettings:
    """Read the ``[mail]`` table (with ``[mail.imap]`` and ``[mail.smtp]``) of a parsed config.

    Raises UsageError naming the setting that is missing or wrong.
    """
    table = config.get("mail")
    if not isinstance(table, Mapping):
        raise UsageError("the config has no [mail] table", hint="see docs/moderating.md, 'Email judge'")
    address = table.get("address")
    if not isinstance(address, str) or "@" not in address:
        raise UsageError("[mail] address: the judge's own mail address is required")
    imap = _server(
        table.get("imap", {}), "mail.imap", {"ssl": 993, "starttls": 143, "none": 143}, shared_root
    )
    smtp = _server(table.get("smtp", {}), "mail.smtp", {"ssl": 465, "starttls": 587, "none": 25}, shared_root)
    folder = _folder(table, "folder") or "INBOX"
    processed = _folder(table, "processed_folder")
    quarantine = _folder(table, "quarantine_folder")
    return MailSettings(
        address=address,
        name=str(table.get("name", "pbem judge")),
        imap=imap,
        smtp=smtp,
        folder=folder,
        processed_folder=processed,
        quarantine_folder=quarantine,
        answer_unsigned=bool(table.get("answer_unsigned", True)),
    )
