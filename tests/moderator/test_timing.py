"""The timing policy: durations, reminders, deadlines, grace, pause/extend, missed turns."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import UsageError
from pbem.timing import (
    FixedClock,
    Missing,
    SeatRecord,
    TimingPolicy,
    TurnClock,
    due,
    format_duration,
    parse_duration,
    record_turn,
    stand_in,
)

H = 3600
POLICY = TimingPolicy.from_toml(
    {
        "deadline": "48h",
        "reminders": ["2h", "24h"],
        "grace": "6h",
        "on_missing": "bot:greedy",
        "abandon_after": 2,
    }
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("48h", 48 * H),
        ("2d", 48 * H),
        ("1h30m", 5400),
        ("90s", 90),
        (120, 120),
        ("1w", 7 * 86400),
        ("10", 10),
    ],
)
def test_parse_duration(text: object, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("bad", ["", "2 days", "h", "-5", -5, True, 1.5, "3x"])
def test_bad_duration_names_the_setting(bad: object) -> None:
    with pytest.raises(UsageError, match="grace"):
        parse_duration(bad, "grace")


def test_format_duration() -> None:
    assert format_duration(90061) == "1d 1h"
    assert format_duration(0) == "0s"


def test_policy_from_toml() -> None:
    assert POLICY.deadline == 48 * H
    assert POLICY.reminders == (24 * H, 2 * H)
    assert POLICY.on_missing == Missing("bot", "greedy")
    assert TimingPolicy.from_toml({}).deadline is None


@pytest.mark.parametrize(
    ("table", "match"),
    [
        ({"deadline": "1h", "reminders": ["2h"]}, "reminder"),
        ({"on_missing": "panic"}, "on_missing"),
        ({"deadlin": "1h"}, "unknown"),
        ({"abandon_after": -1}, "abandon_after"),
        ({"on_abandoned": "wait"}, "on_abandoned"),
        ({"deadline": 0}, "deadline"),
    ],
)
def test_bad_policies(table: dict, match: str) -> None:
    with pytest.raises(UsageError, match=match):
        TimingPolicy.from_toml(table)


def test_reminders_then_deadline_then_grace() -> None:
    clock = TurnClock(turn=1, started=0)
    assert due(POLICY, clock, 0).reminders == ()
    assert due(POLICY, clock, 0).next_event == 24 * H
    assert due(POLICY, clock, 24 * H).reminders == (0,)
    assert due(POLICY, clock, 46 * H).reminders == (0, 1)
    at_deadline = due(POLICY, clock, 48 * H)
    assert at_deadline.deadline_passed and not at_deadline.grace_over and at_deadline.reminders == ()
    assert at_deadline.next_event == 54 * H
    over = due(POLICY, clock, 54 * H)
    assert over.grace_over and over.next_event is None


def test_extend_moves_every_time() -> None:
    clock = TurnClock(1, 0).extend(10 * H)
    assert due(POLICY, clock, 48 * H).deadline_passed is False
    assert due(POLICY, clock, 34 * H - 1).reminders == ()
    assert due(POLICY, clock, 34 * H).reminders == (0,)


def test_pause_stops_everything_and_resume_adds_the_paused_time() -> None:
    clock = TurnClock(1, 0).pause(10 * H)
    during = due(POLICY, clock, 100 * H)
    assert during.paused and not during.deadline_passed and during.next_event is None
    resumed = clock.resume(30 * H)
    assert resumed.paused_total == 20 * H
    assert due(POLICY, resumed, 67 * H).deadline_passed is False
    assert due(POLICY, resumed, 68 * H).deadline_passed is True
    assert clock.pause(50 * H) == clock  # pausing twice changes nothing
    assert TurnClock(1, 0).resume(5) == TurnClock(1, 0)


def test_no_deadline_never_falls_due() -> None:
    policy = TimingPolicy.from_toml({"deadline": "none", "reminders": []})
    result = due(policy, TurnClock(1, 0), 10**9)
    assert not result.deadline_passed and result.next_event is None


def test_turn_clock_json_round_trip() -> None:
    clock = TurnClock(3, 100, 5, 200, 7)
    assert TurnClock.from_json(clock.to_json()) == clock


def test_abandon_after_consecutive_misses_and_stand_in() -> None:
    rec = SeatRecord()
    rec = record_turn(POLICY, rec, missed=True)
    assert not rec.abandoned and stand_in(POLICY, rec) == Missing("bot", "greedy")
    rec = record_turn(POLICY, rec, missed=False)
    assert rec.missed_streak == 0 and rec.missed_total == 1
    rec = record_turn(POLICY, rec, missed=True)
    assert not rec.abandoned
    rec = record_turn(POLICY, rec, missed=True)
    assert rec.abandoned and stand_in(POLICY, rec) == Missing("default")
    assert record_turn(POLICY, rec, missed=False).abandoned  # until the moderator replaces the player


def test_abandon_count_total() -> None:
    policy = TimingPolicy.from_toml({"abandon_after": 2, "abandon_count": "total"})
    rec = record_turn(policy, SeatRecord(), True)
    rec = record_turn(policy, rec, False)
    assert record_turn(policy, rec, True).abandoned


def test_never_abandon_when_zero() -> None:
    policy = TimingPolicy.from_toml({"abandon_after": 0})
    rec = SeatRecord()
    for _ in range(50):
        rec = record_turn(policy, rec, True)
    assert not rec.abandoned and rec.missed_total == 50


def test_fixed_clock() -> None:
    clock = FixedClock(100)
    clock.advance(5)
    assert clock.now() == 105


@settings(max_examples=150, deadline=None)
@given(
    deadline=st.integers(1, 10**6),
    reminders=st.lists(st.integers(1, 10**6), max_size=4),
    grace=st.integers(0, 10**5),
    started=st.integers(0, 10**9),
    extended=st.integers(0, 10**5),
    now=st.integers(0, 2 * 10**9),
)
def test_due_invariants(
    deadline: int, reminders: list[int], grace: int, started: int, extended: int, now: int
) -> None:
    reminders = [r for r in reminders if r < deadline]
    policy = TimingPolicy.from_toml({"deadline": deadline, "reminders": reminders, "grace": grace})
    clock = TurnClock(1, started, extended)
    result = due(policy, clock, now)
    assert result.deadline == started + deadline + extended
    assert result.grace_over <= result.deadline_passed  # grace over implies deadline passed
    assert result.deadline_passed == (now >= result.deadline)
    if result.deadline_passed:
        assert result.reminders == ()
    if result.next_event is not None:
        assert result.next_event > now
        later = due(policy, clock, result.next_event)
        assert (later.reminders, later.deadline_passed, later.grace_over) != (
            result.reminders,
            result.deadline_passed,
            result.grace_over,
        )  # something new happens at the next event
    else:
        assert result.grace_over


def test_the_example_configs_parse() -> None:
    import shutil
    import tempfile
    import tomllib
    from pathlib import Path

    from pbem.mail.settings import mail_settings
    from pbem.moderator.config import GameConfig, RootConfig

    repo = Path(__file__).resolve().parents[2]
    root = Path(tempfile.mkdtemp())
    try:
        shutil.copy(repo / "examples" / "moderator.toml", root / "moderator.toml")
        (root / "g").mkdir()
        shutil.copy(repo / "examples" / "game-moderator.toml", root / "g" / "moderator.toml")
        config = RootConfig.load(root)
        game = GameConfig.load(root / "g", config)
        assert game.timing.deadline == 72 * H and game.timing.reminders == (24 * H, 2 * H)
        assert game.email_of("Bob") == "bob@example.net"
        settings = mail_settings(tomllib.loads((root / "moderator.toml").read_text()), shared_root=root)
        assert settings.imap.password_env == "PBEM_IMAP_PASSWORD"
    finally:
        shutil.rmtree(root)
