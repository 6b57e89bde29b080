"""Two folders of one game id under an archive root (a copy, or a fork) are both archived.

Archive files are named after the game and its id, so the second folder's archive was
written over the first's and the index linked one file twice.  Now the second gets its
folder's name added to the file names, and the index links each folder to its own files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main


def test_two_folders_of_one_game_id_get_their_own_archives(finished: dict[str, Path], tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    shutil.copytree(finished["symbiote"], root / "first")
    shutil.copytree(finished["symbiote"], root / "second copy")
    result = CliRunner().invoke(main, ["archive", str(root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    pages = sorted(p.name for p in (tmp_path / "out").glob("*.html") if p.name != "index.html")
    assert len(pages) == 2 and sum(p.endswith("-second_copy.html") for p in pages) == 1, pages
    index = (tmp_path / "out" / "index.txt").read_text()
    for page in pages:
        assert page in index, index
    first, second = ((tmp_path / "out" / page).read_text() for page in pages)
    assert first == second, "the same game, archived twice"
