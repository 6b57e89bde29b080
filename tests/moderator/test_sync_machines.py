"""The game folder on a second machine of a sync tool, before the sync tool is done
(twelfth session's sync review): ``save.json`` arrived before the history files that lead
to it, or the history files before the new ``save.json``.  Every command refuses the game
until they are both there, as it should (nothing can tell a late file from a missing one);
what it tells the moderator must not be to put an older save back, which the sync tool
would then carry to the first machine and undo turns.  Real ``pbem`` processes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.keys import Identity

from .synckit import Table, play, table


@pytest.fixture
def played(tmp_path: Path, keys: dict[str, Identity]) -> tuple[Table, Path]:
    """A game played to turn 4 on machine one, and a copy of the root for machine two."""
    out = table(tmp_path / "one", keys)
    play(out, "g1", 3)
    second = tmp_path / "two"
    shutil.copytree(out.root, second / "root")
    return out, second / "root" / "g1"


def _files(game: Path) -> dict[str, bytes]:
    return {str(p.relative_to(game)): p.read_bytes() for p in sorted(game.rglob("*")) if p.is_file()}


def _refused_then_fine(out: Table, copy: Path) -> list[str]:
    """``pbem status`` and a ``pbem moderate`` pass on machine two; what they said."""
    said = []
    before = _files(copy)
    status = out.pbem("status", str(copy), machine="two")
    moderate = out.pbem("moderate", str(copy.parent), "--key", out.key, machine="two")
    for result in (status, moderate):
        assert "Traceback" not in result.stderr and "this is a bug" not in result.stderr, result.stderr
        said.append(result.stdout + result.stderr)
    assert status.returncode == 1
    assert _files(copy) == before, "machine two wrote the game it could not read"
    return said


def test_a_save_that_arrived_before_its_history_says_wait_not_put_back(played: tuple[Table, Path]) -> None:
    out, copy = played
    history = sorted((copy / "history").glob("rev-*.json"))
    late = history[-2:]  # the two newest history files are still on their way
    kept = {p.name: p.read_bytes() for p in late}
    for path in late:
        path.unlink()

    for text in _refused_then_fine(out, copy):
        assert "does not continue this folder's history" in text
        assert "wait until the sync tool is done" in text and "put nothing back" in text, text

    for name, data in kept.items():  # the sync tool is done
        (copy / "history" / name).write_bytes(data)
    assert out.pbem("status", str(copy), machine="two").returncode == 0


def test_history_that_arrived_before_its_save_says_wait(played: tuple[Table, Path]) -> None:
    out, copy = played
    newest = (copy / "save.json").read_bytes()
    history = sorted((copy / "history").glob("rev-*.json"))
    (copy / "save.json").write_bytes(history[-2].read_bytes())  # the save of one turn before

    for text in _refused_then_fine(out, copy):
        assert "an old save was put back" in text
        assert "the newer save.json may not have arrived here yet" in text, text

    (copy / "save.json").write_bytes(newest)
    assert out.pbem("status", str(copy), machine="two").returncode == 0


def test_a_game_whose_history_folder_has_not_arrived_says_wait(played: tuple[Table, Path]) -> None:
    """The sync tool made history/ on the second machine and has not filled it yet (or
    deleted it and is making it again)."""
    out, copy = played
    kept = {p.name: p.read_bytes() for p in (copy / "history").iterdir()}
    shutil.rmtree(copy / "history")
    (copy / "history").mkdir()

    for text in _refused_then_fine(out, copy):
        assert "has no history/rev-000000.json" in text
        assert "history/ may not have arrived here yet: wait until the sync tool is done" in text, text

    for name, data in kept.items():
        (copy / "history" / name).write_bytes(data)
    assert out.pbem("status", str(copy), machine="two").returncode == 0
