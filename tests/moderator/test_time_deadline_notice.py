"""The players who still owe orders are told when the moderator moves or stops their deadline
(``pbem extend``, ``pause``, ``resume``): a notice in their folder naming the new deadline,
mailed too where the mail judge keeps its outbox; the others are not disturbed.  (Before,
nobody was told: the last reminder a player had named the old deadline.)"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin
from pbem.timing import FixedClock

from .modkit import NAMES, awaited, new_game
from .test_moderator import H, moderator, timing


def _notices(game: Path, name: str) -> list[str]:
    return sorted(p.name for p in (game / "players" / name).glob("deadline-*"))


def test_the_awaited_seat_is_told_of_an_extension_a_pause_and_a_resume(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game = new_game(root, keys, "g1", toml=timing("default"))  # 48h, grace 6h
    moderator(root, keys, clock).run_pass()
    [name] = awaited(game)
    admin = GameAdmin.open(game, keys["moderator"], clock)
    admin.extend(24 * H)
    [told] = _notices(game, name)
    assert told == "deadline-turn-0001-extended-20270118T080100Z.txt", told
    text = " ".join((game / "players" / name / told).read_text().split())
    assert "extended the deadline of turn 1" in text and "due by 2027-01-18T08:01:00+00:00" in text, text
    assert "accepted until 2027-01-18T14:01:00+00:00 (grace period)" in text, text
    assert not [n for n in NAMES if n != name and _notices(game, n)], "a seat that owes nothing was told"
    admin.pause()
    clock.advance(2 * H)
    admin.resume()
    told_all = _notices(game, name)
    assert len(told_all) == 3 and any("-paused-" in f for f in told_all), told_all
    [resumed] = [f for f in told_all if "-resumed-" in f]
    assert "due by 2027-01-18T10:01:00+00:00" in (game / "players" / name / resumed).read_text().replace(
        "\n", " "
    )


def test_the_notice_is_mailed_where_the_judge_keeps_its_outbox(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    players = "".join(f'[players.{n}]\nemail = "{n}@example.org"\n' for n in NAMES)
    game = new_game(root, keys, "g1", toml=timing("default") + players)
    moderator(root, keys, clock).run_pass()
    [name] = awaited(game)
    admin = GameAdmin.open(game, keys["moderator"], clock)
    (admin.state_dir / "outbox").mkdir(parents=True, exist_ok=True)
    admin.extend(H)
    queued = [json.loads(p.read_text()) for p in (admin.state_dir / "outbox").glob("*.json")]
    assert [m["to"] for m in queued] == [f"{name}@example.org"], queued
    assert queued[0]["subject"].endswith("deadline extended: turn 1"), queued[0]["subject"]
    assert "due by 2027-01-17T09:01:00+00:00" in " ".join(queued[0]["body"].split())
