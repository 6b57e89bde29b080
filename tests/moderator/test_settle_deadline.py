"""Settling files and deadlines: an order file that was in its inbox before the grace period
ended counts, although it was still settling when the pass that applied the deadline ran; a
file that came after the end does not hold it; a file dated in the future (a player's clock
ahead, a sync tool keeping its times) is answered like any other.

Settling is judged by when the file last changed on the moderator's machine (its inode
change time, which a player cannot set), so these tests move the moderator's file-system
clock (``real_ns``) against that time, and the game clock (deadlines) on its own."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import drop, order_block, read
from .test_moderator import H, results, started


def verdicts(game: Path, name: str) -> list[str]:
    """The Result: line of each of ``name``'s notices, its spacing undone."""
    return [" ".join(line.split()) for line in results(game, name)]


SETTLE = 2
SECOND = 10**9
GRACE_END = 54 * H  # deadline 48h, grace 6h (test_moderator.timing)


def _game(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, Moderator, str]:
    return started(root, keys, clock, "default", SETTLE)


def test_an_order_dropped_just_before_the_grace_end_counts(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, name = _game(root, keys, clock)
    start = clock.now()
    clock.advance(GRACE_END - 1)  # one second before the grace period ends
    dropped = drop(game, name, "orders.txt", order_block(game, keys, name))
    changed = dropped.stat().st_ctime_ns
    mod.real_ns = lambda: changed + SECOND // 2
    assert mod.run_pass().games[0].files == 0 and read(game).turn == 1
    clock.advance(2)  # the grace period is over; the file still settles
    mod.real_ns = lambda: changed + 3 * SECOND // 2
    held = mod.run_pass().games[0]
    assert read(game).turn == 1, "the deadline was applied before the file it had was read"
    assert held.files == 0 and held.next_due == 1, held
    clock.advance(2)
    mod.real_ns = lambda: changed + 3 * SECOND
    taken = mod.run_pass().games[0]
    assert taken.files == 1 and read(game).turn == 2, taken
    assert verdicts(game, name) == ["Result: ACCEPTED"]
    record = load_record(game)
    assert record.seat(name).missed_total == 0
    assert clock.now() - start == GRACE_END + 3
    assert not any("default" in line for line in record.lines), record.lines


def test_a_file_that_came_after_the_grace_end_does_not_hold_it(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, name = _game(root, keys, clock)
    clock.advance(GRACE_END + 5)
    dropped = drop(game, name, "orders.txt", order_block(game, keys, name))
    changed = dropped.stat().st_ctime_ns
    mod.real_ns = lambda: changed + SECOND // 2  # dropped half a second ago: after the end
    mod.run_pass()
    assert read(game).turn == 2, "a file that came after the grace period held the deadline"
    assert load_record(game).seat(name).missed_total == 1
    mod.real_ns = lambda: changed + 3 * SECOND
    mod.run_pass()
    assert verdicts(game, name)[-1].startswith("Result: REJECTED: too late")


def test_a_file_dated_in_the_future_is_answered(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, name = _game(root, keys, clock)
    ahead = drop(game, name, "orders.txt", order_block(game, keys, name), age=-365 * 24 * H)
    changed = ahead.stat().st_ctime_ns
    mod.real_ns = lambda: changed + 3 * SECOND
    result = mod.run_pass().games[0]
    assert result.files == 1 and read(game).turn == 2, result
    assert verdicts(game, name) == ["Result: ACCEPTED"]


def test_a_folder_dated_in_the_future_does_not_keep_its_game_looked_at(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, name = _game(root, keys, clock)
    inbox = game / "inbox" / name
    ahead = inbox.stat().st_mtime_ns + 365 * 24 * H * SECOND
    os.utime(inbox, ns=(ahead, ahead))
    settled = time.time_ns() + 60 * SECOND
    mod.real_ns = lambda: settled
    mod.run_pass()
    assert mod.run_pass().games[0].skipped == "unchanged"
    drop(game, name, "orders.txt", order_block(game, keys, name))
    mod.real_ns = lambda: settled + 60 * SECOND
    result = mod.run_pass().games[0]
    assert result.skipped is None and result.files == 1 and read(game).turn == 2, result
