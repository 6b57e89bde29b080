"""A Seq far above the last accepted one is refused, so a typo cannot lock a player out.

Seq numbers only go up and have at most nine digits.  A player who typed ``Seq: 999999999``
had it accepted, and then no later file could be numbered above it: every further order
file of the game was refused as replayed.  Now a file may number itself at most
``MAX_SEQ_STEP`` above the seat's last accepted Seq; beyond, it is refused with the number to
use, and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import FormatError, ReplayError
from pbem.orders import MAX_SEQ_STEP, OrderHeader
from pbem.player import SignedSeqs, check_orders, form_header

from .conftest import Table


def test_a_seq_of_nine_nines_is_refused_with_the_number_to_use(table: Table) -> None:
    name = table.awaited()
    last = table.folder.read().body["seq"][name]
    before = table.save_bytes
    with pytest.raises(ReplayError, match=f"sign the orders again with Seq: {last + 1}"):
        table.submit(table.sealed(table.signed(name, seq=999_999_999)))
    assert table.save_bytes == before
    assert not list(table.folder.orders_dir(1).glob("*.txt"))


def test_a_jump_up_to_the_step_is_taken_and_the_game_goes_on(table: Table) -> None:
    name = table.awaited()
    last = table.folder.read().body["seq"][name]
    with pytest.raises(ReplayError, match="far above the last accepted"):
        table.submit(table.sealed(table.signed(name, seq=last + MAX_SEQ_STEP + 1)))
    receipt = table.submit(table.sealed(table.signed(name, seq=last + MAX_SEQ_STEP)))
    assert receipt.seq == last + MAX_SEQ_STEP
    again = table.submit(table.sealed(table.signed(name, seq=last + MAX_SEQ_STEP + 1)))
    assert again.replaced, "a later file of the same turn still has numbers left"


def test_a_form_stays_within_reach_after_a_refused_typo(table: Table, tmp_path: Path) -> None:
    """pbem sign remembered the typed 999999999 as the highest Seq signed here, so every next
    form asked for 1000000000, which nothing takes: the form now stays within the step."""
    name = table.awaited()
    report = table.report(name)
    home = tmp_path / "player-home"
    accepted = int(report.data["seq"] or 0)
    SignedSeqs(home).signed(OrderHeader(report.data["game_id"], report.data["turn"], name, 999_999_999))
    header = form_header(report, home)
    assert header.seq == accepted + MAX_SEQ_STEP
    table.submit(table.sealed(table.signed(name, seq=header.seq)))  # and the moderator takes it


def test_pbem_check_says_the_number_to_use(table: Table) -> None:
    name = table.awaited()
    text, source = table.report_text(name)
    accepted = int(table.report(name).data["seq"] or 0)
    far = table.signed(name, seq=accepted + MAX_SEQ_STEP + 1)
    with pytest.raises(FormatError, match=f"write Seq: {accepted + 1}"):
        check_orders(far, "orders.txt", text, source, table.keys[name])
    assert (
        check_orders(table.signed(name, seq=accepted + 1), "orders.txt", text, source, table.keys[name]) > 0
    )
