"""The judge's notice about a mailed order block named the file the judge wrote for it
("File: inbox/_mail/mail-<hash>-0.txt", and the same name in the message): the player reads
the mail's subject and date instead.  The moderator's journal keeps the file's name."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.moderator.notices import mail_label, open_text

from .fakebox import refused_by_mail

DATE = "Tue, 24 Nov 2026 10:00:00 +0000"


def test_mail_label_says_subject_and_date() -> None:
    assert mail_label({"subject": "turn 3", "date": DATE}) == (f'"turn 3", sent {DATE}', 'your mail "turn 3"')
    assert mail_label({"subject": "", "date": ""}) == ("(no subject)", "your mail (no subject)")
    assert mail_label(None) == ("(no subject)", "your mail (no subject)")
    assert mail_label({"subject": "a\nb" + "x" * 500, "date": 7})[0].count("\n") == 0


def test_a_notice_about_a_mailed_block_names_the_mail_not_the_inbox_file(tmp_path: Path) -> None:
    headers = {"Subject": "My orders for turn 1", "Date": DATE, "Message-ID": "<wording-1@example.org>"}
    text, player, game = refused_by_mail(tmp_path, lambda block: "my orders:\n\n" + block, headers)
    details = " ".join(open_text(text, player).split())
    assert f'Mail:     "My orders for turn 1", sent {DATE}' in text, text
    assert "File:" not in text and "_mail" not in text and "mail-" not in text, text
    assert 'your mail "My orders for turn 1"' in text, text
    assert "_mail" not in details and 'your mail "My orders for turn 1", line ' in details, details
    assert "1 order line could not be accepted" in " ".join(text.split()), text
    journal = CliRunner().invoke(main, ["log", str(game)]).output
    assert "inbox/_mail/mail-" in journal, journal
