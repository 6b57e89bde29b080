"""A command run on a folder without a game said "rejected . holds no pbem game" (``pbem
submit``, once per file) or only "holds no pbem game": every command now says "no game here"
once, and what to do (name the game folder, or start one with ``pbem new``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.keys import Identity


@pytest.fixture(scope="module")
def moderator_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("keys") / "moderator.key"
    Identity.generate("moderator").save(path)
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["status"],
        ["submit", "{dir}", "{file}", "{file}"],
        ["advance"],
        ["show"],
        ["pause"],
        ["rollback", "{dir}", "2"],
        ["log"],
        ["verify"],
    ],
    ids=lambda c: c[0],
)
def test_a_folder_without_a_game_says_no_game_here_and_what_to_do(
    command: list[str], tmp_path: Path, moderator_key: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    orders = tmp_path / "orders.txt"
    orders.write_text("hello\n", encoding="utf-8")
    args = [a.format(dir=empty, file=orders) for a in command]
    if len(args) == 1:
        args.append(str(empty))
    if command[0] in ("submit", "advance", "show", "pause", "rollback"):
        args += ["--key", str(moderator_key)]
    result = CliRunner().invoke(main, args, env={"PBEM_HOME": str(tmp_path / "home")})
    assert result.exit_code == 2, result.output
    assert "rejected" not in result.output, result.output
    assert result.output.count("no game here:") == 1, result.output
    assert "name the game folder" in result.output and "pbem new" in result.output, result.output
