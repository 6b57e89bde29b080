"""``pbem verify`` holds a finished game's history against the reports its players read.

A moderator who wrote the whole game again (another seed, its own commitment, every save
signed anew and chained) passes the checks of the history alone: the re-play from the
revealed seed reaches the final save and every signed save is one of its positions.  The
reports the players read during the game cannot be rewritten: pbem keeps a copy of each
report it opens (``$PBEM_HOME/reports/<game id>/``), and ``pbem verify`` now compares each
kept copy, and each ``--report`` file, with the save it was written from: turn, position,
awaited players, and the commitment of the revealed seed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.player import ReportCopies

from .conftest import NOW, PLAYERS, Table, entropy

GAME_ID = "00C0FFEE00C0FFEE"


def _played(root: Path, keys: dict[str, Identity], label: str, reader: Path | None) -> Table:
    """A whole game of id GAME_ID drawn from ``label``; ``reader``: alice's PBEM_HOME, where
    she keeps a copy of each of her reports, as ``pbem read`` does."""
    folder = GameFolder.create(
        root / label,
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in PLAYERS],
        {"dealer": "last-seat"},
        now=NOW,
        entropy=entropy(label),
        home=root / f"{label}-moderator-home",
        game_id=GAME_ID,
    )
    table = Table(folder, keys, root / f"{label}-moderator-home")
    for _ in range(500):
        if reader is not None:
            ReportCopies(reader).keep(table.report("alice"))
        if table.folder.read().body["outcome"] is not None:
            return table
        table.play_step("greedy")
    raise AssertionError("the bots did not finish a game in 500 steps")


@pytest.fixture(scope="module")
def games(
    tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Identity]
) -> Iterator[tuple[Table, Table, Path]]:
    """The game alice played (her reports kept), and another game of the same id, moderator
    and players, drawn from another seed: what a moderator who rewrote the game would show."""
    root = tmp_path_factory.mktemp("witness")
    reader = root / "alice-home"
    played = _played(root, keys, "played", reader)
    rewritten = _played(root, keys, "rewritten", None)
    assert played.folder.read().body["seed_commitment"] != rewritten.folder.read().body["seed_commitment"]
    yield played, rewritten, reader


def _verify(folder: Path, home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["verify", str(folder), *args], env={"PBEM_HOME": str(home)})


def test_the_game_alice_played_agrees_with_her_kept_reports(games: tuple[Table, Table, Path]) -> None:
    played, _, reader = games
    result = _verify(played.folder.path, reader)
    kept = len(list((reader / "reports" / GAME_ID / "alice").iterdir()))
    assert result.exit_code == 0, result.output
    assert f"verified: {kept} reports read during the game (alice; turns 1-" in result.output


def test_a_game_written_again_from_another_seed_is_caught_by_her_reports(
    games: tuple[Table, Table, Path], tmp_path: Path
) -> None:
    _, rewritten, reader = games
    alone = _verify(rewritten.folder.path, tmp_path / "nobody")
    assert alone.exit_code == 0 and "no report of this game is kept" in alone.output, alone.output
    result = _verify(rewritten.folder.path, reader)
    assert result.exit_code == 1, result.output
    assert "alice" in result.output and "than the game's history/rev-" in result.output, result.output


def test_a_report_file_given_is_compared_too(games: tuple[Table, Table, Path], tmp_path: Path) -> None:
    played, rewritten, _ = games
    public = played.folder.reports_dir(2) / "public.txt"
    assert _verify(played.folder.path, tmp_path / "h1", "--report", str(public)).exit_code == 0
    result = _verify(rewritten.folder.path, tmp_path / "h2", "--report", str(public))
    assert result.exit_code == 1 and "public.txt: the report of turn 2" in result.output, result.output


def test_a_report_of_another_game_or_no_report_is_refused(
    games: tuple[Table, Table, Path], finished: Table, tmp_path: Path
) -> None:
    played, _, _ = games
    other = finished.folder.reports_dir(1) / "public.txt"
    result = _verify(played.folder.path, tmp_path / "h", "--report", str(other))
    assert result.exit_code == 1 and "not of game 00C0FFEE00C0FFEE" in result.output, result.output
    junk = tmp_path / "junk.txt"
    junk.write_text("not a report\n")
    result = _verify(played.folder.path, tmp_path / "h", "--report", str(junk))
    assert result.exit_code == 1 and "junk.txt" in result.output, result.output


def test_a_kept_copy_edited_on_the_players_machine_is_refused(
    games: tuple[Table, Table, Path], tmp_path: Path
) -> None:
    played, _, reader = games
    home = tmp_path / "edited"
    shutil.copytree(reader, home)
    copy = sorted((home / "reports" / GAME_ID / "alice").iterdir())[0]
    copy.write_text(copy.read_text().replace("Seed commitment", "Seed  commitment"))
    result = _verify(played.folder.path, home)
    assert result.exit_code == 1 and copy.name in result.output, result.output


def test_a_report_naming_another_seed_commitment_is_caught(games: tuple[Table, Table, Path]) -> None:
    from pbem.archive.rebuild import history
    from pbem.errors import RollbackError
    from pbem.save import Save
    from pbem.witness import witness

    played, _, _ = games
    final = played.folder.read()
    saves = history(played.folder.path, final)
    report = played.folder.reports_dir(1) / "alice.txt"
    reports = [(report.read_text(), str(report))]
    assert witness(saves, final, reports).reports == 1
    other = Save(dict(final.body, seed_commitment="ab" * 32), final.source)
    with pytest.raises(RollbackError, match="another seed commitment"):
        witness(saves, other, reports)


def test_reports_of_turns_a_rollback_undid_still_agree(tmp_path: Path, keys: dict[str, Identity]) -> None:
    """Undone saves stay in history/, so a report read before a rollback still matches the
    save it was written from; the game's commitment is the same before and after."""
    reader = tmp_path / "alice-home"
    folder = GameFolder.create(
        tmp_path / "g",
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in PLAYERS],
        {"dealer": "last-seat"},
        now=NOW,
        entropy=entropy("rolled"),
        home=tmp_path / "moderator-home",
    )
    table = Table(folder, keys, tmp_path / "moderator-home")
    for _ in range(6):
        ReportCopies(reader).keep(table.report("alice"))
        table.play_step("greedy")
    table.folder.rollback(keys["moderator"], 3, now=table.tick(), entropy=entropy("fresh"))
    for _ in range(500):
        ReportCopies(reader).keep(table.report("alice"))
        if table.folder.read().body["outcome"] is not None:
            break
        table.play_step("greedy")
    result = _verify(table.folder.path, reader)
    assert result.exit_code == 0, result.output
    assert "reports read during the game (alice; turns 1-" in result.output
