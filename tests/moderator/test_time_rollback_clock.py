"""A moderator command that starts a turn's clock (``pbem pause`` or ``pbem extend`` right
after ``pbem rollback``, before the next pass) starts it as a pass would: the reminders sent,
missed turns counted and stand-ins of the turn rolled back from are not carried into the turn
rolled back to (its reminders stayed marked sent and never went out)."""

from __future__ import annotations

from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import awaited, drop, order_block, read
from .test_moderator import H, started


def test_a_clock_started_by_a_command_after_a_rollback_forgets_the_later_turns_reminders(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, name = started(root, keys, clock, "default")  # 48h, reminders 24h and 2h
    drop(game, name, "orders.txt", order_block(game, keys, name))
    mod.run_pass()
    assert read(game).turn == 2
    clock.advance(47 * H)
    mod.run_pass()
    assert load_record(game).reminders_sent == (0, 1)
    admin = GameAdmin.open(game, keys["moderator"], clock)
    assert admin.rollback(1) == 1
    admin.pause()  # before any pass: the command starts turn 1's clock
    assert load_record(game).reminders_sent == (), "turn 2's reminders were carried into turn 1"
    admin.resume()
    admin.extend(H)
    record = load_record(game)
    assert record.clock is not None and record.clock.turn == 1
    assert record.reminders_sent == (), "turn 2's reminders were carried into turn 1"
    marks = [
        line.rsplit(" ", 1)[1] for line in status_lines(game, clock.now()) if line.startswith("reminder")
    ]
    assert marks == ["[planned]", "[planned]"]
    clock.advance(47 * H)
    mod.run_pass()
    [again] = awaited(game)
    sent = sorted(p.name for p in (game / "players" / again).glob("reminder-turn-0001-*-until-*"))
    assert len(sent) == 2, sent
