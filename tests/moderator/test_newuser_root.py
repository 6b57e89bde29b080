"""A new user's mistake: ``pbem moderate`` (or ``judge``) given a game folder, or a folder
with no game under it, instead of the moderator's root.  It used to run a pass over no game
and say only "nothing to do: 0 game(s)", exit 0, while the game waited."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity

from .modkit import new_game, read


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _key(keys: dict[str, Identity], tmp_path: Path) -> str:
    path = tmp_path / "moderator.key"
    keys["moderator"].save(path)
    return str(path)


def test_moderate_on_a_game_folder_says_to_give_the_root(
    root: Path, keys: dict[str, Identity], tmp_path: Path
) -> None:
    game = new_game(root, keys, "g1")
    before = sorted(p.name for p in game.iterdir())
    result = run("moderate", str(game), "--key", _key(keys, tmp_path))
    assert result.exit_code == 2, result.output
    assert "is a game folder (it holds save.json), not a moderator's root" in result.output
    assert f"pbem moderate {root} --key" in result.output  # what to run instead
    assert sorted(p.name for p in game.iterdir()) == before  # nothing written (no inbox/, players/)
    assert read(game).turn == 1


def test_judge_on_a_game_folder_says_to_give_the_root(
    root: Path, keys: dict[str, Identity], tmp_path: Path
) -> None:
    game = new_game(root, keys, "g1")
    result = run("judge", str(game), "--key", _key(keys, tmp_path))
    assert result.exit_code == 2, result.output
    assert "not a moderator's root" in result.output and f"pbem judge {root} --key" in result.output


def test_a_root_without_games_says_where_games_go(
    root: Path, keys: dict[str, Identity], tmp_path: Path
) -> None:
    result = run("moderate", str(root), "--key", _key(keys, tmp_path))
    assert result.exit_code == 0, result.output
    assert f"nothing to do: no game folder under {root}" in result.output
    assert "pbem new GAME" in result.output


def test_a_root_with_games_still_counts_them(root: Path, keys: dict[str, Identity], tmp_path: Path) -> None:
    new_game(root, keys, "g1")
    key = _key(keys, tmp_path)
    run("moderate", str(root), "--key", key, "--settle", "0")
    result = run("moderate", str(root), "--key", key, "--settle", "0")
    assert result.exit_code == 0 and "nothing to do: 1 game," in result.output
