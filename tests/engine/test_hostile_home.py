"""Hostile input review (tenth session): a local folder that cannot be used.

``$PBEM_HOME`` (a file in its place, or a path that cannot be made), the moderator's
``--state-dir`` and ``pbem demo --out`` gave exit 3 ("this is a bug") with a Python error;
``pbem submit`` and ``pbem new`` even wrote the game first and failed after.  Now each is a
usage error (exit 2) naming the folder and what to do, said before anything is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity

from .conftest import Table


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(args: list[str | Path], home: Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], env={"PBEM_HOME": str(home)})


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A PBEM_HOME with a plain file in its place."""
    path = tmp_path / "home-is-a-file"
    path.write_text("not a folder\n")
    return path


def test_submit_with_an_unusable_home_writes_nothing_and_says_so(
    table: Table, keys: dict[str, Identity], tmp_path: Path, blocked: Path
) -> None:
    keys["moderator"].save(tmp_path / "mod.key")
    name = table.awaited()
    orders = tmp_path / "orders.txt"
    orders.write_text(table.sealed(table.signed(name)))
    before = _files(table.folder.path)
    result = _run(["submit", table.folder.path, orders, "--key", tmp_path / "mod.key"], blocked)
    assert result.exit_code == 2, result.output
    assert "unexpected error" not in result.output
    assert f"cannot keep the record of the newest save of each game in {blocked / 'seen'}" in result.output
    assert "nothing was written" in result.output and "what to do: set PBEM_HOME" in result.output
    assert _files(table.folder.path) == before
    fixed = _run(["submit", table.folder.path, orders, "--key", tmp_path / "mod.key"], tmp_path / "home")
    assert fixed.exit_code == 0 and f"accepted: orders of {name}" in fixed.output


def test_new_with_an_unusable_home_makes_no_game(
    keys: dict[str, Identity], tmp_path: Path, blocked: Path
) -> None:
    keys["moderator"].save(tmp_path / "mod.key")
    args: list[object] = ["new", "symbiote", tmp_path / "game", "--moderator-key", tmp_path / "mod.key"]
    for name in ("alice", "bob", "carol"):
        (tmp_path / f"{name}.pub").write_text(keys[name].public().to_text())
        args += ["--player", f"{name}={tmp_path / f'{name}.pub'}"]
    result = _run([str(a) for a in args], blocked)
    assert result.exit_code == 2 and "nothing was written" in result.output, result.output
    assert not (tmp_path / "game" / "save.json").exists()


@pytest.mark.parametrize("command", ["read", "orders"])
def test_a_player_command_with_an_unusable_home_is_a_usage_error(
    table: Table, keys: dict[str, Identity], tmp_path: Path, blocked: Path, command: str
) -> None:
    keys["alice"].save(tmp_path / "alice.key")
    _, report = table.report_text("alice")
    result = _run([command, report, "--key", tmp_path / "alice.key"], blocked)
    assert result.exit_code == 2, result.output
    assert f"cannot read the pinned moderator keys {blocked / 'moderators.json'}" in result.output
    assert "what to do: set PBEM_HOME" in result.output


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc (where no folder can be made)")
def test_a_player_command_with_a_home_that_cannot_be_made(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    keys["alice"].save(tmp_path / "alice.key")
    _, report = table.report_text("alice")
    result = _run(["read", report, "--key", tmp_path / "alice.key"], Path("/proc/pbem-no-such-home"))
    assert result.exit_code == 2 and "cannot write the pinned moderator keys" in result.output, result.output


def test_demo_into_a_folder_that_cannot_be_made(tmp_path: Path, blocked: Path) -> None:
    result = _run(["demo", "symbiote", "--out", blocked / "demo"], tmp_path / "home")
    assert result.exit_code == 2, result.output
    assert f"cannot make the folder {blocked / 'demo'}: Not a directory" in result.output
    assert blocked.read_text() == "not a folder\n"


def test_moderate_with_a_state_dir_that_cannot_be_made(
    table: Table, keys: dict[str, Identity], tmp_path: Path, blocked: Path
) -> None:
    keys["moderator"].save(tmp_path / "mod.key")
    root = table.folder.path.parent
    result = CliRunner().invoke(
        main,
        ["moderate", str(root), "--key", str(tmp_path / "mod.key")],
        env={"PBEM_STATE_DIR": str(blocked)},
    )
    assert result.exit_code == 2, result.output
    assert "cannot make the moderator's local folder" in result.output
    assert "what to do: pass --state-dir (or set PBEM_STATE_DIR)" in result.output
