"""A new user's typos in a game's name and an option's value.

Before: ``pbem new symbiot ...`` and ``pbem rules jovian_syzygy`` said only "no game called
'symbiot'; installed games: ..." (no suggestion, although a misspelt option got one);
``--option points=50`` listed the thirty numbers 1 to 30 one by one, and a bad value said
nothing about what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.options import choices_text


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("symbiot", "symbiote"),
        ("jovian_syzygy", "jovian-syzygy"),
        ("jovian syzygy", "jovian-syzygy"),
        ("Symbioz", "symbioz"),
    ],
)
def test_a_misspelt_game_gets_a_suggestion(typed: str, meant: str) -> None:
    result = CliRunner().invoke(main, ["rules", typed])
    assert result.exit_code == 2
    assert f"no game called {typed!r} (did you mean {meant!r}?)" in result.output
    assert "pbem games lists them" in result.output


def test_an_unknown_game_gets_no_suggestion() -> None:
    result = CliRunner().invoke(main, ["rules", "chess"])
    assert result.exit_code == 2
    assert "did you mean" not in result.output
    assert "installed games: jovian-syzygy, parasite, symbiote, symbioz" in result.output


def new_args(tmp_path: Path, game: str, *names: str) -> list[str]:
    """``pbem new GAME FOLDER ...`` with fresh keys for the moderator and ``names``."""
    for name in ("mod", *names):
        assert CliRunner().invoke(main, ["keygen", name, "--out", str(tmp_path)]).exit_code == 0
    args = ["new", game, str(tmp_path / "game"), "--moderator-key", str(tmp_path / "mod.key")]
    return args + [f"--player={n}={tmp_path / n}.pub" for n in names]


def test_pbem_new_with_a_misspelt_game_writes_nothing(tmp_path: Path) -> None:
    args = new_args(tmp_path, "symbiot", "alice", "bob", "carol")
    result = CliRunner().invoke(main, args, env={"PBEM_HOME": str(tmp_path / "home")})
    assert result.exit_code == 2
    assert "(did you mean 'symbiote'?)" in result.output
    assert not (tmp_path / "game").exists()


def test_an_option_out_of_range_says_the_range_and_an_example(tmp_path: Path) -> None:
    args = [*new_args(tmp_path, "symbioz", "alice", "bob"), "--option", "points=50"]
    result = CliRunner().invoke(main, args, env={"PBEM_HOME": str(tmp_path / "home")})
    assert result.exit_code == 2
    assert "option points takes a whole number from 1 to 30, got '50'" in result.output
    assert "for example --option points=10 (the default)" in result.output
    assert "11, 12" not in result.output
    assert not (tmp_path / "game").exists()


def test_choices_text() -> None:
    assert choices_text((1, 2, 3, 4)) == "a whole number from 1 to 4"
    assert choices_text((1, 2, 5)) == "one of 1, 2, 5"
    assert choices_text(("stay", "push")) == "one of stay, push"
    assert choices_text((True, False)) == "one of True, False"


def test_pbem_games_says_a_range_of_numbers_as_one() -> None:
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0
    assert "--option points=10 (a whole number from 1 to 30): " in result.output
    assert "--option dealer=random (one of random, last-seat): " in result.output
