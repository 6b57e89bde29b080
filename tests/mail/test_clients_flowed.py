"""Mail clients review (eleventh session): ``format=flowed`` mail (RFC 3676).

Thunderbird, Apple Mail and many phone clients send plain text as ``format=flowed``: a long
line is sent as several lines, each but the last ending in a space (a soft break), and the
reader joins them again; with ``delsp=yes`` the client may break inside a word and the
space at the break is its own.  The signed content is intact, so the orders must be
accepted.  Before, the judge read the lines as sent: a long comment line of a clear block
came in two, and the signature did not match ("the orders were changed after signing").
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.extract import extract_raw, unflow

from .clientkit import World, judge_mail, make_world, raw_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("flowed"))


def _stuffed(line: str) -> str:
    return " " + line if line.startswith((" ", ">", "From ")) else line


def flowed(text: str, width: int, delsp: bool, quote: str = "") -> str:
    """``text`` as a flowed client sends it (RFC 3676 section 4.2): soft breaks at spaces
    (``delsp=no``) or anywhere with an added space (``delsp=yes``), space-stuffing, CRLF."""
    out: list[str] = []
    for line in text.split("\n"):
        pieces: list[str] = []
        while len(line) > width:
            cut = width if delsp else line.rfind(" ", 0, width) + 1
            if cut <= 0:
                break
            pieces.append(line[:cut] + (" " if delsp else ""))
            line = line[cut:]
        pieces.append(line.rstrip(" "))
        out += [quote + (" " if quote else "") + _stuffed(p) if quote else _stuffed(p) for p in pieces]
    return "\r\n".join(out)


def _mail(world: World, body: str, delsp: bool) -> bytes:
    params = "charset=utf-8; format=flowed" + ("; delsp=yes" if delsp else "")
    return raw_mail(world, body.encode("utf-8"), f"text/plain; {params}")


@pytest.mark.parametrize("kind", ["clear", "sealed"])
@pytest.mark.parametrize("delsp", [False, True])
def test_a_flowed_mail_is_accepted(world: World, kind: str, delsp: bool, tmp_path: Path) -> None:
    block: str = getattr(world, kind)
    body = flowed("Hi, here are my orders for this turn, as pbem sign wrote them.\n\n" + block, 40, delsp)
    assert any(len(line) < 45 for line in body.splitlines()), "the client did break lines"
    outcome = judge_mail(world, _mail(world, body + "\r\n-- \r\nAlice\r\n", delsp), tmp_path)
    assert outcome.accepted, outcome


def test_a_flowed_reply_quoting_the_block_is_accepted(world: World, tmp_path: Path) -> None:
    body = "On Monday alice wrote:\r\n" + flowed(world.clear, 38, False, quote=">")
    outcome = judge_mail(world, _mail(world, body, False), tmp_path)
    assert outcome.accepted, outcome


def test_unflow_follows_rfc_3676() -> None:
    sent = "a long \r\nline\r\n From the stuffed\r\n-- \r\nsig\r\n>quoted \r\n>more\r\n>> deeper\r\ntail "
    assert unflow(sent, False).split("\n") == [
        "a long line",
        "From the stuffed",
        "-- ",
        "sig",
        "> quoted more",
        "> > deeper",
        "tail ",
    ]
    assert unflow("wo \r\nrd\r\n", True) == "word\n"
    assert unflow("end \r\n> quoted\r\n", False) == "end \n> quoted\n", "quoting changed: no join"


def test_a_mail_without_format_flowed_is_read_as_sent(world: World) -> None:
    raw = raw_mail(world, b"soft \r\nbreak\r\n" + world.clear.encode(), "text/plain; charset=utf-8")
    [found] = extract_raw(raw).candidates
    assert found.line == 3, "no lines joined"


FUZZ = settings(
    max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 200, deadline=None, database=None
)
LINE = st.text(alphabet="ab >-From\u00e9", max_size=40).filter(lambda line: not line.endswith(" "))


@FUZZ
@given(lines=st.lists(LINE, max_size=12), width=st.integers(3, 30), delsp=st.booleans())
def test_unflow_undoes_what_a_flowed_client_did(lines: list[str], width: int, delsp: bool) -> None:
    text = "\n".join(lines)
    assert unflow(flowed(text, width, delsp), delsp) == text


def test_unflow_takes_linear_time() -> None:
    started = time.perf_counter()
    assert len(unflow("a \r\n" * 200_000, False)) == 400_000
    assert len(unflow(">" * 500_000 + " x", False)) > 0
    assert time.perf_counter() - started < 2
