"""Hostile input review (tenth session): output folders that cannot be made.

``pbem keygen --out`` naming a FIFO or a loop of symbolic links, and ``--out`` names longer
than the file system allows (``pbem keygen``, ``pbem archive``), gave exit 3 ("this is a
bug") with FileExistsError or "File name too long"; now a usage error (exit 2) naming the
folder, shortened.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

from .conftest import Table

LONG = "x" * 5000


@pytest.mark.parametrize("kind", ["fifo", "loop", "long"])
def test_keygen_into_a_folder_that_cannot_be_made(tmp_path: Path, kind: str) -> None:
    out = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "loop":
        out.symlink_to(out.name)
    else:
        out = tmp_path / LONG
    result = CliRunner().invoke(main, ["keygen", "alice", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "cannot make the folder" in result.output and "what to do: name another --out" in result.output
    assert "unexpected error" not in result.output and len(result.output) < 600
    assert sorted(os.listdir(tmp_path)) == ([] if kind == "long" else [kind])


def test_archive_into_a_name_too_long(table: Table, tmp_path: Path) -> None:
    root = table.folder.path.parent
    result = CliRunner().invoke(main, ["archive", str(root), "--out", str(tmp_path / LONG)])
    assert result.exit_code == 2, result.output
    assert "cannot make the folder" in result.output and "(5,0" in result.output
    assert "File name too long" in result.output and len(result.output) < 600


def test_demo_into_a_name_too_long(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["demo", "symbiote", "--out", str(tmp_path / LONG)])
    assert result.exit_code == 2, result.output
    assert "cannot use the folder" in result.output and "File name too long" in result.output
    assert len(result.output) < 600 and os.listdir(tmp_path) == []
