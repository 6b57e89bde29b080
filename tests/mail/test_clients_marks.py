"""Mail clients review (eleventh session): armour lines as clients deliver them, and a block
that only a multipart/alternative mail's HTML part holds.

Outlook and Apple Mail turn the spaces of pasted text into no-break spaces; Notepad starts a
saved ``orders.txt`` with a byte-order mark; a client that writes the text part of a
multipart/alternative mail itself (a phone client, a web mail's "rich text" mode) may leave
the pasted block out of it while the HTML part holds it.  In each the signed content is
intact, so the orders must be accepted; before, the judge found no block in any of them and
answered "no order block was found in your mail".
"""

from __future__ import annotations

import html
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest

from pbem.mail.extract import extract_raw, find_blocks

from .clientkit import World, headers, judge_mail, make_world, text_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("marks"))


@pytest.mark.parametrize("kind", ["clear", "sealed"])
def test_no_break_spaces_everywhere_are_accepted(world: World, kind: str, tmp_path: Path) -> None:
    block: str = getattr(world, kind)
    outcome = judge_mail(world, text_mail(world, "Hi,\n\n" + block.replace(" ", "\u00a0")), tmp_path)
    assert outcome.accepted, outcome
    assert outcome.quarantined == 0


@pytest.mark.parametrize("kind", ["clear", "sealed"])
def test_an_attachment_saved_by_notepad_with_a_byte_order_mark_is_accepted(
    world: World, kind: str, tmp_path: Path
) -> None:
    msg = headers(EmailMessage(), world)
    msg.set_content("My orders are attached.\n")
    block: str = getattr(world, kind)
    data = ("\ufeff" + block.replace("\n", "\r\n")).encode("utf-8")
    msg.add_attachment(data, maintype="text", subtype="plain", filename="orders.txt")
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    assert outcome.accepted, outcome


def test_zero_width_characters_around_armour_lines_are_ignored() -> None:
    text = "\u200b-----BEGIN PBEM ORDERS-----\u200d\nx\n\ufeff-----END PBEM ORDERS-----\u2060\n"
    [block] = find_blocks(text, "mail body")
    assert block.data == "-----BEGIN PBEM ORDERS-----\nx\n-----END PBEM ORDERS-----\n"


@pytest.mark.parametrize("kind", ["clear", "sealed"])
def test_a_block_only_in_the_html_of_an_alternative_mail_is_accepted(
    world: World, kind: str, tmp_path: Path
) -> None:
    block: str = getattr(world, kind)
    alt = MIMEMultipart("alternative")
    for name, value in headers(EmailMessage(), world).items():
        alt[name] = value
    alt.attach(MIMEText("Hi, my orders are below.\n", "plain", "utf-8"))
    alt.attach(MIMEText(f"<p>Hi, my orders are below.</p><pre>{html.escape(block)}</pre>", "html", "utf-8"))
    raw = alt.as_bytes()
    found = extract_raw(raw)
    assert [c.source for c in found.candidates] == ["HTML mail body"]
    outcome = judge_mail(world, raw, tmp_path)
    assert outcome.accepted, outcome


def test_the_text_part_still_wins_when_it_holds_the_block(world: World) -> None:
    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText(world.clear, "plain", "utf-8"))
    alt.attach(MIMEText(f"<pre>{html.escape(world.clear)}</pre>", "html", "utf-8"))
    assert [c.source for c in extract_raw(alt.as_bytes()).candidates] == ["mail body"]


@pytest.mark.parametrize("mark", ["\u200b", "\ufeff"])
def test_an_invisible_character_before_the_signature_line_is_ignored(
    world: World, mark: str, tmp_path: Path
) -> None:
    """HTML mail with ``&#8203;`` before the armour lines (seen in Outlook's HTML)."""
    body = world.clear.replace("-----BEGIN", mark + "-----BEGIN")
    assert body.count(mark) == 2, "before the BEGIN and the signature lines"
    outcome = judge_mail(world, text_mail(world, body), tmp_path)
    assert outcome.accepted, outcome
