"""Counts in what the moderator's commands and notices print read as English: "missed 1
turn", "After 1 missed turn", "pass: 1 game", not "1 turn(s)" or "1 game(s)"."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.keys import Identity
from pbem.moderator.notices import abandoned_notice, stand_in_notice

from .modkit import new_game


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_notices_count_missed_turns_in_words() -> None:
    told = abandoned_notice("G", 3, "now", "default", 1, "consecutive").render()
    assert "You have missed 1 turn in a row" in _flat(told), told
    many = abandoned_notice("G", 5, "now", "default", 3, "total").render()
    assert "You have missed 3 turns in all" in _flat(many), many
    stand = stand_in_notice("G", 2, "now", "alice", "default", ["pass"], 1, 1).render()
    assert "After 1 missed turn a seat is marked abandoned." in _flat(stand), stand
    assert "(s)" not in told + many + stand


def test_a_verbose_pass_counts_in_words(root: Path, keys: dict[str, Identity], tmp_path: Path) -> None:
    new_game(root, keys, "g1")
    key = tmp_path / "moderator.key"
    keys["moderator"].save(key)
    result = CliRunner().invoke(main, ["moderate", str(root), "--key", str(key), "--settle", "0", "-v"])
    assert result.exit_code == 0, result.output
    assert "pass: 1 game, 1 looked at, 0 files, 0 turns resolved" in result.output, result.output
    assert "(s)" not in result.output, result.output
