"""A game played by mail through real servers (aiosmtpd for SMTP, Dovecot for IMAP), with
press between the bots: every player mails orders and press to the judge, the judge relays
each message as one mail per recipient, recipients read and check them with nothing but
their mail and pbem, and each report lists the press its player received.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from mail.conftest import imap_server, smtp, smtp_server  # noqa: F401  (the real servers)
from mail.mailservers import ImapServer, SmtpServer, write_mail_config
from mail.test_judge import MailPlayer, _judge, _orders_mail, _report_of, post_office  # noqa: F401

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.press.read import read_letter
from pbem.press.rules import ALL, PressRules, write_rules
from pbem.press.say import compose
from pbem.reports import parse_report

pytestmark = pytest.mark.mail

NAMES = ("alice", "bob", "carol")
T0 = 1_800_000_000


@pytest.fixture(scope="module")
def keys() -> dict[str, Identity]:
    return {n: Identity.generate(n) for n in ("moderator", *NAMES)}


def _root(tmp_path: Path, outgoing: SmtpServer, imap: ImapServer, keys: dict[str, Identity]) -> Path:
    root = tmp_path / "root"
    folder = GameFolder.create(
        root / "game",
        "jovian-syzygy",
        keys["moderator"],
        [keys[n].public() for n in NAMES],
        {"max-rounds": 3, "corners": "dealt", "at-cap": "highest"},
        now=datetime.fromtimestamp(T0, UTC),
        home=tmp_path / "create-home",
    )
    write_rules(folder.path, PressRules(mode="full", grey=True), folder.read().game_id, keys["moderator"])
    folder.republish(keys["moderator"])
    write_mail_config(root, NAMES, imap, outgoing)
    return root


def _press_mail(player: MailPlayer, data: dict[str, object], turn: int) -> EmailMessage:
    """What a bot says each turn: alice writes to bob, bob to all, carol grey press to alice."""
    to, grey = {"alice": (("bob",), False), "bob": ((ALL,), False), "carol": (("alice",), True)}[player.name]
    said = compose(
        player.identity, data, "report", to, f"{player.name}'s word in turn {turn}.", "msg", grey=grey
    )
    msg = EmailMessage()
    msg["Subject"] = f"press, turn {turn}"
    msg.set_content(f"My press for the judge:\n\n{said.text}")
    return msg


def test_a_game_by_mail_with_press_between_bots(
    post_office: None,  # noqa: F811
    smtp: SmtpServer,  # noqa: F811
    imap_server: ImapServer,  # noqa: F811
    keys: dict[str, Identity],
    tmp_path: Path,
) -> None:
    root = _root(tmp_path, smtp, imap_server, keys)
    judge = _judge(root, keys, tmp_path)
    players = {n: MailPlayer(keys[n], imap_server, smtp) for n in NAMES}
    folder = GameFolder(root / "game")
    moderator = keys["moderator"].public()
    said_in: set[tuple[str, int]] = set()
    read: dict[str, list[tuple[str, str]]] = {n: [] for n in NAMES}
    listed: dict[str, str] = {n: "" for n in NAMES}
    for step in range(40):
        judge.run_once()
        if folder.read().body["outcome"] is not None:
            break
        for player in players.values():
            for msg in player.new_mail():
                subject = str(msg["Subject"])
                if "press message" in subject:
                    letter = read_letter(
                        msg.get_content(), subject, player.identity, moderator, tmp_path / "h"
                    )
                    assert letter is not None, subject
                    read[player.name].append((letter.sender, "\n".join(letter.text)))
                    continue
                found = _report_of(msg)
                if found is None:
                    assert "not accepted" not in subject and "not relayed" not in subject, msg.get_content()
                    continue
                text, source = found
                report = parse_report(text, source, player.identity)
                listed[player.name] += report.private_text or ""
                turn = report.data["turn"]
                if turn != folder.read().turn:
                    continue
                if (player.name, turn) not in said_in:
                    said_in.add((player.name, turn))
                    player.send(_press_mail(player, dict(report.data), turn))
                if player.name in report.data["awaiting"]:
                    player.send(_orders_mail(player, text, source, step % 3, step))
    assert folder.read().body["outcome"] is not None, "the game ended"
    judge.run_once()
    for player in players.values():  # the last mails
        for msg in player.new_mail():
            if "press message" in str(msg["Subject"]):
                letter = read_letter(msg.get_content(), "m", player.identity, moderator, tmp_path / "h")
                assert letter is not None
                read[player.name].append((letter.sender, "\n".join(letter.text)))
    turns = len({t for _, t in said_in})
    assert turns >= 2
    # bob gets alice's private word and nothing grey; alice gets bob's public and carol's grey press
    assert ("alice", "alice's word in turn 1.") in read["bob"]
    assert ("bob", "bob's word in turn 1.") in read["alice"] and ("bob", "bob's word in turn 1.") in read[
        "carol"
    ]
    assert ("someone", "carol's word in turn 1.") in read["alice"]
    assert all(sender != "carol" for sender, _ in read["alice"]), "grey press never names carol"
    assert not any("alice's word" in text for _, text in read["carol"]), "private press reached bob only"
    # each report of turn 2 lists what its player received in turn 1
    assert "Press relayed to you" in listed["bob"] and "from alice to you" in listed["bob"]
    assert "from someone to you" in listed["alice"]
    # one mail per recipient, never several recipients in one
    assert all(len(rcpts) == 1 for rcpts, _ in smtp.received)
    assert (folder.path / "press" / "archive.json").exists()
