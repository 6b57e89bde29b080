"""A command the machine refuses (a full disk, a failing device) says so with exit code 2 and
what to do, not the bug message (pbem/cli.py ``SYSTEM_REFUSED``)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli import SYSTEM_REFUSED, main

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")


def _pbem_to_full(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``pbem ARGS`` as users do (the console entry), standard output on /dev/full."""
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [sys.executable, "-c", "from pbem.cli import main; main()", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )


@pytest.mark.parametrize("args", [("games",), ("rules", "parasite")])
def test_output_to_a_full_device_is_exit_2_with_what_to_do(args: tuple[str, ...]) -> None:
    done = _pbem_to_full(*args)
    assert done.returncode == 2, done.stderr
    assert "this is a bug" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "pbem: the system refused a read or write: No space left on device", lines
    assert lines[1].startswith("  what to do: free space"), lines
    assert len(lines) == 2, "said once, not again when the process ends"


def test_a_refused_write_names_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.engine

    def full(*_: Any, **__: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "game/save.json")

    monkeypatch.setattr(pbem.engine.GameFolder, "read", full)
    (tmp_path / "game").mkdir()
    result = CliRunner().invoke(main, ["status", str(tmp_path / "game")], env={"PBEM_HOME": str(tmp_path)})
    assert result.exit_code == 2, result.output
    assert "pbem: the system refused a read or write (game/save.json): No space left on device" in (
        result.output
    )
    assert "this is a bug" not in result.output


def test_other_os_errors_stay_bugs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the machine's refusals are mapped: an OSError pbem should have handled (here EBADF)
    is still reported as a bug, exit 3."""
    import pbem.engine

    assert errno.EBADF not in SYSTEM_REFUSED

    def bad(*_: Any, **__: Any) -> Any:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    monkeypatch.setattr(pbem.engine.GameFolder, "read", bad)
    (tmp_path / "game").mkdir()
    result = CliRunner().invoke(main, ["status", str(tmp_path / "game")], env={"PBEM_HOME": str(tmp_path)})
    assert result.exit_code == 3, result.output
    assert "this is a bug" in result.output
