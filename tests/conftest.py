"""Shared by every test: no test reads or writes the home folder of the person running it, and
hypothesis tries the same examples on every run unless asked to explore.

A plain ``python -m pytest`` (the README's command, what CI runs) is derandomized: what passes
here passes on a fresh machine, and a failure is found again by the next run.  Setting
``PBEM_FUZZ_EXAMPLES`` (more examples) or ``PBEM_HYPOTHESIS=explore`` draws new examples each run
(the way to hunt for bugs; hypothesis keeps what it finds in ``.hypothesis/``).
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(
    os.environ.get("PBEM_HYPOTHESIS") or ("explore" if os.environ.get("PBEM_FUZZ_EXAMPLES") else "repeatable")
)


@pytest.fixture(autouse=True, scope="session")
def _own_pbem_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point PBEM_HOME (signed Seqs, kept reports, keys) and PBEM_STATE_DIR (the moderator's
    local state: a folder per root or game its commands touch) at folders of the test session,
    so a test that forgets to set its own cannot touch ``~/.local/share/pbem`` or
    ``~/.local/state/pbem``; tests that need their own still set one with monkeypatch."""
    names = ("PBEM_HOME", "PBEM_STATE_DIR")
    old = {name: os.environ.get(name) for name in names}
    os.environ["PBEM_HOME"] = str(tmp_path_factory.mktemp("pbem-home"))
    os.environ["PBEM_STATE_DIR"] = str(tmp_path_factory.mktemp("pbem-state"))
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


PAGE = 4096
"""A tmpfs page: what :func:`fill_disk` leaves free, one at a time."""


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real full disk to be: an 8 MiB tmpfs mounted for the test (unmounted after it,
    whatever happens).  Skips, with the reason, where mounting is not permitted (not root, or
    no ``mount``)."""
    mount = shutil.which("mount")
    if mount is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root and mount(8) to mount a small tmpfs (a real full disk)")
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=8m,mode=0755", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {done.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path, leave: int) -> Path:
    """Fill ``disk`` to the last page, then give back ``leave`` pages; the filler's path."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        while True:
            try:
                os.write(fd, b"\0" * PAGE)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave * PAGE))
    finally:
        os.close(fd)
    return filler


@pytest.fixture
def fill_disk() -> Callable[[Path, int], Path]:
    """``fill_disk(disk, leave)``: fill :func:`small_disk` up to ``leave`` free pages (the
    filler file's path, to remove for space again)."""
    return _fill
