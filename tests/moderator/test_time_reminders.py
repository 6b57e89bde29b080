"""Reminders after the moderator moved the deadline: a reminder already sent names the old
deadline, so once ``pbem extend`` (or a pause and resume) moves the deadline past the
reminder's time, the reminder is sent again before the new deadline, as a new file naming
it; a reminder whose time has passed even at the moved deadline stays sent (a pause moves
the reminders with the deadline, so none is sent twice), and ``pbem status`` says which is
which."""

from __future__ import annotations

from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .test_moderator import H, moderator, started


def _reminders(game: Path, name: str) -> list[str]:
    return sorted(p.name for p in (game / "players" / name).glob("reminder-*"))


def _marks(game: Path, now: int) -> list[str]:
    """The [planned]/[due]/[sent]/[not sent: ...] mark of each reminder line of ``pbem status``."""
    return ["[" + line.rsplit("[", 1)[1] for line in status_lines(game, now) if line.startswith("reminder ")]


def _started(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, str]:
    game, mod, name = started(root, keys, clock, "default")  # 48h, reminders 24h and 2h
    clock.advance(47 * H)
    mod.run_pass()
    assert _reminders(game, name) == ["reminder-turn-0001-1.txt", "reminder-turn-0001-2.txt"]
    return game, name


def test_reminders_are_sent_again_before_an_extended_deadline(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, name = _started(root, keys, clock)
    GameAdmin.open(game, keys["moderator"], clock).extend(48 * H)
    assert _marks(game, clock.now()) == ["[planned]", "[planned]"], status_lines(game, clock.now())
    clock.advance(26 * H)  # the first reminder of the moved deadline (48h + 48h - 24h) is due
    moderator(root, keys, clock).run_pass()
    again = [f for f in _reminders(game, name) if "until" in f]
    assert again == ["reminder-turn-0001-1-until-20270119T0801Z.txt"], _reminders(game, name)
    text = (game / "players" / name / again[0]).read_text()
    assert "Deadline: 2027-01-19T08:01:00+00:00." in text, text
    assert _marks(game, clock.now()) == ["[sent]", "[planned]"]
    clock.advance(21 * H)
    moderator(root, keys, clock).run_pass()
    assert len([f for f in _reminders(game, name) if "until" in f]) == 2
    assert sum("reminder 2 for turn 1" in line for line in load_record(game).lines) == 2


def test_a_reminder_still_past_after_a_short_extension_stays_sent(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, name = _started(root, keys, clock)
    GameAdmin.open(game, keys["moderator"], clock).extend(H // 2)
    assert _marks(game, clock.now()) == ["[sent]", "[sent]"]
    moderator(root, keys, clock).run_pass()
    assert len(_reminders(game, name)) == 2, "a reminder whose time had passed was sent again"


def test_a_pause_moves_the_reminders_with_the_deadline_and_sends_none_twice(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, name = _started(root, keys, clock)
    admin = GameAdmin.open(game, keys["moderator"], clock)
    admin.pause()
    clock.advance(30 * H)
    admin.resume()  # both reminders move 30h on with the deadline: their times are still past
    assert _marks(game, clock.now()) == ["[sent]", "[sent]"], status_lines(game, clock.now())
    moderator(root, keys, clock).run_pass()
    assert len(_reminders(game, name)) == 2, "a pause made the reminders go out again"


def test_status_says_a_reminder_the_deadline_overtook_was_not_sent(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, mod, name = started(root, keys, clock, "wait")
    clock.advance(50 * H)  # the moderator was not running from the start to past the deadline
    mod.run_pass()
    assert _reminders(game, name) == [], "a reminder was sent after its deadline"
    marks = _marks(game, clock.now())
    assert marks == ["[not sent: the deadline came first]"] * 2, status_lines(game, clock.now())
