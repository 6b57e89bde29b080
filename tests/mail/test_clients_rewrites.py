"""Mail clients review (eleventh session): characters a mail program replaces in the text.

Outlook, Apple Mail and word processors replace what was typed by typographic quotes and
dashes ("don't" becomes "don\u2019t") and sometimes put zero-width characters in.  That changes
the signed content, so the orders are refused, but the answer must say what the program did
and where (the line of the mail) and what to do.  Before, the answer was "the orders were
changed after signing, or signed with another key", which sends the player to sign again
and paste again, to the same result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.orders import parse, sign

from .clientkit import World, judge_mail, make_world, raw_mail, text_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("rewrites"))


def _line_of(body: str, text: str) -> int:
    return next(n for n, line in enumerate(body.split("\n"), start=1) if text in line)


def test_smart_quotes_are_named_with_their_line(world: World, tmp_path: Path) -> None:
    body = "Hello,\n\nmy orders:\n\n" + world.clear.replace("don't", "don\u2019t")
    outcome = judge_mail(world, text_mail(world, body, "orders for turn 1"), tmp_path)
    assert not outcome.accepted
    [notice] = outcome.notices
    assert '"orders for turn 1", sent Tue, 24 Nov 2026 06:00:00 +0000' in notice, "names the mail"
    assert f"line {_line_of(body, 'don')}: '\u2019' for \"'\"" in notice, notice
    assert "characters replaced by the mail program" in notice
    assert "smart quotes" in notice and "attachment" in notice, "says what to do"


def test_a_zero_width_space_in_an_order_is_named(world: World, tmp_path: Path) -> None:
    order = world.clear.split("\n")[6]
    assert order and not order.startswith("#"), world.clear
    body = "Hi\n\n" + world.clear.replace(f"\n{order}\n", f"\n{order[:2]}\u200b{order[2:]}\n")
    outcome = judge_mail(world, text_mail(world, body, "orders for turn 1"), tmp_path)
    assert not outcome.accepted
    [notice] = outcome.notices
    line = _line_of(body, "\u200b")
    assert f"line {line}: an invisible U+200B" in notice, notice


def test_a_real_change_is_not_blamed_on_the_mail_program(world: World, tmp_path: Path) -> None:
    body = world.clear.replace("good one", "bad one")
    [notice] = judge_mail(world, text_mail(world, body, "orders for turn 1"), tmp_path).notices
    assert "changed after signing" in notice and "mail program" not in notice, notice


def test_a_typed_typographic_quote_that_was_signed_is_accepted(world: World, tmp_path: Path) -> None:
    """The table is used only to explain a refusal: a signed ’ stays as signed."""
    block = sign(world.player, parse(world.clear).header, ["draw  # l\u2019as"])
    outcome = judge_mail(world, text_mail(world, block, "orders for turn 1"), tmp_path)
    assert outcome.accepted, outcome


def test_accented_letters_garbled_on_the_way_are_named(world: World, tmp_path: Path) -> None:
    """A gateway that read UTF-8 as Windows-1252 and sent it on as UTF-8 ("é" as "Ã©")."""
    garbled = world.clear.encode("utf-8").decode("cp1252").encode("utf-8")
    outcome = judge_mail(
        world, raw_mail(world, b"Hi\r\n\r\n" + garbled, "text/plain; charset=utf-8"), tmp_path
    )
    assert not outcome.accepted
    [notice] = outcome.notices
    line = _line_of("Hi\n\n" + world.clear, "\u00e9tonnant")
    assert "accented letters garbled on the way (UTF-8 read as Windows-1252)" in notice, notice
    assert f"line {line}: '\u00c3\u00a9tonnant,' for '\u00e9tonnant,'" in notice, notice


def test_an_invisible_character_in_a_header_is_named(world: World, tmp_path: Path) -> None:
    """Before: "the order block lacks the header(s) Seq"."""
    body = "Hi\n\n" + world.clear.replace("\nSeq:", "\n\u200bSeq:")
    outcome = judge_mail(world, text_mail(world, body, "orders for turn 1"), tmp_path)
    assert not outcome.accepted and outcome.quarantined == 1
    [answer] = outcome.answers
    line = _line_of(body, "Seq:")
    assert f"line {line}: the header '\\u200bSeq: 1' holds an invisible character (U+200B)" in answer, answer
