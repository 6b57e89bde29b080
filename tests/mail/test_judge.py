"""The email judge against real servers: aiosmtpd for SMTP, Dovecot for IMAP.

Every mail the SMTP server accepts is delivered into its recipients' Dovecot mailboxes,
so mail really goes round: judge -> SMTP -> player's IMAP inbox -> player's reply ->
SMTP -> judge's IMAP inbox -> judge.  Players use nothing but a mail client and pbem's
player functions (read the report, write orders, sign them).
"""

from __future__ import annotations

import imaplib
import smtplib
from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.mail.imap import Mailbox
from pbem.mail.settings import mail_settings
from pbem.moderator.config import read_toml
from pbem.moderator.core import Moderator
from pbem.moderator.judge import Judge
from pbem.player import bot_orders, order_form, sign_orders
from pbem.reports import parse_report
from pbem.rng import Rng
from pbem.timing import FixedClock

from .mailservers import ImapServer, SmtpServer, write_mail_config

pytestmark = pytest.mark.mail

NAMES = ("alice", "bob", "carol")
T0 = 1_800_000_000


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game files' fsync is not what these tests check (see tests/moderator/test_durable.py)."""
    monkeypatch.setattr("os.fsync", lambda fd: None)


@pytest.fixture
def post_office(smtp: SmtpServer, imap_server: ImapServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Deliver every mail the SMTP server takes into its recipients' IMAP inboxes."""

    def deliver(rcpts: list[str], data: bytes) -> None:
        for rcpt in rcpts:
            user = rcpt.split("@")[0].lower()
            if user in imap_server.users:
                client = imaplib.IMAP4("127.0.0.1", imap_server.port)
                client.login(user, imap_server.users[user])
                client.append("INBOX", "", None, data)
                client.logout()

    def purge() -> None:
        for user, password in imap_server.users.items():
            client = imaplib.IMAP4("127.0.0.1", imap_server.port)
            client.login(user, password)
            for folder in ("INBOX", "processed"):
                typ, count = client.select(folder)
                if typ == "OK" and int(count[0] or 0):
                    client.store("1:*", "+FLAGS", "(\\Deleted)")
                    client.expunge()
            client.logout()

    purge()
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap_server.users["judge"])
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", smtp.password)
    smtp.deliver = deliver
    yield
    smtp.deliver = None


class MailPlayer:
    """A player with a mail client (IMAP to read, SMTP to send) and pbem."""

    def __init__(self, identity: Identity, imap: ImapServer, smtp: SmtpServer) -> None:
        self.identity = identity
        self.name = identity.name
        self.address = f"{self.name}@example.org"
        self.imap, self.smtp = imap, smtp

    def new_mail(self) -> list[EmailMessage]:
        client = imaplib.IMAP4("127.0.0.1", self.imap.port)
        client.login(self.name, self.imap.users[self.name])
        client.select("INBOX")
        _, data = client.uid("SEARCH", "UNSEEN")
        out = []
        for uid in (data[0] or b"").decode("ascii").split():
            _, parts = client.uid("FETCH", uid, "(RFC822)")
            raw = next(p[1] for p in parts if isinstance(p, tuple))
            msg = message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        client.logout()
        return out

    def send(self, msg: EmailMessage, sender: str | None = None) -> None:
        msg["From"] = sender or self.address
        msg["To"] = "judge@example.org"
        with smtplib.SMTP("127.0.0.1", self.smtp.port) as client:
            client.send_message(msg)


def _report_of(msg: EmailMessage) -> tuple[str, str] | None:
    for part in msg.iter_attachments():
        name = part.get_filename() or ""
        if name.endswith(".txt") and "-turn-" in name:
            return part.get_content(), name
    return None


def _root(tmp_path: Path, smtp: SmtpServer, imap: ImapServer, keys: dict[str, Identity]) -> Path:
    root = tmp_path / "root"
    GameFolder.create(
        root / "game",
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in NAMES],
        {"dealer": "last-seat"},
        now=datetime.fromtimestamp(T0, UTC),
        home=tmp_path / "create-home",
    )
    write_mail_config(root, NAMES, imap, smtp)
    return root


