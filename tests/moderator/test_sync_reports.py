"""A sync tool deletes a player's report copy, or the player's whole folder and makes it
again: the turn's report is handed out again, or the player could never send the orders
the turn awaits (twelfth session's sync review).  Real ``pbem moderate`` processes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.keys import Identity

from .modkit import awaited
from .synckit import Table, backdate, table


@pytest.fixture
def game(tmp_path: Path, keys: dict[str, Identity]) -> tuple[Table, Path]:
    out = table(tmp_path / "sync", keys)
    first = out.moderate()
    assert first.returncode == 0, first.stderr
    return out, out.root / "g1"


def _journal(game_dir: Path) -> list[str]:
    record = json.loads((game_dir / "moderator" / "record.json").read_text(encoding="utf-8"))
    return [entry["text"] for entry in record["log"]]


def test_a_player_folder_deleted_and_made_again_gets_the_report_back(game: tuple[Table, Path]) -> None:
    out, game_dir = game
    [name] = awaited(game_dir)
    report = game_dir / "players" / name / "report-turn-0001.txt"
    assert report.is_file()
    shutil.rmtree(game_dir / "players" / name)
    (game_dir / "players" / name).mkdir()  # the sync tool makes the folder again, empty

    again = out.moderate()

    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr
    assert report.read_bytes() == (game_dir / "reports" / "turn-0001" / f"{name}.txt").read_bytes()
    assert any(
        f"report was gone from players/ of {name}; handed out again" in line for line in _journal(game_dir)
    )


def test_a_report_deleted_while_the_game_was_idle_is_handed_out_by_the_next_pass(
    game: tuple[Table, Path],
) -> None:
    """The moderator skips a game whose folders did not change (a few ``stat`` calls); a
    player's folder deleted and made again changes ``players/``, so the game is looked at."""
    out, game_dir = game
    backdate(out.root)
    idle = out.moderate()  # the game recorded as idle in the moderator's index
    assert idle.returncode == 0 and "nothing to do" in idle.stdout, idle.stdout + idle.stderr
    shutil.rmtree(game_dir / "players" / "bob")
    (game_dir / "players" / "bob").mkdir()

    again = out.moderate()

    assert again.returncode == 0, again.stderr
    assert (game_dir / "players" / "bob" / "report-turn-0001.txt").is_file()


def test_reports_present_are_not_handed_out_again(game: tuple[Table, Path]) -> None:
    out, game_dir = game
    before = _journal(game_dir)
    again = out.moderate()
    assert again.returncode == 0, again.stderr
    assert _journal(game_dir) == before
