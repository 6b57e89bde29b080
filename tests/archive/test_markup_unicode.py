"""Markup review (eleventh session): characters that make a player's text read other than
it was written, in the archive's page and text file.

``pbem say`` refuses control characters but lets the line separator U+2028 and the
bidirectional overrides through, and an order line's trailing comment may hold anything
the player signed.  The text archive split a letter's line at U+2028, so a letter could
start a line that read as another player's message header ("Message 2, from bob to all:");
in the page, text after U+202E (right-to-left override) is drawn reversed.  Now both are
shown as escapes, as control characters already were, and ``pbem say`` refuses them as it
refuses control characters (what the readers would see is not what was typed).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.archive.build import finished_archive, moderator_archive
from pbem.archive.html import render_html
from pbem.archive.text import render_text
from pbem.engine import GameFolder
from pbem.errors import FormatError
from pbem.inputs import FORGING, visible
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, fill_orders, form_header, read_report
from pbem.press import say as say_module
from pbem.press.relay import open_press, relay
from pbem.press.rules import ALL, PressRules, write_rules
from pbem.press.say import compose, message_lines
from pbem.reports import parse_report
from pbem.rng import Rng

from .conftest import NOW, new_table

FORGED = "Agreed.\u2028Message 2, from bob to all:\u2028I resign; alice wins."
REVERSED = "\u202enoitacol terces ym si sihT"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"


def test_visible_escapes_separators_and_overrides_but_keeps_right_to_left_marks() -> None:
    shown = visible("a" + BIDI + "b \u200f\u05e9\u05dc\u05d5\u05dd")
    assert not any(c in shown for c in BIDI)
    assert "\\u2028" in shown and "\\u202e" in shown
    assert shown.endswith(" \u200f\u05e9\u05dc\u05d5\u05dd"), "RLM and Hebrew letters stay as written"


@pytest.mark.parametrize("character", sorted(FORGING))
def test_pbem_say_refuses_them_naming_the_character(character: str) -> None:
    with pytest.raises(FormatError) as refused:
        message_lines(f"Agreed.{character}Message 2, from bob to all:", "message")
    assert f"line 1: the character U+{ord(character):04X} cannot be sent" in refused.value.message


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameFolder, Identity]:
    """A Symbiote game with press: alice's letter to all with separators and an override,
    her first order line with an override in its comment; played to its end."""
    root = tmp_path_factory.mktemp("markup-unicode")
    made = new_table(root, "markup-unicode")
    folder, moderator, seats = made.folder, made.moderator, made.seats
    write_rules(folder.path, PressRules(mode="full"), folder.read().game_id, moderator)
    folder.republish(moderator)
    seat = seats.index(made.player)
    path = folder.reports_dir(folder.read().turn) / f"{made.player.name}.txt"
    report = parse_report(path.read_text(encoding="utf-8"), str(path), made.player)
    with pytest.MonkeyPatch.context() as patch:  # a sender whose program skipped pbem say's check
        patch.setattr(say_module, "message_lines", lambda text, source: text.split("\n"))
        said = compose(seats[0], _data(folder, seats[0], root / "home"), "report", (ALL,), FORGED, "message")
    plain = open_press(said.text, moderator, "inbox/p.txt")
    assert plain is not None
    folder.exclusive(lambda: relay(folder, moderator, plain, "inbox/p.txt", "2026-05-01T12:00:00+00:00"))
    lines = bot_orders(report, "greedy", Rng(b"markup-unicode"))
    lines[0] = f"{lines[0]}  # {REVERSED}"
    folder.submit(
        seal(sign(seats[seat], form_header(report), lines), [moderator.public()]),
        moderator,
        source="orders.txt",
        now=NOW,
        advance=True,
    )
    clock = NOW
    for _ in range(200):
        if folder.read().body["outcome"] is not None:
            break
        clock += timedelta(hours=1)
        folder.advance(moderator, now=clock, fill=fill_orders(folder.load(moderator), "default"))
    assert folder.read().body["outcome"] is not None
    return folder, moderator


def _data(folder: GameFolder, who: Identity, home: Path) -> dict[str, Any]:
    """What ``pbem say`` reads of ``who``'s report of the current turn."""
    path = folder.reports_dir(folder.read().turn) / f"{who.name}.txt"
    return dict(read_report(path.read_text(encoding="utf-8"), str(path), who, home=home).data)


def test_a_letter_cannot_forge_another_message_header_in_the_text_archive(
    game: tuple[GameFolder, Identity],
) -> None:
    text = render_text(finished_archive(game[0].path))
    assert "Message 1, from alice to all:" in text
    assert not any(line.strip().startswith("Message 2") for line in text.splitlines()), text
    assert "Agreed.\\u2028Message 2, from bob to all:\\u2028I resign" in text.replace("\n      ", " ")


def test_no_override_or_separator_reaches_the_page(game: tuple[GameFolder, Identity]) -> None:
    folder, moderator = game
    for archive in (finished_archive(folder.path), moderator_archive(folder.path, moderator)):
        page, text = render_html(archive), render_text(archive)
        assert not any(c in page or c in text for c in BIDI)
    assert "# \\u202enoitacol terces" in render_html(moderator_archive(folder.path, moderator))
