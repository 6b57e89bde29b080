"""A game folder the moderator may not write, refused by the kernel itself (twelfth session).

Root writes anywhere, so each command runs as the unprivileged user ``nobody`` (``setpriv``)
on a copy of a real game owned by that user, with a folder made read-only: the game folder
(nothing can be saved), or only ``reports/`` (the save is written, the new turn's reports are
not).  Before, ``PermissionError`` was exit 3, "this is a bug"; now exit 2, naming the file
and what to do, and the game carries on once the folder is writable again.  Skipped, with
the reason, where the tests do not run as root or ``setpriv`` is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.engine import GameFolder

from .conftest import Table

NOBODY = 65534


@pytest.fixture
def as_nobody(table: Table) -> Iterator[tuple[Path, list[str], dict[str, str]]]:
    """A folder ``nobody`` owns holding the game (``game``), its home, the moderator's key and
    the awaited seat's orders (``orders.txt``); the command line prefix; the environment."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run pbem as an unprivileged user (root writes anywhere)")
    base = Path(tempfile.mkdtemp(prefix="pbem-readonly-"))
    try:
        os.chmod(base, 0o755)
        shutil.copytree(table.folder.path, base / "game")
        shutil.copytree(table.home, base / "home")
        table.moderator.save(base / "mod.key")
        name = table.awaited()
        seq = table.folder.read().body["seq"][name] + 1
        (base / "orders.txt").write_text(table.sealed(table.signed(name, seq=seq)), encoding="utf-8")
        for folder, dirs, files in os.walk(base):
            for entry in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
                os.chown(entry, NOBODY, NOBODY, follow_symlinks=False)
        env = {**os.environ, "HOME": str(base), "PBEM_HOME": str(base / "home")}
        env["PBEM_STATE_DIR"] = str(base / "state")
        command = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        command += [sys.executable, "-c", "from pbem.cli import main; main()"]
        yield base, command, env
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _pbem(setup: tuple[Path, list[str], dict[str, str]], *args: str) -> subprocess.CompletedProcess[str]:
    base, command, env = setup
    return subprocess.run(
        [*command, *args], cwd=base, env=env, capture_output=True, text=True, timeout=120, check=False
    )


SUBMIT = ("submit", "game", "orders.txt", "--key", "mod.key", "--advance")


def test_a_read_only_game_folder(as_nobody: tuple[Path, list[str], dict[str, str]], table: Table) -> None:
    base = as_nobody[0]
    game = base / "game"
    before = (game / "save.json").read_bytes()
    game.chmod(0o555)
    done = _pbem(as_nobody, *SUBMIT)
    assert done.returncode == 2, done.stderr
    assert "this is a bug" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("pbem: the system refused a read or write (game/"), lines
    assert lines[0].endswith("Permission denied"), lines
    assert "give yourself the right to write there" in lines[1], lines
    assert (game / "save.json").read_bytes() == before, "nothing saved"
    assert not list(game.rglob("*.seq*.txt")), "no order copy left"
    game.chmod(0o755)
    again = _pbem(as_nobody, *SUBMIT)
    assert again.returncode == 0, again.stderr
    assert GameFolder(game, base / "home").read().turn == table.folder.read().turn + 1


def test_read_only_reports(as_nobody: tuple[Path, list[str], dict[str, str]], table: Table) -> None:
    """The save is written, the new turn's reports are refused: said so, and what to do."""
    base = as_nobody[0]
    game = base / "game"
    (game / "reports").chmod(0o555)
    done = _pbem(as_nobody, *SUBMIT)
    assert done.returncode == 2, done.stderr
    assert "Permission denied" in done.stderr.splitlines()[0], done.stderr
    assert "what happened: game/save.json was written before this" in done.stderr, done.stderr
    assert "do not run the command again" in done.stderr, done.stderr
    assert "give yourself the right to write there" in done.stderr, done.stderr
    status = _pbem(as_nobody, "status", "game")
    assert status.returncode == 0 and "missing" in status.stdout, status.stdout
    (game / "reports").chmod(0o755)
    assert _pbem(as_nobody, "publish", "game", "--key", "mod.key").returncode == 0
    status = _pbem(as_nobody, "status", "game")
    assert status.returncode == 0 and "missing" not in status.stdout, status.stdout
    assert GameFolder(game, base / "home").read().turn == table.folder.read().turn + 1
