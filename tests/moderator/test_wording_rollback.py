"""``pbem rollback GAME N`` to a turn the game never started said "history holds no start of
turn N": it says which turns the game can go back to, and writes nothing."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.corrections import turn_ranges
from pbem.keys import Identity

from .modkit import awaited, new_game, order_block, read


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_turn_ranges_reads_as_a_list() -> None:
    assert turn_ranges([1]) == "1"
    assert turn_ranges([1, 2]) == "1 to 2"
    assert turn_ranges([1, 2, 3, 4]) == "1 to 4"
    assert turn_ranges([2, 5, 6, 7, 9]) == "2, 5 to 7 and 9"


def test_rollback_to_a_missing_turn_names_the_turns_there_are(
    root: Path, keys: dict[str, Identity], tmp_path: Path
) -> None:
    game = new_game(root, keys, "g1")
    key = tmp_path / "moderator.key"
    keys["moderator"].save(key)
    [name] = awaited(game)
    orders = tmp_path / "orders.txt"
    orders.write_text(order_block(game, keys, name), encoding="utf-8")
    assert run("submit", str(game), str(orders), "--key", str(key)).exit_code == 0
    assert run("advance", str(game), "--key", str(key)).exit_code == 0
    before = (game / "save.json").read_bytes()
    assert read(game).turn == 2
    result = run("rollback", str(game), "7", "--key", str(key))
    assert result.exit_code == 2, result.output
    assert "has no turn 7 to go back to" in result.output, result.output
    assert "the turns it can go back to: 1 to 2" in result.output, result.output
    assert (game / "save.json").read_bytes() == before
    huge = run("rollback", str(game), "9" * 40, "--key", str(key))
    assert huge.exit_code == 2 and len(huge.output) < 400, huge.output
