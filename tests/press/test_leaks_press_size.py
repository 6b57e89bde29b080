"""The size of a report's private part does not depend on the press its player got.

A player's report lists, in its private part, the press relayed to them in the turn before.
Those lines used to count against the game's report size: with long names (32 characters)
and eight messages to several players they took 1,500 bytes, so a large private part went
to the next size (Symbiote's 2,048 bytes doubled) and the hand's length, with the press,
decided which reports did.  Each line now fits in the report's width with any names
(recipients counted, not named: "to you and 2 others") and the private part of a game with
press rules is padded to the game's report size plus room for the longest press lines
(:data:`pbem.press.listing.PRESS_RESERVE`), a public fact.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.press.ledger import Entry
from pbem.press.listing import MAX_LISTED, PRESS_RESERVE, inbox_lines
from pbem.press.rules import ALL, PressRules
from pbem.wording import WIDTH

from .conftest import PressTable, new_table

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # test_sizes
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LONG = tuple(f"{first}-{'x' * (31 - len(first))}" for first in ("alice", "bob", "carol", "dave"))
"""Four player names of 32 characters, the longest a name may be."""


def test_press_lines_fit_the_width_and_the_reserve_with_the_longest_names() -> None:
    names = [f"p{i}{'y' * 30}" for i in range(8)]  # eight players (Parasite's most)
    entries = [
        Entry(
            999_990 + n,
            999_998,
            names[n % 7 + 1],
            tuple(names[:7]),
            False,
            n % 3 == 0,
            f"{n:032X}",
            "",
            False,
            "t",
        )
        for n in range(MAX_LISTED + 2)
    ]
    entries[1] = Entry(999_991, 999_998, names[2], tuple(names), True, False, "", "", True, "")
    lines = inbox_lines(entries, names[0], 999_999, grey=True)
    assert len(lines) == 1 + MAX_LISTED + 1 + 1, lines
    assert all(len(line) <= WIDTH and line.isascii() for line in lines), [len(x) for x in lines]
    assert sum(len(line) + 1 for line in lines) + 2 <= PRESS_RESERVE
    assert "  #999990 from someone to you and 6 others" in lines
    assert "  #999991 from p2" + "y" * 30 + " to all" in lines


def _private_sizes(table: PressTable) -> dict[str, tuple[int, ...]]:
    """The outsider's byte count of each player's report of the table's turn."""
    from test_sizes import outsider_size

    turn = table.folder.read().turn
    return {
        name: outsider_size((table.folder.reports_dir(turn) / f"{name}.txt").read_text(encoding="utf-8"))[1]
        for name in LONG
    }


@pytest.mark.parametrize("game", ["symbioz", "symbiote", "jovian-syzygy"])
def test_a_private_part_is_as_long_whatever_press_its_player_got(game: str, tmp_path: Path) -> None:
    keys = {n: Identity.generate(n) for n in ("moderator", *LONG)}
    rules = PressRules(mode="full", grey=True)
    quiet = new_table(tmp_path / "quiet", keys, rules, "s", game, players=LONG)
    busy = new_table(tmp_path / "busy", keys, rules, "s", game, players=LONG)  # the same seed and hands
    alice, bob, carol, dave = LONG
    for n in range(MAX_LISTED + 3):
        sender = (alice, carol, dave)[n % 3]
        to = tuple(x for x in LONG if x != sender)
        busy.relay(busy.say(sender, to, f"message {n}", grey=n % 4 == 1).text)
    busy.relay(busy.say(bob, (ALL,), "and one to all").text)
    quiet.advance()
    busy.advance()
    got = _private_sizes(busy)
    assert got == _private_sizes(quiet), "the press a player got changed the size of their report"
    from pbem.player import read_report

    text, source = busy.report_text(bob)
    private = read_report(text, source, keys[bob], home=busy.home).private_text or ""
    assert f"Press relayed to you in turn 1: {MAX_LISTED + 3} (copies in press/):" in private
    assert f"  #1 from {alice} to you and 2 others" in private
    assert "  #2 from someone to you and 2 others" in private
