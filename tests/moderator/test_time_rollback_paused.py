"""A paused game stays paused through ``pbem rollback``: the turn rolled back to starts its
clock paused (no reminder, deadline or stand-in until ``pbem resume``), instead of running
again unasked."""

from __future__ import annotations

from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.core import Moderator
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import awaited, drop, order_block, read
from .test_moderator import H, started


def turn_two(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, Moderator, GameAdmin]:
    """A moderated game with one turn played (at turn 2), its moderator, and the moderator's
    commands on it (:class:`GameAdmin`)."""
    game, mod, name = started(root, keys, clock, "default")
    drop(game, name, "orders.txt", order_block(game, keys, name))
    mod.run_pass()
    assert read(game).turn == 2
    return game, mod, GameAdmin.open(game, keys["moderator"], clock)


def test_a_rollback_of_a_paused_game_keeps_it_paused(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, admin = turn_two(root, keys, clock)
    admin.pause()
    assert admin.rollback(1) == 1
    shown = status_lines(game, clock.now())
    assert shown[:1] == ["moderator: PAUSED (no deadline runs until resumed)"], shown
    mod.run_pass()
    clock.advance(60 * H)  # past the deadline and the grace period of a running clock
    mod.run_pass()
    [again] = awaited(game)
    assert read(game).turn == 1, "the paused game's turn was resolved by the stand-in"
    assert not list((game / "players" / again).glob("reminder-*")), "a paused game sent reminders"
    assert load_record(game).seat(again).missed_total == 0
    _, resumed = admin.resume()
    assert resumed
    assert status_lines(game, clock.now())[0].startswith("deadline: "), status_lines(game, clock.now())
