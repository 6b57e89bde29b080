"""A new user's name with an accent or a space, and a command run in a folder inside the game.

Before: ``pbem keygen Zoë`` said "invalid name 'Zoë'" and "use 1-32 letters, digits, ..."
(ë is a letter: nothing said which character was wrong, nor what to type instead);
``pbem status game/reports`` said the folder "holds no pbem game (no save.json)" and to name
"the one holding save.json, such as ROOT/GAME", although the game was the folder above."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.mark.parametrize(
    ("name", "why", "example"),
    [
        ("Zoë", "('ë' is not allowed)", "(for example 'Zoe')"),
        ("ann marie", "(' ' is not allowed)", "(for example 'ann-marie')"),
        ("José-María", "('é', 'í' are not allowed)", "(for example 'Jose-Maria')"),
        ("_x", "(it must start with a letter or digit)", "(for example 'x')"),
        ("a" * 40, "(40 characters)", "(for example '" + "a" * 32 + "')"),
    ],
)
def test_an_invalid_name_says_why_and_offers_one(tmp_path: Path, name: str, why: str, example: str) -> None:
    result = CliRunner().invoke(main, ["keygen", name, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert f"invalid name {name!r} {why}" in result.output
    assert "no accents" in result.output
    assert example in result.output
    assert list(tmp_path.iterdir()) == []


def test_no_example_when_letters_would_be_lost(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["keygen", "Ørjan", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "('Ø' is not allowed)" in result.output
    assert "for example" not in result.output


def test_the_offered_name_is_taken(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["keygen", "Zoe", "--out", str(tmp_path)]).exit_code == 0


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("newuser2-names")
    for name in ("alice", "bob", "mod"):
        assert CliRunner().invoke(main, ["keygen", name, "--out", str(root)]).exit_code == 0
    args = ["new", "symbioz", str(root / "game"), "--moderator-key", str(root / "mod.key")]
    args += [f"--player={n}={root / n}.pub" for n in ("alice", "bob")]
    assert CliRunner().invoke(main, args, env={"PBEM_HOME": str(root / "home")}).exit_code == 0
    return root / "game"


@pytest.mark.parametrize("inside", ["reports", "reports/turn-0001", "history"])
def test_a_folder_inside_the_game_names_the_game(game: Path, inside: str) -> None:
    result = CliRunner().invoke(main, ["status", str(game / inside)])
    assert result.exit_code == 2
    assert f"{game / inside} is inside the game folder {game}" in result.output
    assert f"name the game folder: {game}" in result.output


def test_a_folder_outside_any_game_is_said_as_before(game: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["advance", str(tmp_path), "--key", str(game.parent / "mod.key")])
    assert result.exit_code == 2
    assert "holds no pbem game (no save.json)" in result.output
    assert "pbem new GAME FOLDER" in result.output
