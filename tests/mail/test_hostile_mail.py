"""Issue 8, first bullet: no mail, from anyone, stops the judge.

One test per trigger (tests/mail/hostile.py: huge numbers, charsets, structure, address
headers, encoded words, Message-ID and Date, Content-Type parameters, long headers, NUL and
8-bit headers, size), each through the judge's real intake with an in-memory mailbox: the
hostile mail is kept in the quarantine and flagged handled, its sender is answered once
(or the moderator gets a log line), the good mail after it is filed, nothing else changes,
and a restarted judge does not read it again.  The same with real servers is in
tests/mail/test_hostile_servers.py.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.mail import message as mailmsg
from pbem.mail.extract import MAX_BLOCKS, BadMail, extract_raw, find_blocks
from pbem.moderator.judge import MAIL_QUARANTINE, Judge

from .fakebox import FakeBox, good_mail, make_judge, make_keys, make_root, snapshot
from .hostile import TRIGGERS, mail, nested_multipart, unsigned_block


@pytest.fixture(scope="module", autouse=True)
def _no_fsync() -> Iterator[None]:
    """Durability is not what these tests check (see tests/moderator/test_durable.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("os.fsync", lambda fd: None)
        yield


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Identity], bytes]:
    """A game whose turn-1 reports are out, and alice's good orders mail for it."""
    tmp = tmp_path_factory.mktemp("hostile")
    keys = make_keys()
    root = make_root(tmp, keys)
    make_judge(root, keys, tmp / "state0", FakeBox()).moderator.run_pass()
    return root, keys, good_mail(root, "game", keys["alice"])


def _fresh(world: tuple[Path, dict[str, Identity], bytes], tmp_path: Path) -> tuple[Path, FakeBox, Judge]:
    template, keys, _ = world
    root = tmp_path / "root"
    shutil.copytree(template, root)
    box = FakeBox()
    return root, box, make_judge(root, keys, tmp_path / "state", box)


def _quarantined(judge: Judge) -> list[Path]:
    folder = judge.moderator.state_dir / MAIL_QUARANTINE
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_a_hostile_mail_is_set_aside_and_the_next_one_is_read(
    name: str, world: tuple[Path, dict[str, Identity], bytes], tmp_path: Path
) -> None:
    _family, raw, answerable = TRIGGERS[name]
    root, box, judge = _fresh(world, tmp_path)
    before = snapshot(root)
    bad = box.add(raw)
    good = box.add(world[2])
    started = time.perf_counter()
    result = judge.intake()
    assert time.perf_counter() - started < 5, f"{name}: intake took too long"
    # Both mails handled; only the hostile one quarantined; the good one's block is filed.
    assert (result.mails, result.blocks, result.quarantined) == (2, 1, 1), result
    assert box.done == {bad: True, good: False}
    [filed] = (root / "game" / "inbox" / "_mail").iterdir()
    assert "-----BEGIN" in filed.read_text(encoding="utf-8")
    after = snapshot(root)
    assert {k: v for k, v in after.items() if "_mail" not in k} == before, "nothing else in the game changed"
    # Kept, with a note saying why; no unexpected failure of the mail code behind it.
    [kept] = _quarantined(judge)
    note = json.loads((kept / "note.json").read_text(encoding="utf-8"))
    assert note["result"] in ("refused", "unused") and note["reason"], note
    assert "error" not in note, f"{name}: the mail code raised {note.get('error')}"
    if len(raw) > mailmsg.MAX_MAIL_BYTES:
        assert bad not in box.fetched and box.heads == [bad], "refused by its size, never downloaded"
        assert (kept / "mail-head.eml").stat().st_size <= 64 * 1024
    else:
        assert (kept / "mail.eml").read_bytes() == raw, "the moderator can inspect the mail as it came"
    # One answer to a plain From address, else a log line only.
    queued = [json.loads(p.read_text()) for p in (judge.moderator.state_dir / "outbox").glob("*.json")]
    [line] = result.log
    if answerable:
        assert [q["to"] for q in queued] == ["mallory@example.org"], (name, queued)
        assert "\n" not in queued[0]["subject"] and "Why: " in queued[0]["body"]
        assert line.endswith("; answered")
    else:
        assert queued == [] and "not answered" in line
    # A restart reads nothing again, even if the server lost the flags.
    again = Judge(judge.moderator, judge.settings, mailbox=box)
    assert again.intake().mails == 0
    box.done.clear()
    assert again.intake().mails == 0 and box.done == {bad: True, good: False}
    assert len(list((judge.moderator.state_dir / "outbox").glob("*.json"))) == len(queued), "one notice"


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_reading_a_hostile_mail_raises_only_badmail_quickly(name: str) -> None:
    _, raw, _ = TRIGGERS[name]
    started = time.perf_counter()
    try:
        found = extract_raw(raw, "judge@example.org")
    except BadMail as exc:
        assert exc.reason and exc.exit_code == 1
    else:
        assert len(found.subject) <= mailmsg.MAX_TEXT and "\n" not in found.subject
        assert found.sender is None or mailmsg._ADDRESS.match(found.sender)
        assert found.message_id is None or " " not in found.message_id
    assert time.perf_counter() - started < 3


