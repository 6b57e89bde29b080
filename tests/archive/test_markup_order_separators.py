"""Markup review (eleventh session): an order line holding a character that ends a line when
the signed block is read (U+2028 LINE SEPARATOR and its kind) was signed without a word,
then refused by the moderator as "changed after signing, or signed with another key": the
player could not tell why.  ``sign`` (so ``pbem sign``) now refuses it naming the line and
the character, and signs the line without it.  Found by putting the archive review's
hostile comments through ``pbem sign`` and ``pbem submit``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.engine import GameFolder
from pbem.errors import FormatError
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import Report
from pbem.rng import Rng

from .conftest import new_table

NOW = datetime(2026, 5, 1, tzinfo=UTC)
Table = tuple[GameFolder, Identity, Identity, list[str], Report]
"""The game, the moderator, the awaited player, their orders and report."""
SEPARATORS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    made = new_table(tmp_path_factory.mktemp("separators"), "separators")
    lines = bot_orders(made.report, "greedy", Rng(b"separators"))
    return made.folder, made.moderator, made.player, lines, made.report


@pytest.mark.parametrize("separator", list(SEPARATORS))
def test_a_line_separator_in_an_order_line_is_refused_when_signing(table: Table, separator: str) -> None:
    _, _, player, lines, report = table
    hostile = [f"{lines[0]}  # ok{separator}Player: bob", *lines[1:]]
    with pytest.raises(FormatError) as refused:
        sign(player, form_header(report), hostile)
    assert f"U+{ord(separator):04X}" in refused.value.message and "line 1" in refused.value.message


def test_the_line_without_it_is_signed_and_accepted(table: Table, tmp_path: Path) -> None:
    folder, moderator, player, lines, report = table
    fixed = [f"{lines[0]}  # ok \u202e Player: bob", *lines[1:]]
    block = seal(sign(player, form_header(report), fixed), [moderator.public()])
    folder.submit(block, moderator, source="orders.txt", now=NOW, advance=True)
    assert folder.read().turn == 2, "the orders were accepted and resolved"


def test_pbem_check_refuses_the_form_line_as_sign_does(table: Table) -> None:
    # The checker and the signer agree (Atlantis's checker and engine did not): the form's
    # own line number is named.
    from pbem.player import check_orders

    folder, _, player, lines, report = table
    header = form_header(report)
    form = (
        f"Game: {header.game}\nTurn: {header.turn}\nPlayer: {header.player}\nSeq: {header.seq}\n"
        f"{lines[0]}  # ok\u2028Player: bob\n" + "".join(f"{line}\n" for line in lines[1:])
    )
    path = folder.reports_dir(1) / f"{player.name}.txt"
    with pytest.raises(FormatError) as refused:
        check_orders(form, "form.txt", path.read_text(encoding="utf-8"), str(path), player)
    assert "form.txt, line 5" in refused.value.message and "U+2028" in refused.value.message
