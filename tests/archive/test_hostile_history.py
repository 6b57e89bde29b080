"""Hostile input review (tenth session): a history/ holding a revision beyond the save.

Before, the archive refused it with "history lacks the saves of revisions  (the game is at
revision 0)": no revision named, since none is missing.  Now the message names the file
beyond the save and says what to do.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.archive.rebuild import history
from pbem.engine import GameFolder
from pbem.errors import RollbackError
from pbem.keys import Identity
from pbem.rng import seeded_entropy


@pytest.fixture
def game(tmp_path: Path) -> GameFolder:
    moderator = Identity.generate("moderator")
    return GameFolder.create(
        tmp_path / "game",
        "symbiote",
        moderator,
        [Identity.generate(name).public() for name in ("alice", "bob", "carol")],
        {},
        now=datetime(2026, 5, 1, tzinfo=UTC),
        entropy=seeded_entropy("hostile-history"),
        home=tmp_path / "home",
    )


@pytest.mark.parametrize("content", ["copy", "empty"])
def test_a_revision_beyond_the_save_is_named(game: GameFolder, content: str) -> None:
    stray = game.path / "history" / "rev-000007.json"
    if content == "copy":
        shutil.copy(game.path / "history" / "rev-000000.json", stray)
    else:
        stray.write_bytes(b"")
    with pytest.raises(RollbackError) as caught:
        history(game.path, game.read())
    message = caught.value.message
    assert "holds revision 7, beyond" in message and "revision 0" in message
    assert "lacks the saves of revisions  " not in message
    assert "rev-000007.json" in (caught.value.hint or "")


def test_a_complete_history_still_passes(game: GameFolder) -> None:
    assert [save.revision for save in history(game.path, game.read())] == [0]
