"""Hostile input review (tenth session): terminal escapes in the order lines a player signed.

The moderator's archive shows the lines each player wrote, trailing comments included, and
a comment may hold anything the player signed: escape sequences reached the archive's text
file (meant for mail and ``less``) and its page as they came.  Now each such character is
shown as its escape.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from pathlib import Path

from pbem.archive.build import moderator_archive
from pbem.archive.html import render_html
from pbem.archive.text import render_text
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import parse_report
from pbem.rng import Rng, seeded_entropy

NOW = datetime(2026, 5, 1, tzinfo=UTC)
ESCAPES = "\x1b]0;PWNED\x07 \x1b]52;c;ZWNobyBwd25lZA==\x07"


def _controls(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) == "Cc" and c not in "\n"]


def test_order_comments_with_escapes_are_archived_escaped(tmp_path: Path) -> None:
    moderator = Identity.generate("moderator")
    seats = [Identity.generate(name) for name in ("alice", "bob", "carol")]
    folder = GameFolder.create(
        tmp_path / "game",
        "symbiote",
        moderator,
        [s.public() for s in seats],
        {},
        now=NOW,
        entropy=seeded_entropy("hostile-orders"),
        home=tmp_path / "home",
    )
    save = folder.read()
    [seat] = save.awaiting
    path = folder.reports_dir(save.turn) / f"{seats[seat].name}.txt"
    report = parse_report(path.read_text(encoding="utf-8"), str(path), seats[seat])
    lines = bot_orders(report, "greedy", Rng(b"hostile-orders"))
    lines[0] = f"{lines[0]}  # {ESCAPES}"
    block = seal(sign(seats[seat], form_header(report), lines), [moderator.public()])
    folder.submit(block, moderator, source="orders.txt", now=NOW, advance=True)
    assert folder.read().turn == 2
    archive = moderator_archive(folder.path, moderator)
    text, page = render_text(archive), render_html(archive)
    assert "\\x1b]0;PWNED\\x07" in text, "the comment is shown, escaped"
    assert _controls(text) == [] and _controls(page) == []
