"""Durable small writes for the moderator, and the crash points the fault tests use.

Every file the moderator writes goes through :func:`write_atomic`: a temporary file in the
same folder, flushed and fsynced, renamed over the target, and the folder fsynced, so a
reader (or a restarted moderator) sees the old file or the new one, never a torn one.

Crash points: when the environment variable ``PBEM_CRASH_AFTER`` is N > 0, the N-th call
of :func:`step` in this process ends it at once with ``os._exit(CRASH_EXIT)``, as a kill
would.  :func:`write_atomic` calls :func:`step` at each step of the write (before and after
its rename), and the moderator calls it between the steps of its work, so the fault tests can stop it at every
point that matters and check that a restart reaches the same result.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Collection, Sequence
from pathlib import Path

from pbem.folder import TEMP_PREFIX, atomic_write, fsync_dir

CRASH_ENV = "PBEM_CRASH_AFTER"
CRASH_EXIT = 77

_steps = 0
_crash_after: int | None = None
_configured = False


def _limit() -> int | None:
    global _configured, _crash_after
    if not _configured:
        raw = os.environ.get(CRASH_ENV, "")
        _crash_after = int(raw) if raw.strip().isdigit() and int(raw) > 0 else None
        _configured = True
    return _crash_after


def step(label: str = "") -> None:
    """Count one step of moderator work; end the process here if a crash is asked for."""
    global _steps
    limit = _limit()
    if limit is None:
        return
    _steps += 1
    if _steps >= limit:
        os._exit(CRASH_EXIT)


def arm(limit: int | None) -> None:
    """Arm (or, with None, disarm) the crash points in this process, counting from zero;
    for fault tests that fork instead of setting the environment variable."""
    global _configured, _crash_after, _steps
    _configured, _crash_after, _steps = True, limit, 0
    from pbem import folder

    folder.set_crash_hook(None if limit is None else step)


def arm_engine_writes() -> None:
    """Count the engine's own atomic writes as steps too (only while crash points are armed),
    so a fault test can also stop the moderator inside a save, an archive or a report."""
    if _limit() is None:
        return  # leave the engine's hook alone: another test may own it
    from pbem import folder

    folder.set_crash_hook(step)


def steps_taken() -> int:
    """How many steps this process has counted (only while crash points are armed)."""
    return _steps


def write_atomic(path: Path, data: bytes | str, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically and durably (the engine's own atomic write),
    counting a crash point at each of its steps: written, synced (before the rename) and
    renamed."""
    atomic_write(path, data, mode, hook=lambda label: step(f"{label} {path.name}"))


def write_once(path: Path, data: bytes | str, mode: int = 0o644) -> bool:
    """Write ``path`` unless it exists already (idempotent output); True if written now."""
    if path.exists():
        return False
    write_atomic(path, data, mode)
    return True


def link_all(pairs: Sequence[tuple[Path, Path]]) -> list[str]:
    """Make each target hold its source's bytes durably, at the cost of a link where the
    file system allows: every distinct source is fsynced once (the engine writes reports
    without fsync), each target made a hard link of its source, and every target folder
    fsynced once.  A target that is already that file, or holds the same bytes, is left as
    it is; one that holds other bytes, or a link that cannot be made (another disk,
    ``EPERM``, a file system without links), gets a durable copy instead (:func:`write_atomic`).
    Returns, for each pair, "linked", "present" or "copied".  Raises OSError when a source
    cannot be read or a target folder written (a broken disk)."""
    synced: set[Path] = set()
    folders: dict[Path, None] = {}
    out: list[str] = []
    for source, target in pairs:
        if source not in synced:
            fd = os.open(source, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            synced.add(source)
        try:
            os.link(source, target, follow_symlinks=False)
        except FileExistsError:
            if _same(source, target):
                out.append("present")
                continue
        except OSError:
            pass
        else:
            folders[target.parent] = None
            out.append("linked")
            step(f"linked {target.name}")
            continue
        write_atomic(target, source.read_bytes())
        out.append("copied")
    for folder in folders:
        fsync_dir(folder)
    return out


def _same(source: Path, target: Path) -> bool:
    """True if ``target`` (never followed) is ``source`` itself or a file with its bytes."""
    try:
        a, b = os.stat(source), os.lstat(target)
        if (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino):
            return True
        return (
            stat.S_ISREG(b.st_mode) and a.st_size == b.st_size and source.read_bytes() == target.read_bytes()
        )
    except OSError:
        return False


def remove(path: Path) -> None:
    """Delete ``path`` durably; a missing file is fine (the step may be repeated)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        fsync_dir(path.parent)
    step(f"removed {path.name}")


def sweep_temp(folder: Path) -> int:
    """Remove temporary files a killed writer left in ``folder``; returns how many."""
    count = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if entry.name.startswith(TEMP_PREFIX):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                count += 1
    return count


def sweep_tree(root: Path, skip: Collection[str] = (), max_depth: int = 4) -> int:
    """Remove temporary files a killed writer left under ``root`` (a game folder); returns
    how many.

    Iterative and bounded, since players may put anything in a shared folder: never through
    a link, at most ``max_depth`` folders deep (pbem writes at most three), and not into the
    top-level folders named in ``skip`` (the inboxes, where pbem never writes).
    """
    count = 0
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth < max_depth and not (depth == 0 and entry.name in skip):
                        stack.append((Path(entry.path), depth + 1))
                elif entry.name.startswith(TEMP_PREFIX):
                    os.unlink(entry.path)
                    count += 1
            except OSError:
                continue
    return count