def _judge(root: Path, keys: dict[str, Identity], tmp_path: Path) -> Judge:
    settings = mail_settings(read_toml(root / "moderator.toml"), shared_root=root)
    moderator = Moderator(
        root, keys["moderator"], clock=FixedClock(T0 + 60), state_dir=tmp_path / "state", mail=True
    )
    return Judge(moderator, settings)


@pytest.fixture(scope="module")
def keys() -> dict[str, Identity]:
    return {n: Identity.generate(n) for n in ("moderator", *NAMES, "mallory")}


def _with_the_cli(player: MailPlayer, report_text: str, lines: list[str], workdir: Path) -> str:
    """What a person does with the report attachment: pbem read, orders, check, sign."""
    from click.testing import CliRunner

    from pbem.cli import main

    workdir.mkdir(parents=True, exist_ok=True)
    key, report = workdir / f"{player.name}.key", workdir / "report.txt"
    if not key.exists():
        player.identity.save(key)
    report.write_text(report_text, encoding="utf-8")
    runner = CliRunner()

    def pbem(*args: str) -> str:
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    assert "turn" in pbem("read", str(report), "--key", str(key))
    pbem("orders", str(report), "--key", str(key), "-o", str(workdir / "form.txt"))
    form = (workdir / "form.txt").read_text(encoding="utf-8").splitlines()
    head = form[: next(i for i, line in enumerate(form) if line.startswith("Seal-To:")) + 1]
    (workdir / "orders.txt").write_text("\n".join([*head, "", *lines]) + "\n", encoding="utf-8")
    pbem("check", str(workdir / "orders.txt"), "--key", str(key), "--report", str(report))
    pbem("sign", str(workdir / "orders.txt"), "--key", str(key), "-o", str(workdir / "signed.txt"))
    return (workdir / "signed.txt").read_text(encoding="utf-8")


def _orders_mail(
    player: MailPlayer, report_text: str, source: str, style: int, seed: int, workdir: Path | None = None
) -> EmailMessage:
    report = parse_report(report_text, source, player.identity)
    lines = bot_orders(report, "greedy", Rng(f"mail-game/{seed}/{player.name}".encode()))
    if style == 1 and workdir is not None:  # the whole way through the pbem command line
        msg = EmailMessage()
        msg["Subject"] = f"Re: turn {report.data['turn']}"
        msg.set_content("orders attached")
        msg.add_attachment(_with_the_cli(player, report_text, lines, workdir), filename="signed.txt")
        return msg
    form = order_form(report_text, source, player.identity).splitlines()
    head = form[: next(i for i, line in enumerate(form) if line.startswith("Seal-To:")) + 1]
    text = "\n".join([*head, "", *lines]) + "\n"  # the form's headers, then the bot's orders
    signed = sign_orders(text, source, player.identity, seal_orders=style != 2)
    msg = EmailMessage()
    msg["Subject"] = f"Re: turn {report.data['turn']}"
    if style == 0:  # a reply: orders on top, the report quoted below
        quoted = "".join(f"> {line}\n" for line in report_text.splitlines()[:20])
        msg.set_content(f"Here are my orders.\n\n{signed}\nOn Monday the judge wrote:\n{quoted}")
    elif style == 1:  # the signed file attached
        msg.set_content("orders attached")
        msg.add_attachment(signed, filename="orders.txt")
    else:  # an unsealed signed block pasted into the body
        msg.set_content(signed)
    return msg


