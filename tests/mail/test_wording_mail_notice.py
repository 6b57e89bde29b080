"""The judge's notice about a mailed order block named the file the judge wrote for it
("File: inbox/_mail/mail-<hash>-0.txt", and the same name in the message): the player reads
the mail's subject and date instead.  The moderator's journal keeps the file's name."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.engine import GameFolder
from pbem.moderator.notices import mail_label, open_text
from pbem.orders import sign
from pbem.player import form_header
from pbem.reports import parse_report

from .fakebox import FakeBox, make_judge, make_keys, make_root

DATE = "Tue, 24 Nov 2026 10:00:00 +0000"


def test_mail_label_says_subject_and_date() -> None:
    assert mail_label({"subject": "turn 3", "date": DATE}) == (f'"turn 3", sent {DATE}', 'your mail "turn 3"')
    assert mail_label({"subject": "", "date": ""}) == ("(no subject)", "your mail (no subject)")
    assert mail_label(None) == ("(no subject)", "your mail (no subject)")
    assert mail_label({"subject": "a\nb" + "x" * 500, "date": 7})[0].count("\n") == 0


def test_a_notice_about_a_mailed_block_names_the_mail_not_the_inbox_file(tmp_path: Path) -> None:
    keys = make_keys()
    root = make_root(tmp_path, keys)
    box = FakeBox()
    judge = make_judge(root, keys, tmp_path / "state", box)
    judge.moderator.run_pass()
    game = root / "game"
    save = GameFolder(game).read()
    awaited = save.names[save.awaiting[0]]
    player = keys[awaited]
    turn_dir = game / "reports" / f"turn-{save.turn:04d}"
    report = parse_report((turn_dir / f"{awaited}.txt").read_text(encoding="utf-8"), "r", player)
    body = "my orders:\n\n" + sign(player, form_header(report), ["discard ZZ"])
    msg = EmailMessage()
    msg["From"] = f"{awaited}@example.org"
    msg["To"] = "judge@example.org"
    msg["Subject"] = "My orders for turn 1"
    msg["Date"] = DATE
    msg["Message-ID"] = "<wording-1@example.org>"
    msg.set_content(body)
    box.add(msg.as_bytes())
    judge.intake()
    judge.moderator.settle_ns = 0
    judge.moderator.run_pass(force=True)
    [notice] = sorted((game / "players" / awaited).glob("notice-*.txt"))
    text = notice.read_text(encoding="utf-8")
    details = " ".join(open_text(text, player).split())
    assert f'Mail:     "My orders for turn 1", sent {DATE}' in text, text
    assert "File:" not in text and "_mail" not in text and "mail-" not in text, text
    assert 'your mail "My orders for turn 1"' in text, text
    assert "_mail" not in details and 'your mail "My orders for turn 1", line ' in details, details
    assert "1 order line could not be accepted" in " ".join(text.split()), text
    journal = CliRunner().invoke(main, ["log", str(game)]).output
    assert "inbox/_mail/mail-" in journal, journal
