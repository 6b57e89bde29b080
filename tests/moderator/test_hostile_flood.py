"""Hostile input review (tenth session): one player's flood of inbox files must not hold back
another player's orders.

A pass takes at most MAX_FILES_PER_PASS inbox entries of a game.  It used to take the oldest
of all inbox folders together, so a player who dropped more than that many junk files, dated
in the past (a player sets the times of the files they write; sync tools keep them), pushed
every other player's orders out of every pass: they could be kept from counting until the
deadline.  Now a pass takes entries in turn from each inbox folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator import core
from pbem.moderator.core import Moderator
from pbem.moderator.scan import InboxFile, fair_share
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block, read


def _entry(folder: str, mtime: int) -> InboxFile:
    return InboxFile(Path(f"inbox/{folder}/{mtime}"), folder, 1, mtime)


def test_fair_share_takes_in_turn_from_each_folder_and_keeps_the_order() -> None:
    files = [_entry("bob", t) for t in range(6)] + [_entry("alice", 10), _entry("", 11)]
    chosen = fair_share(files, 4)
    assert chosen == [0, 1, 6, 7], "bob's two oldest, alice's and the top-level file"
    assert fair_share(files, 100) == list(range(8))
    assert fair_share([], 3) == []


def test_a_backdated_flood_in_one_inbox_does_not_hold_back_anothers_orders(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(core, "MAX_FILES_PER_PASS", 4)
    game = new_game(root, keys, "g1")
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0)
    assert mod.run_pass().games[0].error is None
    [name] = awaited(game)
    flooder = next(n for n in ("alice", "bob", "carol") if n != name)
    for i in range(12):
        junk = drop(game, flooder, f"junk-{i:02d}.txt", f"junk {i}\n")
        os.utime(junk, (1_000_000 + i, 1_000_000 + i))  # dated 1970: older than anything
    drop(game, name, "orders.txt", order_block(game, keys, name), age=10)
    first = mod.run_pass().games[0]
    assert first.error is None and first.files == 4
    assert "accepted" in first.notices, first.notices
    assert read(game).turn == 2
    assert len(os.listdir(game / "inbox" / flooder)) == 12 - 3, "the rest of the flood waits"
