"""Files on real (possibly shared or synced) folders: atomic writes and safe names.

A write goes to a temporary file in the same folder, is flushed and fsynced, renamed over
the target with ``os.replace`` and the folder is fsynced: a crash leaves the old file or the
new one, never a torn one.  Temporary files carry a recognisable prefix so scans skip them
and :func:`sweep_temp` can remove strays.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

TEMP_PREFIX = ".pbem-tmp-"

CrashHook = Callable[[str], None]


def default_home() -> Path:
    """Where a participant keeps local, unshared records: ``$PBEM_HOME``, else
    ``~/.local/share/pbem`` (the moderator's seen-saves record, a player's pinned keys)."""
    env = os.environ.get("PBEM_HOME")
    return Path(env) if env else Path.home() / ".local" / "share" / "pbem"


_crash_hook: CrashHook | None = None


def set_crash_hook(hook: CrashHook | None) -> None:
    """Install a hook called at each step of an atomic write (fault-injection tests only)."""
    global _crash_hook
    _crash_hook = hook


def crash_point(name: str, hook: CrashHook | None = None) -> None:
    """A step of a write where a fault-injection test may stop the process (``hook``, else
    the hook installed with :func:`set_crash_hook`; nothing when neither is set)."""
    chosen = hook if hook is not None else _crash_hook
    if chosen is not None:
        chosen(name)


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Make a rename or creation in ``path`` durable (no-op where unsupported)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)


def write_fd(fd: int, raw: bytes) -> None:
    """Write all of ``raw`` to the open file ``fd`` (no Python buffer in between)."""
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view) :]


def atomic_write(
    path: str | os.PathLike[str],
    data: bytes | str,
    mode: int = 0o644,
    durable: bool = True,
    hook: CrashHook | None = None,
) -> None:
    """Replace ``path`` with ``data`` atomically, creating parent folders as needed.

    ``durable=False`` skips the fsyncs: still never torn if the process dies, but a power
    cut may lose it.  Only for files that can be rebuilt from durable ones (reports).
    ``hook`` is called at each step ("written", "synced", "renamed") instead of the hook
    installed with :func:`set_crash_hook` (fault-injection tests).  Raises OSError.
    """
    # Plain string paths and os calls: this runs for every file of every turn.
    target = os.fspath(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f"{TEMP_PREFIX}{name}.{os.getpid()}")
    try:
        fd = os.open(tmp, _FLAGS, mode)
    except FileNotFoundError:
        os.makedirs(folder or ".", exist_ok=True)
        fd = os.open(tmp, _FLAGS, mode)
    try:
        try:
            write_fd(fd, raw)
            crash_point("written", hook)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        crash_point("synced", hook)
        os.replace(tmp, target)
        crash_point("renamed", hook)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(folder or ".")


_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


def write_folder(
    path: str | os.PathLike[str], files: Mapping[str, bytes | str], hook: CrashHook | None = None
) -> None:
    """Put ``files`` (name to content) in the folder ``path``, not durably (files that can
    be rebuilt from durable ones: a turn's reports).  Raises OSError.

    A folder that does not exist yet appears with all its files at once: they are written
    into a staging folder beside it (``.pbem-tmp-<name>``, left by a killed writer and
    removed here or by :func:`sweep_temp`) and the folder is renamed into place, one rename
    for the lot; a reader sees no folder or every file whole.  Into a folder that exists,
    each file is written with :func:`atomic_write` (``durable=False``).  Crash points
    (``hook``, as :func:`atomic_write`): "written" after each file, "renamed" at the end.
    """
    target = os.fspath(path)
    parent, name = os.path.split(target)
    if os.path.lexists(target):
        for filename, data in files.items():
            atomic_write(os.path.join(target, filename), data, durable=False, hook=hook)
        return
    stage = os.path.join(parent, f"{TEMP_PREFIX}{name}")
    if os.path.lexists(stage):
        _remove_tree(stage)
    try:
        os.makedirs(stage)
        for filename, data in files.items():
            fd = os.open(os.path.join(stage, filename), _NEW, 0o644)
            try:
                write_fd(fd, data.encode("utf-8") if isinstance(data, str) else data)
            finally:
                os.close(fd)
            crash_point("written", hook)
        os.rename(stage, target)
        crash_point("renamed", hook)
    except BaseException:
        _remove_tree(stage)
        raise


def _remove_tree(path: str | os.PathLike[str]) -> None:
    """Remove a staging folder and what it holds, as far as possible (never raises)."""
    import shutil

    if os.path.islink(path):
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    shutil.rmtree(path, ignore_errors=True)


def read_record(path: Path) -> dict[str, Any]:
    """A small local JSON record (seen saves, pinned keys): {} when it does not exist yet.

    Raises FormatError if it exists but is damaged (strict JSON, as every file we sign).
    """
    from pbem import canonical

    try:
        data = canonical.loads(path.read_bytes(), str(path))
    except FileNotFoundError:
        return {}
    return data if isinstance(data, dict) else {}


def write_record(path: Path, data: dict[str, Any], durable: bool = True) -> None:
    """Replace a local JSON record atomically, readable by its owner only."""
    from pbem import canonical

    atomic_write(path, canonical.dumps(data), mode=0o600, durable=durable)


def sweep_temp(folder: str | os.PathLike[str]) -> int:
    """Remove stray temporary files left by a crashed writer; returns how many."""
    count = 0
    for path in list(Path(folder).rglob(f"{TEMP_PREFIX}*")):
        with contextlib.suppress(OSError):
            if path.is_dir() and not path.is_symlink():
                _remove_tree(path)  # a staging folder of write_folder
            else:
                path.unlink()
            count += 1
    return count
