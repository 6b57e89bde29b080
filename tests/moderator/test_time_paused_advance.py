"""A paused game whose turn was resolved outside the moderator (``pbem submit`` completing it,
before the next pass): ``pbem resume`` resumes it, as the next pass would start the new turn
paused, instead of saying "not paused: nothing changed" while ``pbem status`` says PAUSED."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import awaited, new_game, order_block, read
from .test_moderator import H, moderator, timing


def test_resume_after_a_turn_resolved_outside_the_moderator_while_paused(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game = new_game(root, keys, "g1", toml=timing("default"))
    moderator(root, keys, clock).run_pass()
    [name] = awaited(game)
    admin = GameAdmin.open(game, keys["moderator"], clock)
    admin.pause()
    clock.advance(H)
    text = order_block(game, keys, name)
    at = datetime.fromtimestamp(clock.now(), UTC)
    GameFolder(game).submit(text, keys["moderator"], source="orders.txt", now=at, advance=True)
    assert read(game).turn == 2
    assert status_lines(game, clock.now())[0].startswith("moderator: PAUSED")
    clock.advance(H)
    clock_after, resumed = GameAdmin.open(game, keys["moderator"], clock).resume()
    assert resumed, "resume said the game was not paused"
    assert clock_after.turn == 2 and clock_after.paused_since is None
    moderator(root, keys, clock).run_pass()
    record = load_record(game)
    assert record.clock is not None and record.clock.turn == 2 and record.clock.paused_since is None
    assert not status_lines(game, clock.now())[0].startswith("moderator: PAUSED")