def test_a_whole_symbiote_game_by_mail(
    post_office: None, smtp: SmtpServer, imap_server: ImapServer, keys: dict[str, Identity], tmp_path: Path
) -> None:
    root = _root(tmp_path, smtp, imap_server, keys)
    judge = _judge(root, keys, tmp_path)
    players = {n: MailPlayer(keys[n], imap_server, smtp) for n in NAMES}
    folder = GameFolder(root / "game")
    orders_sent = 0
    for step in range(600):
        judge.run_once()
        if folder.read().body["outcome"] is not None:
            break
        for index, player in enumerate(players.values()):
            for msg in player.new_mail():
                found = _report_of(msg)
                if found is None:
                    assert "ACCEPTED" in msg.get_content() or "report" not in msg["Subject"], msg["Subject"]
                    continue
                text, source = found
                report = parse_report(text, source, player.identity)
                if player.name in report.data["awaiting"] and report.data["turn"] == folder.read().turn:
                    style = (index + step) % 3
                    player.send(_orders_mail(player, text, source, style, step, tmp_path / player.name))
                    orders_sent += 1
    save = folder.read()
    assert save.body["outcome"] is not None, f"the game did not end (turn {save.turn})"
    judge.run_once()
    finals = [m for m in players["alice"].new_mail() if "final report" in str(m["Subject"])]
    assert finals, "the final report reached the players by mail"
    assert orders_sent >= save.turn - 1
    recipients = [tuple(r) for r, _ in smtp.received if not r[0].startswith("judge")]
    assert all(len(r) == 1 for r in recipients), "one mail per recipient"
    assert not judge.moderator.outbox.pending()  # type: ignore[union-attr]


def test_mail_problems_get_clear_answers(
    post_office: None, smtp: SmtpServer, imap_server: ImapServer, keys: dict[str, Identity], tmp_path: Path
) -> None:
    root = _root(tmp_path, smtp, imap_server, keys)
    judge = _judge(root, keys, tmp_path)
    judge.run_once()
    players = {n: MailPlayer(keys[n], imap_server, smtp) for n in NAMES}
    alice = players["alice"]
    [report_mail] = [m for m in alice.new_mail() if _report_of(m)]
    text, source = _report_of(report_mail)  # type: ignore[misc]
    for p in ("bob", "carol"):
        players[p].new_mail()
    # 1. HTML only, no block: asked to send plain text, at the From address.
    html = EmailMessage()
    html["Subject"] = "my orders"
    html.set_content("<p>take, then discard the 7</p>", subtype="html")
    alice.send(html)
    # 2. Orders signed by alice but sent with bob's From header: the answer goes to alice.
    forged_from = _orders_mail(alice, text, source, 2, 1)
    alice.send(forged_from, sender="bob@example.org")
    judge.run_once()
    alice_mail = alice.new_mail()

    def text_of(m: EmailMessage) -> str:
        if not m.is_multipart():
            return m.get_content()
        body = m.get_body(("plain",))
        assert body is not None
        return body.get_content()

    bodies = "\n".join(text_of(m) for m in alice_mail)
    assert "plain text" in bodies, "the HTML-only mail is answered"
    assert "ACCEPTED" in bodies, "the signature, not the From header, decides who sent the orders"
    bob_mail = players["bob"].new_mail()
    assert not any("ACCEPTED" in str(m) for m in bob_mail), "nothing about alice's orders goes to bob"
    # 3. The same orders mailed again: a clear 'already accepted' (or 'too late') answer.
    alice.send(_orders_mail(alice, text, source, 2, 1))
    judge.run_once()
    again = "\n".join(str(m) for m in alice.new_mail())
    assert "already accepted" in again or "too late" in again
    # 4. Orders for a game this judge does not run.
    stranger = EmailMessage()
    stranger["Subject"] = "orders"
    stranger.set_content(
        _orders_mail(alice, text, source, 2, 1)
        .get_content()
        .replace(report_mail_game_id(text, alice.identity, source), "0000000000000000")
    )
    players["carol"].send(stranger)
    judge.run_once()
    carol = "\n".join(str(m) for m in players["carol"].new_mail())
    assert "name no game" in carol or "signature" in carol


def report_mail_game_id(text: str, identity: Identity, source: str) -> str:
    return str(parse_report(text, source, identity).data["game_id"])


