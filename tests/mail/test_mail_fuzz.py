"""Fuzzing the judge's mail intake: generated and mutated mails through the real entry point.

Every mail goes through :meth:`pbem.moderator.judge.Judge.intake` (with an in-memory
mailbox) and must leave it handled: its block filed, or the mail kept in the quarantine
with a note; no exception escapes, the backstop for unexpected failures of the mail code is
never what caught it, and the game's own files never change.  ``extract_raw`` is fuzzed on
its own too: it raises nothing but BadMail.  Bounded for CI; set PBEM_FUZZ_EXAMPLES for a
longer run (e.g. PBEM_FUZZ_EXAMPLES=5000).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.keys import Identity
from pbem.mail.extract import BadMail, extract_raw
from pbem.moderator.judge import MAIL_QUARANTINE, Judge

from .fakebox import FakeBox, good_mail, make_judge, make_keys, make_root, snapshot
from .hostile import TRIGGERS, unsigned_block

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or None
FUZZ = settings(
    max_examples=EXAMPLES or 40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

HEADER_NAMES = [
    "From",
    "To",
    "Cc",
    "Reply-To",
    "Sender",
    "Subject",
    "Message-ID",
    "Date",
    "Content-Type",
    "Content-Disposition",
    "Content-Transfer-Encoding",
    "MIME-Version",
    "Auto-Submitted",
    "Precedence",
    "Return-Path",
    "X-\xff",
]
HOSTILE_VALUES = [
    b"a@[",
    b'<a@b.c>>, "',
    b"a:b:c;d;@",
    b'"\\',
    b"=?utf-8?b?====?=",
    b"=?x-foo?q?abc?=",
    b"=?utf-8?q?\xff?=",
    b"=?utf-8?q?=0D=0A?=",
    b"<[",
    b"multipart/mixed",
    b"multipart/mixed; boundary=x",
    b"message/rfc822",
    b"text/plain; charset=idna",
    b"text/plain; charset*0*=x''; charset*1=\"",
    b"attachment; filename*9999999999999999999999*=x",
    b"attachment; filename*0*=''%ff; filename*1=a",
    b"text/html",
    b"base64",
    b"quoted-printable",
    b"x-uuencode",
    b"\x00",
    b"\xe9\xff",
    b"",
]
BODY_PIECES = [
    b"-----BEGIN PBEM ORDERS-----\n",
    b"-----END PBEM ORDERS-----\n",
    b"-----BEGIN AGE ENCRYPTED FILE-----\n",
    b"-----END AGE ENCRYPTED FILE-----\n",
    b"> ",
    b"--x\r\n",
    b"--x--\r\n",
    b"\r\n\r\n",
    b"<blockquote>",
    b"<!--",
    b"=\r\n",
    b"begin 644 f\n",
    unsigned_block(),
    unsigned_block(seq="9" * 5000),
]


@pytest.fixture(scope="module", autouse=True)
def _no_fsync() -> Iterator[None]:
    """Durability is not what these tests check (see tests/moderator/test_durable.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("os.fsync", lambda fd: None)
        yield


class World(tuple):
    """The fixture's tuple, with a short repr for hypothesis' failure reports."""

    def __repr__(self) -> str:
        return "<mail fuzz world>"


@pytest.fixture(scope="module")
def world(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, Path, FakeBox, Judge, dict[str, bytes], bytes]:
    """One game with turn-1 reports out, one judge on an in-memory mailbox, alice's good mail."""
    tmp = tmp_path_factory.mktemp("mailfuzz")
    keys: dict[str, Identity] = make_keys()
    root = make_root(tmp, keys)
    box = FakeBox()
    judge = make_judge(root, keys, tmp / "state", box)
    judge.moderator.run_pass()
    good = good_mail(root, "game", keys["alice"])
    return World((tmp, root, box, judge, snapshot(root / "game"), good))


def _seeds(good: bytes) -> list[bytes]:
    reply = EmailMessage()
    reply["From"] = "alice@example.org"
    reply["Subject"] = "Re: turn 1"
    reply.set_content("orders attached\n> quoted report\n")
    reply.add_attachment(good.split(b"\n\n", 1)[-1].decode("utf-8", "replace"), filename="orders.txt")
    html = EmailMessage()
    html["From"] = "bob@example.org"
    html.set_content("<p>draw</p><blockquote>take</blockquote>", subtype="html")
    return [good, reply.as_bytes(), html.as_bytes(), *(raw for _, raw, _ in list(TRIGGERS.values())[:12])]


def _header_line(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(HEADER_NAMES)).encode("latin-1")
    value = b"".join(draw(st.lists(st.sampled_from(HOSTILE_VALUES) | st.binary(max_size=30), max_size=4)))
    if draw(st.booleans()):
        value += b"\r\n " + draw(st.binary(max_size=20))  # a folded line
    return name + b": " + value + b"\r\n"


@st.composite
def generated_mail(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A mail (or part) of hostile header lines, a body of order-block and MIME fragments,
    and possibly nested parts."""
    headers = b"".join(_header_line(draw) for _ in range(draw(st.integers(0, 6))))
    if depth < 3 and draw(st.booleans()):
        parts = draw(st.lists(generated_mail(depth + 1), max_size=3))
        body = b"".join(b"--x\r\n" + p for p in parts) + b"--x--\r\n"
        headers += b"Content-Type: multipart/mixed; boundary=x\r\n"
    else:
        body = b"".join(draw(st.lists(st.sampled_from(BODY_PIECES) | st.binary(max_size=40), max_size=8)))
    return headers + b"\r\n" + body


@st.composite
def mutated_mail(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """One of the seed mails with a few byte-level mutations."""
    raw = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "duplicate", "truncate", "splice"]))
        at = draw(st.integers(0, max(0, len(raw) - 1)))
        if op == "flip" and raw:
            raw[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            raw[at:at] = draw(st.sampled_from(HOSTILE_VALUES + BODY_PIECES) | st.binary(max_size=20))
        elif op == "delete":
            del raw[at : at + draw(st.integers(1, 200))]
        elif op == "duplicate":
            raw[at:at] = raw[at : at + draw(st.integers(1, 300))] * draw(st.integers(1, 20))
        elif op == "truncate":
            del raw[at:]
        else:
            raw[at:at] = draw(st.sampled_from(seeds))[: draw(st.integers(0, 2000))]
    return bytes(raw)


def _through_intake(world: tuple[Path, Path, FakeBox, Judge, dict[str, bytes], bytes], raw: bytes) -> None:
    _, root, box, judge, game_files, _ = world
    uid = box.add(raw)
    result = judge.intake()  # no exception may escape, whatever the mail
    assert uid in box.done, "the mail is flagged handled"
    assert result.mails == 1 and result.blocks + result.quarantined >= 1
    if box.done[uid]:  # kept under its content's digest (the same bytes twice: one copy)
        note = (
            judge.moderator.state_dir / MAIL_QUARANTINE / hashlib.sha256(raw).hexdigest()[:24] / "note.json"
        )
        kept = json.loads(note.read_text())
        assert kept["reason"] and "error" not in kept, kept
    inbox = root / "game" / "inbox" / "_mail"
    now = snapshot(root / "game")
    assert {k: v for k, v in now.items() if "_mail" not in k} == game_files, "the game itself is untouched"
    if inbox.exists():
        shutil.rmtree(inbox)  # filed blocks are the moderator pass's business, not this test's


@FUZZ
@given(data=st.data())
def test_generated_mails_are_handled(
    world: tuple[Path, Path, FakeBox, Judge, dict[str, bytes], bytes], data: st.DataObject
) -> None:
    _through_intake(world, b"From: mallory@example.org\r\n" + data.draw(generated_mail()))


@FUZZ
@given(data=st.data())
def test_mutated_mails_are_handled(
    world: tuple[Path, Path, FakeBox, Judge, dict[str, bytes], bytes], data: st.DataObject
) -> None:
    _through_intake(world, data.draw(mutated_mail(_seeds(world[5]))))


@settings(max_examples=(EXAMPLES or 40) * 5, deadline=None, database=None)
@given(raw=st.binary(max_size=3000) | generated_mail())
def test_extract_raises_only_badmail(raw: bytes) -> None:
    try:
        found = extract_raw(raw, "judge@example.org")
    except BadMail as exc:
        assert exc.reason
        return
    assert "\n" not in found.subject and len(found.subject) <= 200
    assert all(c.kind in ("orders", "age") for c in found.candidates)
