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
_STAGE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
_UNNAMED = getattr(os, "O_TMPFILE", 0)


def create_file(
    path: str | os.PathLike[str], data: bytes, mode: int = 0o644, hook: CrashHook | None = None
) -> None:
    """Create the file ``path`` holding ``data``, durably and complete or not at all, where
    no file has that name (a history file, an accepted order file).  Raises
    FileExistsError when the name is taken (nothing changed), OSError otherwise.

    On Linux the file is written unnamed (``O_TMPFILE``), fsynced and linked to its name,
    the documented way of ``open(2)``: one metadata change, and a crash at any point leaves
    nothing behind.  Elsewhere (or where the file system or ``/proc`` refuses), it is
    written under a staging name beside it, fsynced, linked and the staging name removed.
    Either way the folder is fsynced after the link.  Crash points (``hook``, as
    :func:`atomic_write`): "written", "synced", "renamed".
    """
    target = os.fspath(path)
    folder = os.path.dirname(target) or "."
    if not _create_unnamed(folder, target, data, mode, hook):
        _create_staged(folder, target, data, mode, hook)
    fsync_dir(folder)


def _create_unnamed(folder: str, target: str, data: bytes, mode: int, hook: CrashHook | None) -> bool:
    """:func:`create_file` with ``O_TMPFILE``; False (nothing done) where it is not offered."""
    if not _UNNAMED:
        return False
    flags = os.O_WRONLY | _UNNAMED | getattr(os, "O_CLOEXEC", 0)
    try:  # this process's own descriptors, opened anew each time (a forked worker has its own)
        proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        try:
            try:
                fd = os.open(folder, flags, mode)
            except FileNotFoundError:
                os.makedirs(folder, exist_ok=True)
                fd = os.open(folder, flags, mode)
        except OSError:  # EOPNOTSUPP, EISDIR (an old kernel), ...: the portable way
            return False
        try:
            write_fd(fd, data)
            crash_point("written", hook)
            os.fsync(fd)
            crash_point("synced", hook)
            try:  # linkat(/proc/self/fd, "N", AT_FDCWD, target, AT_SYMLINK_FOLLOW)
                os.link(str(fd), target, src_dir_fd=proc, follow_symlinks=True)
            except FileExistsError:
                raise
            except OSError:  # pragma: no cover - /proc that cannot link: the portable way
                return False
            crash_point("renamed", hook)
            return True
        finally:
            os.close(fd)
    finally:
        os.close(proc)


def _create_staged(folder: str, target: str, data: bytes, mode: int, hook: CrashHook | None) -> None:
    """:func:`create_file` through a staging name (written in place: it is never read)."""
    staged = os.path.join(folder, f"{TEMP_PREFIX}stage-{os.path.basename(target)}.{os.getpid()}")
    try:
        try:
            fd = os.open(staged, _STAGE, mode)
        except FileNotFoundError:
            os.makedirs(folder, exist_ok=True)
            fd = os.open(staged, _STAGE, mode)
        try:
            write_fd(fd, data)
            crash_point("written", hook)
            os.fsync(fd)
        finally:
            os.close(fd)
        crash_point("synced", hook)
        os.link(staged, target)
        crash_point("renamed", hook)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(staged)


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


_READ = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file ``path``, as ``Path.read_bytes`` gives them, read with plain
    system calls (no Python file object, so no ``isatty`` or seek calls: this runs for the
    save, its history file and the seen record on every turn).  Never blocks on a FIFO.
    Raises OSError (FileNotFoundError, IsADirectoryError, ...)."""
    fd = os.open(path, _READ)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    except BlockingIOError:  # a FIFO with no writer ready: nothing to read
        pass
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_record(path: Path) -> dict[str, Any]:
    """A small local JSON record (seen saves, pinned keys): {} when it does not exist yet.

    Raises FormatError if it exists but is damaged (strict JSON, as every file we sign).
    """
    from pbem import canonical

    try:
        data = canonical.loads(read_file(path), str(path))
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
