"""``pbem extend`` after the grace period ended, in a game whose policy waits: the missed turn
counted at the old end is taken back (the seat is not late until the new one ends), and
counted once again only if the seat misses the new end too."""

from __future__ import annotations

from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block, read
from .test_moderator import H, moderator, timing


def _late(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, str]:
    game = new_game(root, keys, "g1", toml=timing("wait", abandon=3))  # 48h, grace 6h
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(55 * H)
    mod.run_pass()
    assert read(game).turn == 1 and load_record(game).seat(name).missed_total == 1
    GameAdmin.open(game, keys["moderator"], clock).extend(24 * H)
    return game, name


def test_an_extension_after_the_grace_end_takes_the_miss_back(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, name = _late(root, keys, clock)
    record = load_record(game)
    assert record.seat(name).missed_total == 0 and record.seat(name).missed_streak == 0, record.seat(name)
    assert record.missed_counted == ()
    assert any("missed turn 1 taken back" in line for line in record.lines), record.lines[-3:]
    clock.advance(H)
    drop(game, name, "orders.txt", order_block(game, keys, name))
    moderator(root, keys, clock).run_pass()
    assert read(game).turn == 2
    assert load_record(game).seat(name).missed_total == 0, "orders sent in the extension counted as missed"


def test_a_seat_that_misses_the_extended_end_too_is_counted_once(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, name = _late(root, keys, clock)
    mod = moderator(root, keys, clock)
    clock.advance(12 * H)
    mod.run_pass()
    assert load_record(game).seat(name).missed_total == 0, "counted before the extended grace ended"
    clock.advance(20 * H)  # the extended grace ends at 78h; the clock now reads 87h
    mod.run_pass()
    mod.run_pass()
    assert load_record(game).seat(name).missed_total == 1