def test_intake_is_idempotent_across_a_crash(
    post_office: None, smtp: SmtpServer, imap_server: ImapServer, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """A crash after the journal but before the server flag, or after the inbox file but
    before the journal, makes the judge see the mail again and do nothing twice."""
    root = _root(tmp_path, smtp, imap_server, keys)
    judge = _judge(root, keys, tmp_path)
    judge.run_once()
    alice = MailPlayer(keys["alice"], imap_server, smtp)
    [report_mail] = [m for m in alice.new_mail() if _report_of(m)]
    text, source = _report_of(report_mail)  # type: ignore[misc]
    alice.send(_orders_mail(alice, text, source, 1, 0))
    # Crash after the inbox file was written, before the journal: forget the journal.
    first = judge.intake()
    assert first.blocks == 1
    [dropped] = (root / "game" / "inbox" / "_mail").iterdir()
    judge.journal_path.unlink()
    client = imaplib.IMAP4("127.0.0.1", imap_server.port)
    client.login("judge", imap_server.users["judge"])
    client.select("processed")
    _, uids = client.uid("SEARCH", "ALL")
    for uid in (uids[0] or b"").decode("ascii").split():  # put the mail back as if it had never been flagged
        client.uid("COPY", uid, "INBOX")
    client.select("INBOX")
    _, uids = client.uid("SEARCH", "ALL")
    for uid in (uids[0] or b"").decode("ascii").split():
        client.uid("STORE", uid, "-FLAGS", "($PbemDone)")
    client.logout()
    again = judge.intake()
    assert again.mails == 1 and list((root / "game" / "inbox" / "_mail").iterdir()) == [dropped]
    # The very same mail delivered once more (a new UID): the same inbox file, nothing new.
    client = imaplib.IMAP4("127.0.0.1", imap_server.port)
    client.login("judge", imap_server.users["judge"])
    client.select("processed")
    _, uids = client.uid("SEARCH", "ALL")
    client.uid("COPY", (uids[0] or b"").decode("ascii").split()[-1], "INBOX")
    client.select("INBOX")
    _, uids = client.uid("SEARCH", "ALL")
    for uid in (uids[0] or b"").decode("ascii").split():
        client.uid("STORE", uid, "-FLAGS", "($PbemDone)")
    client.logout()
    third = judge.intake()
    assert third.mails == 1 and third.blocks == 1
    assert list((root / "game" / "inbox" / "_mail").iterdir()) == [dropped]
    _, result, _ = judge.run_once()
    assert result.games[0].notices == ("accepted",)
    with Mailbox(judge.settings) as box:
        assert box.pending() == []


def test_one_mail_with_orders_for_two_games(
    post_office: None, smtp: SmtpServer, imap_server: ImapServer, keys: dict[str, Identity], tmp_path: Path
) -> None:
    root = _root(tmp_path, smtp, imap_server, keys)
    GameFolder.create(
        root / "second",
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in NAMES],
        {"dealer": "last-seat"},
        now=datetime.fromtimestamp(T0, UTC),
        home=tmp_path / "create-home",
    )
    (root / "second" / "moderator.toml").write_text((root / "game" / "moderator.toml").read_text())
    judge = _judge(root, keys, tmp_path)
    judge.run_once()
    alice = MailPlayer(keys["alice"], imap_server, smtp)
    reports = [found for m in alice.new_mail() if (found := _report_of(m))]
    assert len(reports) == 2
    blocks = [_orders_mail(alice, text, source, 2, 0).get_content() for text, source in reports]
    both = EmailMessage()
    both["Subject"] = "orders for both games"
    both.set_content("First game:\n" + blocks[0] + "\nSecond game:\n" + blocks[1])
    alice.send(both)
    intake, result, _ = judge.run_once()
    assert intake.blocks == 2
    assert sorted(g.notices for g in result.games) == [("accepted",), ("accepted",)]
    assert all(g.advanced == 1 for g in result.games)
