"""``pbem extend`` with odd durations and games: 0 moves nothing and is refused, and so is a
finished game; a game without a deadline is extended with a note saying so; extensions that
add up to more than a hundred years are refused (they once made a record the moderator's own
loader refused, so the next pass dropped the turn's clock and started it again, every
extension lost); the record is untouched by a refused extension."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.errors import UsageError
from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.record import load_record
from pbem.timing import MAX_DURATION, FixedClock

from .modkit import awaited, drop, new_game, order_block, read
from .test_moderator import moderator, timing


def _record(game: Path) -> bytes:
    return (game / "moderator" / "record.json").read_bytes()


def test_extending_by_nothing_is_refused_and_writes_nothing(
    root: Path, keys: dict[str, Identity], clock: FixedClock, tmp_path: Path
) -> None:
    game = new_game(root, keys, "g1", toml=timing("default"))
    moderator(root, keys, clock).run_pass()
    before = _record(game)
    with pytest.raises(UsageError, match="moves nothing"):
        GameAdmin.open(game, keys["moderator"], clock).extend(0)
    assert _record(game) == before
    keys["moderator"].save(tmp_path / "moderator.key")
    result = CliRunner().invoke(main, ["extend", str(game), "0", "--key", str(tmp_path / "moderator.key")])
    assert result.exit_code == 2 and "DURATION: 0s moves nothing" in result.output, result.output
    assert "Traceback" not in result.output and _record(game) == before


def test_extensions_past_a_hundred_years_are_refused_and_the_clock_is_kept(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game = new_game(root, keys, "g1", toml=timing("default"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    admin = GameAdmin.open(game, keys["moderator"], clock)
    refused = None
    for _ in range(320):  # ten years each: 320 of them once passed the record's own bound
        try:
            admin.extend(MAX_DURATION)
        except UsageError as exc:
            refused = str(exc)
            break
    assert refused is not None and "more than a hundred years" in refused, refused
    extended = load_record(game).clock.extended  # type: ignore[union-attr]
    assert extended <= 100 * 365 * 86400
    mod.run_pass()
    record = load_record(game)
    assert record.clock is not None and record.clock.extended == extended, "the turn's clock was lost"
    assert not any("damaged" in line for line in record.lines), record.lines[-3:]
    assert any(line.startswith("deadline: 21") for line in status_lines(game, clock.now()))


def test_a_game_without_a_deadline_says_so_and_a_game_over_is_refused(
    root: Path, keys: dict[str, Identity], clock: FixedClock, tmp_path: Path
) -> None:
    game = new_game(root, keys, "g1")  # no [timing]: deadline "none"
    mod = moderator(root, keys, clock)
    mod.run_pass()
    keys["moderator"].save(tmp_path / "moderator.key")
    result = CliRunner().invoke(main, ["extend", str(game), "1h", "--key", str(tmp_path / "moderator.key")])
    assert result.exit_code == 0, result.output
    assert 'note: this game has no deadline (deadline = "none")' in result.output, result.output
    admin = GameAdmin.open(game, keys["moderator"], clock)
    for step in range(400):
        if read(game).body["outcome"] is not None:
            break
        for name in awaited(game):
            drop(game, name, f"o{step}.txt", order_block(game, keys, name, bot="random", seed=step))
        mod.run_pass()
    (game / "moderator.toml").write_text(timing("default"), encoding="utf-8")
    before = _record(game)
    with pytest.raises(UsageError, match="is over"):
        admin.extend(3600)
    assert _record(game) == before
