"""``pbem verify`` checks the whole signed record of a finished game, not only its last save.

It re-played the published orders from the revealed seed and compared the final position;
the saves of ``history/`` were not read, so a damaged, missing or rewritten history file
passed it (only ``pbem archive`` noticed).  Now it also checks every signed save there:
verified, chained, and each one the position and awaited players of the re-play at its
turn, so a moderator who changed a position mid-game and signed every later save again is
caught.  Each case goes through the real command and asserts its exit code and message.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.integrity import history_path
from pbem.save import encode_save, read_save

from .conftest import Table


def _verify(folder: Path) -> Result:
    return CliRunner().invoke(main, ["verify", str(folder)])


def _copy(finished: Table, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished.folder.path, tmp_path / "game"))


def test_a_finished_game_is_verified_save_by_save(finished: Table) -> None:
    result = _verify(finished.folder.path)
    save = finished.folder.read()
    assert result.exit_code == 0, result.output
    assert f"the {save.revision + 1} signed saves of history/ are positions of that re-play" in result.output


def test_a_damaged_history_file_is_refused(finished: Table, tmp_path: Path) -> None:
    game = _copy(finished, tmp_path)
    path = history_path(game, 3)
    raw = bytearray(path.read_bytes())
    raw[raw.index(b'"public"') + 12] ^= 1
    path.write_bytes(bytes(raw))
    result = _verify(game)
    assert result.exit_code == 1 and "rev-000003.json" in result.output, result.output


def test_a_missing_history_file_is_refused(finished: Table, tmp_path: Path) -> None:
    game = _copy(finished, tmp_path)
    history_path(game, 4).unlink()
    result = _verify(game)
    assert result.exit_code == 1 and "lacks the saves of revisions 4" in result.output, result.output


def test_a_position_changed_and_every_later_save_signed_again_is_caught(
    finished: Table, tmp_path: Path
) -> None:
    """The moderator's own key rewrites history from revision 5 on: every signature and
    every ``prev`` link is right, but revision 5's position is not the re-play's."""
    game = _copy(finished, tmp_path)
    card = finished.moderator.public()
    final = finished.folder.read()
    prev = read_save(history_path(game, 4).read_bytes(), "rev-4", card).digest
    for revision in range(5, final.revision + 1):
        old = read_save(history_path(game, revision).read_bytes(), f"rev-{revision}", card)
        body: dict[str, Any] = dict(old.body, prev=prev)
        if revision == 5:
            body["awaiting"] = [seat for seat in range(len(old.names)) if seat not in old.awaiting][:1]
        data, new = encode_save(body, finished.moderator, str(history_path(game, revision)))
        history_path(game, revision).write_bytes(data)
        if revision == final.revision:
            (game / "save.json").write_bytes(data)
        prev = new.digest
    result = _verify(game)
    assert result.exit_code == 1, result.output
    assert "list of awaited players" in result.output and "revision 5" in result.output, result.output
