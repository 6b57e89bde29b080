"""A new user's typo in a seat's name: ``pbem resign GAME dave`` (or ``replace``) at a table
without a dave said only "no player called 'dave'"; now it names the game and lists the
seats to choose from, and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity

from .modkit import new_game, read


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("command", ["resign", "replace"])
def test_an_unknown_seat_lists_the_seats(
    command: str, root: Path, keys: dict[str, Identity], tmp_path: Path
) -> None:
    game = new_game(root, keys, "g1")
    key = tmp_path / "moderator.key"
    keys["moderator"].save(key)
    card = tmp_path / "dora.pub"
    card.write_text(Identity.generate("dora").public().to_text(), encoding="utf-8")
    before = (game / "save.json").read_bytes()
    extra = [str(card)] if command == "replace" else []
    result = run(command, str(game), "dave", *extra, "--key", str(key))
    assert result.exit_code == 2, result.output
    assert f"no player called 'dave' in game {read(game).game_id}" in result.output
    assert "what to do: name a seat of the game: alice, bob, carol" in result.output
    assert (game / "save.json").read_bytes() == before
