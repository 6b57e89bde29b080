"""Real mail servers on 127.0.0.1 for tests: aiosmtpd (SMTP) and Debian's Dovecot (IMAP).

Dovecot runs in the foreground with its own configuration, base and state folders; its
Maildirs live in a folder that is not mode 0700 (Dovecot drops privileges to its own user).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class SmtpServer:
    """aiosmtpd on 127.0.0.1 that keeps every mail it receives, with AUTH PLAIN/LOGIN."""

    port: int
    user: str
    password: str
    received: list[tuple[list[str], bytes]] = field(default_factory=list)
    controller: Any = None
    deliver: Any = None
    """Optional callable(recipients, data): hand each received mail on (e.g. into IMAP)."""

    def messages(self, to: str | None = None) -> list[EmailMessage]:
        out = []
        for rcpts, data in self.received:
            if to is None or to in rcpts:
                msg = message_from_bytes(data, policy=policy.default)
                assert isinstance(msg, EmailMessage)
                out.append(msg)
        return out

    def clear(self) -> None:
        self.received.clear()


def start_smtp(user: str = "judge", password: str = "smtp-secret") -> SmtpServer:
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    server = SmtpServer(port=free_port(), user=user, password=password)

    class Handler:
        async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
            rcpts, data = list(envelope.rcpt_tos), bytes(envelope.original_content)
            server.received.append((rcpts, data))
            if server.deliver is not None:
                server.deliver(rcpts, data)
            return "250 OK"

    def authenticator(smtp: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        if isinstance(auth_data, LoginPassword) and (
            auth_data.login.decode() == user and auth_data.password.decode() == password
        ):
            return AuthResult(success=True)
        return AuthResult(success=False, handled=False)

    controller = Controller(
        Handler(),
        hostname="127.0.0.1",
        port=server.port,
        authenticator=authenticator,
        auth_require_tls=False,
    )
    controller.start()
    server.controller = controller
    return server


DOVECOT_CONF = """
protocols = imap
listen = 127.0.0.1
base_dir = {base}/run
state_dir = {base}/state
instance_name = pbem-test-{port}
log_path = {base}/dovecot.log
info_log_path = {base}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:{base}/mail/%u
mail_uid = {uid}
mail_gid = {gid}
first_valid_uid = 0
first_valid_gid = 0
default_internal_user = dovecot
default_login_user = dovenull
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {base}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={base}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


@dataclass
class ImapServer:
    port: int
    base: Path
    users: dict[str, str]
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.base, ignore_errors=True)


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)


def start_imap(users: dict[str, str]) -> ImapServer:
    import pwd

    binary = dovecot_binary()
    assert binary, "dovecot is not installed"
    entry = pwd.getpwnam("dovecot")
    uid, gid = entry.pw_uid, entry.pw_gid
    # Not pytest's tmp_path: Dovecot's user must be able to reach the Maildir.
    base = Path(
        tempfile.mkdtemp(prefix="pbem-dovecot-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None)
    )
    os.chmod(base, 0o755)
    for sub in ("run", "state", "mail"):
        (base / sub).mkdir()
    os.chmod(base / "mail", 0o755)
    if os.geteuid() == 0:
        os.chown(base / "mail", uid, gid)
    else:
        uid, gid = os.getuid(), os.getgid()
    (base / "users").write_text("".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in users.items()))
    port = free_port()
    conf = base / "dovecot.conf"
    conf.write_text(DOVECOT_CONF.format(base=base, port=port, uid=uid, gid=gid))
    process = subprocess.Popen(
        [binary, "-F", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = (base / "dovecot.log").read_text() if (base / "dovecot.log").exists() else ""
            err = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"dovecot exited: {err}\n{log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
                if sock.recv(100).startswith(b"* OK"):
                    break
        except OSError:
            time.sleep(0.02)
    else:
        process.kill()
        raise RuntimeError("dovecot did not start listening")
    return ImapServer(port=port, base=base, users=users, process=process)


MODERATOR_TOML = """
[moderator]
settle = 0

[mail]
address = "judge@example.org"
name = "pbem test judge"
processed_folder = "processed"

[mail.imap]
host = "127.0.0.1"
port = {imap}
security = "none"
user = "judge"
password_env = "PBEM_TEST_IMAP_PW"

[mail.smtp]
host = "127.0.0.1"
port = {smtp}
security = "none"
user = "judge"
password_env = "PBEM_TEST_SMTP_PW"
"""


def write_mail_config(root: Path, names: tuple[str, ...], imap: ImapServer, smtp: SmtpServer) -> None:
    """The moderator root's mail settings for these servers (settle 0), and each player's
    address (``NAME@example.org``) in ``root/game/moderator.toml``."""
    (root / "moderator.toml").write_text(
        MODERATOR_TOML.format(imap=imap.port, smtp=smtp.port), encoding="utf-8"
    )
    players = "\n".join(f'[players.{n}]\nemail = "{n}@example.org"\n' for n in names)
    (root / "game" / "moderator.toml").write_text(players, encoding="utf-8")
