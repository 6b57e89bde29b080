"""Hostile input review (tenth session): terminal escapes in the order lines a player signed.

The moderator's archive shows the lines each player wrote, trailing comments included, and
a comment may hold anything the player signed: escape sequences reached the archive's text
file (meant for mail and ``less``) and its page as they came.  Now each such character is
shown as its escape.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from pbem.archive.build import moderator_archive
from pbem.archive.html import render_html
from pbem.archive.text import render_text
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.rng import Rng

from .conftest import NOW, new_table

ESCAPES = "\x1b]0;PWNED\x07 \x1b]52;c;ZWNobyBwd25lZA==\x07"


def _controls(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) == "Cc" and c not in "\n"]


def test_order_comments_with_escapes_are_archived_escaped(tmp_path: Path) -> None:
    made = new_table(tmp_path, "hostile-orders")
    folder, moderator, report = made.folder, made.moderator, made.report
    lines = bot_orders(report, "greedy", Rng(b"hostile-orders"))
    lines[0] = f"{lines[0]}  # {ESCAPES}"
    block = seal(sign(made.player, form_header(report), lines), [moderator.public()])
    folder.submit(block, moderator, source="orders.txt", now=NOW, advance=True)
    assert folder.read().turn == 2
    archive = moderator_archive(folder.path, moderator)
    text, page = render_text(archive), render_html(archive)
    assert "\\x1b]0;PWNED\\x07" in text, "the comment is shown, escaped"
    assert _controls(text) == [] and _controls(page) == []
