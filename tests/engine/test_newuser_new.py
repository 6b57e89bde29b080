"""``pbem new`` with a new user's mistakes: each refusal names what is wrong and says what
to do, and writes nothing.

Before: a card given for the wrong seat said "the card in bob.pub is 'bob''s, not
'alice''s" (doubled quotes, no advice); a seat given twice said "two players have the same
name" without the name; a misspelt option got no suggestion; ``--option NAME`` without a
value said only that NAME=VALUE was wanted."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("newuser-new")
    for name in ("alice", "bob", "carol", "mod"):
        assert CliRunner().invoke(main, ["keygen", name, "--out", str(folder)]).exit_code == 0
    return folder


@pytest.fixture(autouse=True)
def _in_keys(keys: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in the keys' folder, as a person would: cards named by short relative paths."""
    monkeypatch.chdir(keys)


def new(keys: Path, tmp_path: Path, *args: str) -> tuple[Result, Path]:
    game = tmp_path / "game"
    base = ["new", "symbiote", str(game), "--moderator-key", str(keys / "mod.key")]
    result = CliRunner().invoke(main, [*base, *args], env={"PBEM_HOME": str(tmp_path / "home")})
    return result, game


def seats(keys: Path, *pairs: str) -> list[str]:
    out = []
    for pair in pairs:
        name, card = pair.split("=")
        out += ["--player", f"{name}={card}.pub"]
    return out


def test_a_card_for_the_wrong_seat(keys: Path, tmp_path: Path) -> None:
    result, game = new(keys, tmp_path, *seats(keys, "alice=bob", "bob=alice", "carol=carol"))
    assert result.exit_code == 2
    assert "pbem: bob.pub is bob's card, not alice's" in result.output
    assert "''s" not in result.output
    assert "what to do: name each seat as its card does (--player bob=bob.pub)" in result.output
    assert not game.exists()


def test_a_seat_given_twice_is_named(keys: Path, tmp_path: Path) -> None:
    result, game = new(keys, tmp_path, *seats(keys, "alice=alice", "carol=carol", "alice=alice"))
    assert result.exit_code == 2
    assert "two players have the same name, alice" in result.output
    assert "what to do: give each seat a different player's card" in result.output
    assert not (game / "save.json").exists()


def test_a_misspelt_option_gets_a_suggestion(keys: Path, tmp_path: Path) -> None:
    three = seats(keys, "alice=alice", "bob=bob", "carol=carol")
    result, game = new(keys, tmp_path, *three, "--option", "open-reserch=true")
    assert result.exit_code == 2
    assert "symbiote has no option 'open-reserch' (did you mean 'open-research'?)" in result.output
    assert "what to do: pbem games lists each game's options" in result.output
    assert not (game / "save.json").exists()


def test_an_option_without_a_value_says_how_to_write_it(keys: Path, tmp_path: Path) -> None:
    three = seats(keys, "alice=alice", "bob=bob", "carol=carol")
    result, game = new(keys, tmp_path, *three, "--option", "open-research")
    assert result.exit_code == 2
    assert "--option takes NAME=VALUE, got 'open-research'" in result.output
    assert "e.g. --option open-research=VALUE" in result.output
    assert not game.exists()


def test_the_corrected_command_makes_the_game(keys: Path, tmp_path: Path) -> None:
    three = seats(keys, "alice=alice", "bob=bob", "carol=carol")
    result, game = new(keys, tmp_path, *three, "--option", "open-research=true")
    assert result.exit_code == 0, result.output
    assert (game / "save.json").exists()
