"""A Seq far above the last accepted one is refused, so a typo cannot lock a player out.

Seq numbers only go up and have at most nine digits.  A player who typed ``Seq: 999999999``
had it accepted, and then no later file could be numbered above it: every further order
file of the game was refused as replayed.  Now a file may number itself at most
``MAX_SEQ_STEP`` above the seat's last accepted Seq; beyond, it is refused with the number to
use, and nothing is written.
"""

from __future__ import annotations

import pytest

from pbem.engine import MAX_SEQ_STEP
from pbem.errors import ReplayError

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
