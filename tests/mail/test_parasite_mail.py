"""A whole game of Parasite by mail, through real servers (aiosmtpd for SMTP, Dovecot for
IMAP), as Symbiote's in test_judge.py: the judge mails each report, four players read it
with their mail client, answer with the greedy bot's orders written on the form (a
reply quoting the report, a clear signed block pasted, or, one turn in four, the whole way
through the pbem command line with the sealed file attached), and the judge reads their
mails, until the helicopter leaves.

Parasite's hidden roles travel by mail too: every mail a player receives is checked to hold
no other player's Infection card in plain text, and the final report names every one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.reports import parse_report

from .mailservers import ImapServer, SmtpServer, write_mail_config
from .test_judge import T0, MailPlayer, _judge, _orders_mail, _report_of, post_office  # noqa: F401

pytestmark = pytest.mark.mail

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The game files' fsync is not what this test checks (see tests/moderator/test_durable.py);
    the players' pbem keeps its pins and copies in the test's own home (the game id is fixed)."""
    monkeypatch.setattr("os.fsync", lambda fd: None)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "player-home"))


def _root(tmp_path: Path, smtp: SmtpServer, imap: ImapServer, keys: dict[str, Identity]) -> Path:
    root = tmp_path / "root"
    GameFolder.create(
        root / "game",
        "parasite",
        keys["moderator"],
        [keys[n].public() for n in NAMES],
        {},
        now=datetime.fromtimestamp(T0, UTC),
        home=tmp_path / "create-home",
        entropy=lambda n: b"\x36" * n,  # a short game (55 turns), ending with the helicopter
    )
    write_mail_config(root, NAMES, imap, smtp)
    return root


def test_a_whole_parasite_game_by_mail(
    post_office: None,  # noqa: F811
    smtp: SmtpServer,
    imap_server: ImapServer,
    tmp_path: Path,
) -> None:
    from pbem_games.parasite.cards import load_cards

    keys = {n: Identity.generate(n) for n in ("moderator", *NAMES)}
    root = _root(tmp_path, smtp, imap_server, keys)
    judge = _judge(root, keys, tmp_path)
    players = {n: MailPlayer(keys[n], imap_server, smtp) for n in NAMES}
    folder = GameFolder(root / "game")
    held = {
        seat: {load_cards().infections[c].name for c in cards}
        for seat, cards in enumerate(folder.load(keys["moderator"]).secret.state["infection"])
    }
    orders_sent = 0
    reports_read = 0
    for step in range(800):
        judge.run_once()
        if folder.read().body["outcome"] is not None:
            break
        for index, player in enumerate(players.values()):
            for msg in player.new_mail():
                found = _report_of(msg)
                if found is None:
                    continue
                text, source = found
                report = parse_report(text, source, player.identity)
                reports_read += 1
                private = report.private_text or ""
                others = set().union(*(h for s, h in held.items() if s != index)) - held[index]
                shown = {name for name in others if f"{name} (" in private}
                assert not shown, f"{player.name}'s private part names {shown}"
                if player.name in report.data["awaiting"] and report.data["turn"] == folder.read().turn:
                    # A quoted reply, an attachment or a pasted block; the whole way
                    # through the command line (slower) on one turn in four.
                    style = (index + step) % 3 if step % 4 == 0 else (index + step) % 2 * 2
                    player.send(_orders_mail(player, text, source, style, step, tmp_path / player.name))
                    orders_sent += 1
    save = folder.read()
    assert save.body["outcome"] is not None, f"the game did not end (turn {save.turn})"
    judge.run_once()
    finals = [m for m in players["alice"].new_mail() if "final report" in str(m["Subject"])]
    assert finals, "the final report reached the players by mail"
    found = _report_of(finals[-1])
    assert found is not None
    final_text = found[0]
    assert "THE REVEAL" in final_text
    state = folder.load(keys["moderator"]).secret.state
    assert state["why"] == "the helicopter left" and "Escaped (1 of" in final_text
    for cards in state["infection"]:
        for card in cards:
            assert load_cards().infections[card].name in final_text.replace("\n", " ")
    assert orders_sent >= save.turn - 1 and reports_read > orders_sent
    recipients = [tuple(r) for r, _ in smtp.received if not r[0].startswith("judge")]
    assert all(len(r) == 1 for r in recipients), "one mail per recipient"
    assert not judge.moderator.outbox.pending()  # type: ignore[union-attr]