def test_bounds_are_what_the_messages_say() -> None:
    with pytest.raises(BadMail, match="more than 8 levels"):
        mailmsg.parse_mail(nested_multipart(9))
    mailmsg.parse_mail(nested_multipart(6))  # a forwarded reply's depth is fine
    with pytest.raises(BadMail, match="4,194,304"):
        mailmsg.parse_mail(mail(b"", b"x" * (mailmsg.MAX_MAIL_BYTES + 1)))
    blocks = b"".join(unsigned_block(seq=str(i)) for i in range(MAX_BLOCKS))
    assert len(extract_raw(mail(b"", blocks)).candidates) == MAX_BLOCKS
    with pytest.raises(BadMail, match="more than 20 order blocks"):
        extract_raw(mail(b"", blocks + unsigned_block(seq="99")))


def test_a_part_too_big_to_search_is_named_in_the_answer() -> None:
    raw = mail(b"Content-Disposition: attachment; filename=big.txt\r\n", b"y" * 1_500_000)
    found = extract_raw(raw)
    assert found.skipped and "big.txt is 1,500,000 bytes" in (found.problem() or "")


def test_open_blocks_take_linear_time() -> None:
    text = ("-----BEGIN PBEM ORDERS-----\n" * 20000) + unsigned_block().decode()
    started = time.perf_counter()
    [block] = find_blocks(text, "x")
    assert isinstance(block.data, str) and block.data.endswith("-----END PBEM ORDERS-----\n")
    assert time.perf_counter() - started < 2


def test_headers_never_raise_and_are_one_line() -> None:
    msg = mailmsg.parse_mail(
        b"From: =?utf-8?q?a=0D=0AB?= <x@example.org>\r\nSubject: =?utf-8?q?a=0D=0ABcc=3A_y?=\r\n"
        b"Message-ID: <a@b>\r\n <c@d>\r\nAuto-Submitted: auto-replied\r\n\r\n"
    )
    assert mailmsg.sender_address(msg) == "x@example.org"
    assert mailmsg.header_text(msg, "subject") == "a Bcc: y"
    assert mailmsg.message_id(msg) is None
    assert mailmsg.is_automatic(msg, "judge@example.org")


@pytest.mark.parametrize(
    "headers",
    [
        b"Auto-Submitted: auto-generated\r\n",
        b"Precedence: bulk\r\n",
        b"Return-Path: <>\r\n",
        b"List-Id: <x.example.org>\r\n",
    ],
)
def test_automatic_mail_is_kept_but_never_answered(
    headers: bytes, world: tuple[Path, dict[str, Identity], bytes], tmp_path: Path
) -> None:
    """A bounce of the judge's own answer must not start a mail loop."""
    _, box, judge = _fresh(world, tmp_path)
    box.add(mail(headers, b"Delivery failed\r\n"))
    result = judge.intake()
    assert result.quarantined == 1 and result.answered == 0
    assert "automatic" in result.log[0]
    assert not list((judge.moderator.state_dir / "outbox").glob("*.json"))


def test_mail_from_the_judge_itself_or_mailer_daemon_is_not_answered(
    world: tuple[Path, dict[str, Identity], bytes], tmp_path: Path
) -> None:
    _, box, judge = _fresh(world, tmp_path)
    box.add(mail(b"", sender=b"judge@example.org"))
    box.add(mail(b"", sender=b"MAILER-DAEMON@example.org"))
    assert judge.intake().answered == 0


def test_a_damaged_mail_journal_does_not_stop_intake(
    world: tuple[Path, dict[str, Identity], bytes], tmp_path: Path
) -> None:
    _, box, judge = _fresh(world, tmp_path)
    for damage in (b"[1, 2]", b'{"uids": []}', b"\xff\xfe", b"[" * 100_000):
        judge.journal_path.write_bytes(damage)
        box.add(mail(b""))
        assert judge.intake().quarantined == 1


def test_a_mail_the_server_will_not_flag_does_not_stop_the_others(
    world: tuple[Path, dict[str, Identity], bytes], tmp_path: Path
) -> None:
    from pbem.mail.smtp import MailError

    class Stubborn(FakeBox):
        def mark_done(self, uid: int, quarantined: bool = False) -> None:
            if uid == 1:
                raise MailError("NO [CANNOT] flags not permitted")
            super().mark_done(uid, quarantined)

    _, _, judge = _fresh(world, tmp_path)
    box = Stubborn()
    judge = Judge(judge.moderator, judge.settings, mailbox=box)
    box.add(mail(b""))
    box.add(world[2])
    result = judge.intake()
    assert result.mails == 2 and result.blocks == 1 and box.done == {2: False}
    assert any("not flagged on the server" in line for line in result.log)
    assert judge.intake().mails == 0, "journalled: not read again, only flagged again"
