"""After ``pbem rollback`` of a game the moderator runs, ``pbem status`` shows the deadline of
the turn rolled back to at once, counted from the rollback.

Before, the rollback dropped the turn clock, so ``status`` showed no deadline (and the game
looked unmoderated) until the next pass started a clock; a game never run by the moderator
still shows none."""

from __future__ import annotations

from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.actions import status_lines
from pbem.moderator.config import RootConfig
from pbem.moderator.overview import game_line
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .test_moderator import H
from .test_time_rollback_paused import turn_two


def test_a_rollback_shows_the_new_deadline_at_once(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, admin = turn_two(root, keys, clock)
    clock.advance(5 * H)
    assert admin.rollback(1) == 1
    record = load_record(game)
    assert record.clock is not None and record.clock.turn == 1
    assert record.clock.started == clock.now(), "the turn's clock starts at the rollback"
    shown = status_lines(game, clock.now())
    assert shown and shown[0].startswith("deadline: "), shown
    line = game_line(game, clock.now(), RootConfig.load(root), None)
    assert line.moderated and line.deadline is not None and line.deadline > clock.now(), line
    before = line.deadline
    mod.run_pass()  # the next pass keeps that clock: the deadline does not move
    assert game_line(game, clock.now(), RootConfig.load(root), None).deadline == before
