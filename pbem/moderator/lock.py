"""One writer per game: the game's own lock, and the moderator's local state folder.

The lock is the engine's (:class:`pbem.integrity.FolderLock`): a lock file inside the game
folder itself, ``<game>/.pbem-lock``, so that every process that writes the game (``pbem
submit`` and ``advance`` from a shell, a moderator started by cron, another from a login
shell with another ``$XDG_RUNTIME_DIR``, ``$TMPDIR``, ``$PBEM_HOME`` or ``--state-dir``)
finds the same lock.  The file holds no data: a sync tool that copies it to another machine
is harmless, since a lock is only ever held on the machine that took it.  Between machines
of a synced folder the engine's compare-and-swap write is what protects the save.
``filelock`` locks are freed by the kernel the moment their holder dies, so a killed
moderator never leaves a game locked.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pbem.errors import UsageError
from pbem.integrity import FolderLock


def local_state_dir(root: Path, override: Path | None = None) -> Path:
    """The moderator's local folder for a shared root: index, outbox, mail journal.

    ``override`` wins; otherwise ``$PBEM_STATE_DIR`` or ``$XDG_STATE_HOME/pbem`` (default
    ``~/.local/state/pbem``), then a sub-folder named after the root's absolute path.
    Raises UsageError when it cannot be made.
    """
    if override is not None:
        base = override
    else:
        env = os.environ.get("PBEM_STATE_DIR")
        xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        base = Path(env) if env else Path(xdg) / "pbem"
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    folder = base / "moderator" / f"{root.resolve().name or 'root'}-{digest}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file in the way, no permission, a read-only or full disk
        raise UsageError(
            f"cannot make the moderator's local folder {folder}: {exc.strerror}",
            "pass --state-dir (or set PBEM_STATE_DIR) to a folder you can write",
        ) from None
    return folder


@contextmanager
def game_lock(root: Path, game: str, wait: float = 0) -> Iterator[bool]:
    """Hold the lock of the game folder ``root/game`` for the block; yields False (and holds
    nothing) if another holder has it and it did not come free within ``wait`` seconds.

    The same lock as the engine's: a :class:`pbem.engine.GameFolder` of that folder waits for
    it.  Raises UsageError if the folder cannot hold a lock file.
    """
    with FolderLock(Path(root) / game).hold(wait) as mine:
        yield mine
