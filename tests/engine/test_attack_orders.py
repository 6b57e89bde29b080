"""Signature and encryption review (twelfth session): an attacker against order files.

Replays across games, turns and rollbacks are in tests/engine/test_submit.py (BAD, and
test_rollback_to_an_earlier_turn); these are the other angles tried: header lines outside
the signed bytes, and look-alike characters in the signed headers.  All held: each test
fails if the attack works.
"""

from __future__ import annotations

import pytest

from pbem.errors import FormatError, SignatureError
from pbem.orders import open_orders, seal, sign

from .conftest import Table


def test_header_lines_outside_the_signed_block_are_never_read(table: Table) -> None:
    """mallory wraps alice's signed block in a sealed file of her own, with other headers
    above and below it: the engine reads alice's headers, from the signed lines only."""
    name = table.awaited()
    other = next(n for n in ("alice", "bob", "carol") if n != name)
    block = table.signed(name, table.full_turn(name))
    wrapped = f"Game: 0000000000000000\nPlayer: {other}\nSeq: 99\n\n{block}\nTurn: 7\nPlayer: {other}\n"
    signed = open_orders(seal(wrapped, [table.moderator.public()]), table.moderator, "m.txt")
    assert (signed.header.player, signed.header.turn) == (name, 1)
    assert signed.header.seq == table.header(name).seq
    receipt = table.submit(table.sealed(wrapped), "m.txt")
    assert (receipt.player, receipt.turn) == (name, 1)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("Player", "\u0430lice", "Player must be a player name"),  # Cyrillic a
        ("Player", "alice\u200b", "Player must be a player name"),  # zero-width space
        ("Seq", "\uff12", "Seq must be a whole number"),  # fullwidth 2
        ("Turn", "\u0661", "Turn must be a whole number"),  # Arabic-Indic 1
        ("Game", "\uff10" * 16, "Game must be a game id"),
    ],
)
def test_look_alike_characters_in_signed_headers_are_refused(
    table: Table, field: str, value: str, words: str
) -> None:
    """alice signs (her own program, or one mallory handed her) headers whose characters look
    like another seat's name or a number: refused before any seat is looked up."""
    block = table.signed("alice", ["# nothing"])
    lines = block.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{field}:"))
    lines[at] = f"{field}: {value}"
    with pytest.raises(FormatError, match=words):
        table.submit("\n".join(lines) + "\n")


def test_a_block_signed_by_alice_for_bobs_seat_is_refused(table: Table) -> None:
    """Held: the Player header is signed, and the signature must be that seat's key."""
    header = table.header("bob")
    block = sign(table.keys["alice"], header, ["# nothing"])
    with pytest.raises(SignatureError, match="say Player: bob but were signed with alice's key"):
        table.submit(table.sealed(block))
