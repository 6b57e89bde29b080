"""The clock commands say what they did in words a moderator reads: ``pbem extend GAME 24``
said "extended by 24" (24 what?), a second ``pbem pause`` said "paused" again and wrote a
second journal entry, and ``pbem resume`` of a running game wrote "game resumed"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity

from .modkit import new_game


@pytest.fixture
def game(root: Path, keys: dict[str, Identity], tmp_path: Path) -> tuple[str, str]:
    folder = new_game(root, keys, "g1")
    keys["moderator"].save(tmp_path / "moderator.key")
    return str(folder), str(tmp_path / "moderator.key")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _journal(game: str, kind: str) -> list[str]:
    result = run("log", game)
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines() if kind in line]


def test_extend_says_the_unit_and_warns_that_a_bare_number_is_seconds(game: tuple[str, str]) -> None:
    folder, key = game
    result = run("extend", folder, "24", "--key", key)
    assert result.exit_code == 0, result.output
    assert "deadline extended by 24s (in all: 24s)" in result.output, result.output
    assert "24 without a unit is seconds; write 24h for hours" in result.output
    result = run("extend", folder, "1d2h", "--key", key)
    assert "deadline extended by 1d 2h (in all: 1d 2h)" in result.output, result.output
    assert "without a unit" not in result.output
    assert [line for line in _journal(folder, "deadline extended by") if "24s" in line], (
        "the journal says 24s"
    )
    help_text = run("extend", "--help").output
    assert "a number without a unit is seconds" in help_text, help_text


def test_a_second_pause_says_since_when_and_writes_nothing(game: tuple[str, str]) -> None:
    folder, key = game
    assert "paused: orders are still filed" in run("pause", folder, "--key", key).output
    paused = _journal(folder, "game paused")
    assert len(paused) == 1, paused
    again = run("pause", folder, "--key", key)
    assert again.exit_code == 0, again.output
    assert again.output.startswith("already paused since 20") and "nothing changed" in again.output, (
        again.output
    )
    assert _journal(folder, "game paused") == paused
    assert "resumed: turn 1, paused for" in run("resume", folder, "--key", key).output
    resumed = _journal(folder, "game resumed")
    assert len(resumed) == 1, resumed
    once_more = run("resume", folder, "--key", key)
    assert once_more.exit_code == 0 and once_more.output.startswith("not paused: nothing changed"), (
        once_more.output
    )
    assert _journal(folder, "game resumed") == resumed
