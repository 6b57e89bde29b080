"""Mail clients review (eleventh session): the judge's answer to a mail it could not use
names the mail by its subject and its date, as the notices about filed blocks do ("Mail:
"my orders", sent Tue, ...").  A player who sent several mails must be able to tell which
one is meant.  Before, the answer named the subject only, and for a mail refused by its size
or structure the date was not even read.
"""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail.message import MAX_MAIL_BYTES

from .clientkit import World, headers, judge_mail, make_world

DATE = "Tue, 24 Nov 2026 06:00:00 +0000"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("answers"))


def test_a_mail_without_a_block_is_answered_with_its_subject_and_date(world: World, tmp_path: Path) -> None:
    msg = headers(EmailMessage(), world, "turn 1")
    msg.set_content("I forgot to paste them, sorry.\n")
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    [answer] = outcome.answers
    assert f"your mail 'turn 1', sent {DATE}, was not used" in answer, answer
    assert "no order block was found" in answer and "attach the file" in answer


def test_a_mail_too_big_is_answered_with_its_subject_and_date(world: World, tmp_path: Path) -> None:
    msg = headers(EmailMessage(), world, "orders and photos")
    msg.set_content("Orders attached, and a photo of my cat.\n")
    msg.add_attachment(b"\0" * MAX_MAIL_BYTES, maintype="image", subtype="jpeg", filename="cat.jpg")
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    [answer] = outcome.answers
    assert f"your mail 'orders and photos', sent {DATE}, was not read" in answer, answer
    assert "bytes" in answer and "without pictures" in answer
