"""A loop of symbolic links given as a command's file or folder is named as one.

click's own check called it "does not exist", although the name is there; every option and
argument that takes an existing file or folder now says it is a loop and what to give instead
(exit 2, a usage error), in the core commands and in the moderator's and press's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.mark.parametrize(
    "args",
    [
        ["read", "{loop}", "--key", "{loop}"],
        ["status", "{loop}"],
        ["pause", "{loop}", "--key", "{loop}"],
        ["press", "read", "{loop}", "--key", "{loop}"],
    ],
    ids=["read", "status", "pause", "press read"],
)
def test_a_link_loop_is_named_as_one(tmp_path: Path, args: list[str]) -> None:
    loop = tmp_path / "a"
    os.symlink(tmp_path / "b", loop)
    os.symlink(loop, tmp_path / "b")
    result = CliRunner().invoke(main, [arg.format(loop=loop) for arg in args])
    assert result.exit_code == 2, result.output
    assert "is a loop of symbolic links" in result.output and "does not exist" not in result.output


def test_a_missing_file_still_does_not_exist(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["status", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "does not exist" in result.output
