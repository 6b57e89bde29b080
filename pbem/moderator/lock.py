"""One moderator per game: a file lock per game, kept on the moderator's local disk.

Locks never live in the shared folder: a synced folder copies lock files between machines
and cannot make them exclusive.  ``filelock`` locks are freed by the kernel the moment their
holder dies, so a killed moderator never leaves a game locked.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout


def local_state_dir(root: Path, override: Path | None = None) -> Path:
    """The moderator's local folder for a shared root: index, outbox, mail journal.

    ``override`` wins; otherwise ``$PBEM_STATE_DIR`` or ``$XDG_STATE_HOME/pbem`` (default
    ``~/.local/state/pbem``), then a sub-folder named after the root's absolute path.
    """
    if override is not None:
        base = override
    else:
        env = os.environ.get("PBEM_STATE_DIR")
        xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        base = Path(env) if env else Path(xdg) / "pbem"
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    folder = base / "moderator" / f"{root.resolve().name or 'root'}-{digest}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def lock_dir(root: Path) -> Path:
    """Where the locks of a root's games live: a machine-wide local folder (the runtime
    folder, else the temporary one) named after the root's absolute path, so every
    moderator on this machine finds the same locks whatever its ``--state-dir``."""
    base = Path(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir())
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    folder = base / "pbem-locks" / digest
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def game_lock(root: Path, game: str, wait: float = 0) -> Iterator[bool]:
    """Hold the lock of ``game`` under ``root`` for the block; yields False (and holds
    nothing) if another moderator has it and it did not come free within ``wait`` seconds."""
    lock = FileLock(str(lock_dir(root) / f"{game}.lock"), thread_local=False)
    try:
        lock.acquire(timeout=wait)
    except Timeout:
        yield False
        return
    try:
        yield True
    finally:
        lock.release()
