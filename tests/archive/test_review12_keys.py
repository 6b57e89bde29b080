"""Archive review (twelfth session): ``pbem archive --key`` with a player's key over games
that key has no seat in.

A club's root holds games of many tables.  A player archiving it with their key (for their
own running games) got exit 1 and "not archived: key alice ... holds no seat in game ..."
for every other table's game: the finished ones, public to anyone without a key, and the
running ones, which a keyless archive lists as "not over yet".  Now a finished game is
archived whatever key is given, and a running game the key cannot open is listed as not
over yet; only a real refusal fails the command.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main

from .conftest import Played, play


def pbem(*args: str) -> Result:
    return CliRunner().invoke(main, [*args], catch_exceptions=False)


def test_a_players_key_over_a_root_of_other_tables_games(
    finished: dict[str, Path], midgame: Played, tmp_path: Path
) -> None:
    other = play(tmp_path / "other", "symbiote", 3, seed=2)  # another table's running game, its own keys
    root = tmp_path / "root"
    shutil.copytree(midgame.folder, root / "mine")
    shutil.copytree(finished["symbioz"], root / "done")
    shutil.copytree(other.folder, root / "theirs")
    alice = midgame.key_file("alice")
    result = pbem("archive", str(root), "--out", str(tmp_path / "out"), "--key", str(alice))
    assert result.exit_code == 0, result.output
    assert "not archived" not in result.output
    index = (tmp_path / "out" / "index.txt").read_text(encoding="utf-8")
    assert "mine: Symbiote, 9 turns played: not over" in index  # alice's own archive
    assert re.search(r"^done: Symbioz, [0-9]+ turns played: .* wins", index, re.MULTILINE), index
    flat = " ".join(index.split())  # the index folds its lines at 72 columns
    assert "theirs: Symbiote, not over yet (turn " in flat and "(key alice holds no seat in it)" in flat
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len([n for n in names if n.endswith("-alice.html")]) == 1
    assert len([n for n in names if n.startswith("symbioz-") and n.endswith(".html")]) == 1
    # the finished game is the same full archive as without a key
    plain = pbem("archive", str(finished["symbioz"]), "--out", str(tmp_path / "plain"))
    keyed = pbem("archive", str(finished["symbioz"]), "--out", str(tmp_path / "keyed"), "--key", str(alice))
    assert plain.exit_code == keyed.exit_code == 0, keyed.output
    for page in (tmp_path / "plain").iterdir():
        assert (tmp_path / "keyed" / page.name).read_bytes() == page.read_bytes()


def test_a_running_game_with_a_key_that_holds_no_seat_is_still_refused(
    midgame: Played, tmp_path: Path
) -> None:
    other = play(tmp_path / "other", "symbiote", 3, seed=2)
    result = pbem(
        "archive", str(other.folder), "--out", str(tmp_path / "out"), "--key", str(midgame.key_file("bob"))
    )
    assert result.exit_code == 1 and "holds no seat in game" in result.output
    assert not (tmp_path / "out").exists()
