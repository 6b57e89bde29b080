"""Files on real (possibly shared or synced) folders: atomic writes and safe names.

A write goes to a temporary file in the same folder, is flushed and fsynced, renamed over
the target with ``os.replace`` and the folder is fsynced: a crash leaves the old file or the
new one, never a torn one.  Temporary files carry a recognisable prefix so scans skip them
and :func:`sweep_temp` can remove strays.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

TEMP_PREFIX = ".pbem-tmp-"

CrashHook = Callable[[str], None]


def default_home() -> Path:
    """Where a participant keeps local, unshared records: ``$PBEM_HOME``, else
    ``~/.local/share/pbem`` (the moderator's seen-saves record, a player's pinned keys)."""
    env = os.environ.get("PBEM_HOME")
    return Path(env) if env else Path.home() / ".local" / "share" / "pbem"


HOME_HINT = "set PBEM_HOME to a folder you can write (by default ~/.local/share/pbem is used)"
"""What to do when a local record in :func:`default_home` cannot be read or written."""

MISCONFIGURED = frozenset(
    (errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.EPERM, errno.EEXIST)
)
"""Errors of a local folder that is not there or not usable as one (a file in its place, no
permission): a setting to correct, unlike a full or failing disk."""


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


_NO_FOLDER_SYNC = frozenset(
    {
        errno.EINVAL,  # fsync(2): "fd is bound to a special file which does not support synchronization"
        errno.EROFS,
        errno.ENOTSUP,
        errno.EOPNOTSUPP,
        errno.ENOSYS,
        errno.EBADF,
        errno.ENOTTY,
        errno.EPERM,  # network and FUSE file systems that refuse a folder's fsync
        errno.EACCES,
    }
)
"""What an ``fsync`` of a folder answers where the file system does not offer it (the
write errors, ``EIO``, ``ENOSPC``, ``EDQUOT`` and any other, are raised)."""


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Make a rename or creation in ``path`` durable.  Does nothing where folders cannot be
    opened or synced (Windows; a file system that answers ``EINVAL`` or ``ENOTSUP``).
    Raises OSError for a write error (``EIO``, ``ENOSPC``...): what the caller relies on may
    not be on disk, and must not be taken as durable."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _NO_FOLDER_SYNC:
            name_error(exc, path)
            raise
    finally:
        os.close(fd)


def name_error(exc: BaseException, path: str | os.PathLike[str]) -> None:
    """Give ``exc``, a system error of a call that names no file (a ``write`` or ``fsync`` of
    a descriptor), the name ``path`` of the file being written, so that the message a person
    reads says which file the system refused.  Anything else is left as it is."""
    if isinstance(exc, OSError) and exc.filename is None:
        exc.filename = os.fspath(path)


REPLACE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
"""How a temporary or staging file is opened: created or emptied, write-only."""


def temp_path(target: str) -> str:
    """The temporary name beside ``target`` under which this process writes its new
    content before renaming it over ``target`` (:data:`TEMP_PREFIX`, so scans skip it and
    :func:`sweep_temp` removes a killed writer's)."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f"{TEMP_PREFIX}{name}.{os.getpid()}")


def write_fd(fd: int, raw: bytes) -> None:
    """Write all of ``raw`` to the open file ``fd`` (no Python buffer in between).  One
    ``write`` takes all of a regular file's few kilobytes; a short write (a signal, a full
    disk's last bytes, a pipe) goes on from where it stopped.  Raises OSError."""
    done = os.write(fd, raw)
    if done < len(raw):
        view = memoryview(raw)[done:]
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
    folder = os.path.dirname(target)
    tmp = temp_path(target)
    try:
        fd = os.open(tmp, REPLACE_FLAGS, mode)
    except FileNotFoundError:
        os.makedirs(folder or ".", exist_ok=True)
        fd = os.open(tmp, REPLACE_FLAGS, mode)
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
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        name_error(exc, target)
        raise
    if durable:
        fsync_dir(folder or ".")


_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
_UNNAMED = getattr(os, "O_TMPFILE", 0)
_UNNAMED_FLAGS = os.O_WRONLY | _UNNAMED | getattr(os, "O_CLOEXEC", 0)


class Pending:
    """A file written whole but not yet named (:func:`stage_file`): its descriptor ``fd`` can
    be synced with others (:func:`sync_files`) before :meth:`name` gives it its name.

    On Linux it has no name at all (``O_TMPFILE``) until :meth:`name` links it; elsewhere
    (or where the file system or ``/proc`` refuses) it is written under a staging name
    beside its target, linked by :meth:`name` and the staging name removed.  :meth:`close`
    drops what was not named; a killed writer leaves nothing (Linux) or a staging file that
    :func:`sweep_temp` removes.
    """

    __slots__ = ("_staged", "data", "fd", "folder", "folders", "target")

    def __init__(self, fd: int, target: str, staged: str | None, folder: str) -> None:
        self.fd = fd
        self.target = target
        self.data = b""  # what stage_file wrote
        self.folder = folder  # the target's (``os.path.dirname(target) or "."``)
        self.folders: tuple[str, ...] = (self.folder,)
        """The folders to fsync once it is named: its own, and the parent of each folder made
        for it (a new folder's own name is durable only with its parent's fsync)."""
        self._staged = staged

    def name(self) -> None:
        """Give the file its name (one ``linkat``/``link``).  Raises FileExistsError when the
        name is taken (nothing changed), OSError otherwise.

        An unnamed file is linked through ``/proc/self/fd/N`` (``linkat(AT_FDCWD,
        "/proc/self/fd/N", AT_FDCWD, target, AT_SYMLINK_FOLLOW)``, the way ``open(2)``
        documents): ``/proc/self`` is looked up by the kernel at this call, so a forked worker
        always names its own file, with no descriptor of ``/proc`` to open and close.  The
        file's own descriptor is passed as ``src_dir_fd`` only so that Python calls
        ``linkat`` (without one it calls ``link``, which links the ``/proc`` entry itself and
        fails); ``linkat`` ignores it for an absolute path."""
        if self._staged is None:
            os.link(f"{_PROC_FDS}{self.fd}", self.target, src_dir_fd=self.fd, follow_symlinks=True)
        else:
            os.link(self._staged, self.target)

    def close(self) -> None:
        """Close the file and remove its staging name (never raises)."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
        if self._staged is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._staged)
            self._staged = None


_PROC_FDS = "/proc/self/fd/"


@functools.cache
def _proc_links() -> bool:
    """True where an unnamed file can be linked through ``/proc/self/fd`` (Linux with
    ``/proc`` mounted).  Looked up once per process: what it answers is the same in a forked
    worker, whose ``/proc/self`` is its own when :meth:`Pending.name` looks it up."""
    return os.path.isdir(_PROC_FDS)


def stage_file(
    path: str | os.PathLike[str], data: bytes, mode: int = 0o644, hook: CrashHook | None = None
) -> Pending:
    """Write ``data`` as the future file ``path`` (its folder made as needed), not synced and
    not yet named: the caller syncs it (:func:`sync_files`), names it (:meth:`Pending.name`),
    syncs its folder (and :attr:`Pending.folders` for a strict POSIX name of a folder made
    for it) and always closes it (:meth:`Pending.close`).  Crash point (``hook``, as
    :func:`atomic_write`): "written".  Raises OSError."""
    target = os.fspath(path)
    folder = os.path.dirname(target) or "."
    pending, made = _stage_unnamed(folder, target, mode)
    if pending is None:
        try:
            pending = _stage_named(folder, target, mode)
        except FileNotFoundError:  # the folder is new (a turn's orders/turn-NNNN/)
            made = _make_folder(folder)
            pending = _stage_named(folder, target, mode)
    pending.folders = (*pending.folders, *made)
    try:
        write_fd(pending.fd, data)
        pending.data = data
        crash_point("written", hook)
    except BaseException as exc:
        pending.close()
        name_error(exc, target)
        raise
    return pending


def _make_folder(folder: str) -> tuple[str, ...]:
    """Make ``folder`` and its missing parents; returns the parents of the folders it made,
    whose fsync makes their names durable.  Raises OSError."""
    try:
        os.mkdir(folder)  # the usual case: its parent exists
        return (os.path.dirname(os.path.abspath(folder)),)
    except FileExistsError:
        return ()
    except FileNotFoundError:
        pass
    made = []
    cursor = os.path.abspath(folder)
    while not os.path.isdir(cursor) and cursor != os.path.dirname(cursor):
        made.append(cursor)
        cursor = os.path.dirname(cursor)
    os.makedirs(folder, exist_ok=True)
    return tuple(os.path.dirname(m) for m in made)


def _stage_unnamed(folder: str, target: str, mode: int) -> tuple[Pending | None, tuple[str, ...]]:
    """:func:`stage_file` with ``O_TMPFILE`` (making ``folder`` if it is missing), with the
    parents of the folders it made; None where it is not offered (nothing done but the
    folder)."""
    if not _UNNAMED or not _proc_links():
        return None, ()
    made: tuple[str, ...] = ()
    try:
        try:
            fd = os.open(folder, _UNNAMED_FLAGS, mode)
        except FileNotFoundError:  # the folder is new (a turn's orders/turn-NNNN/)
            made = _make_folder(folder)
            fd = os.open(folder, _UNNAMED_FLAGS, mode)
    except OSError:  # EOPNOTSUPP, EISDIR (an old kernel), ...: the portable way
        return None, made
    return Pending(fd, target, None, folder), made


def _stage_named(folder: str, target: str, mode: int) -> Pending:
    """:func:`stage_file` through a staging name beside the target (written in place: it is
    never read).  Raises FileNotFoundError if ``folder`` does not exist."""
    staged = os.path.join(folder, f"{TEMP_PREFIX}stage-{os.path.basename(target)}.{os.getpid()}")
    return Pending(os.open(staged, REPLACE_FLAGS, mode), target, staged, folder)


def create_file(
    path: str | os.PathLike[str], data: bytes, mode: int = 0o644, hook: CrashHook | None = None
) -> None:
    """Create the file ``path`` holding ``data``, durably and complete or not at all, where
    no file has that name (a history file, an accepted order file).  Raises
    FileExistsError when the name is taken (nothing changed), OSError otherwise.

    The file is staged (:func:`stage_file`: on Linux unnamed, ``O_TMPFILE``, the documented
    way of ``open(2)``; elsewhere under a staging name), fsynced, linked to its name and the
    folder fsynced: one metadata change, and a crash at any point leaves nothing behind (a
    staging file at most, which :func:`sweep_temp` removes).  Crash points (``hook``, as
    :func:`atomic_write`): "written", "synced", "renamed".
    """
    pending = stage_file(path, data, mode, hook)
    folders = pending.folders
    try:
        try:
            os.fsync(pending.fd)
        except OSError as exc:
            name_error(exc, path)
            raise
        crash_point("synced", hook)
        try:
            pending.name()
        except FileExistsError:
            raise
        except OSError:  # pragma: no cover - /proc that cannot link: the portable way
            pending.close()
            pending = _stage_named(pending.folder, pending.target, mode)
            write_fd(pending.fd, data)
            os.fsync(pending.fd)
            pending.name()
        crash_point("renamed", hook)
    finally:
        pending.close()
    for folder in folders:
        fsync_dir(folder)


@functools.cache
def _writeback_hint() -> Callable[[int], int] | None:
    """Linux's ``sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE)``: start writing a file's
    dirty pages without waiting, so the fsyncs that follow find them written or on their
    way.  None where it is not offered (it is only a hint: nothing relies on it)."""
    if sys.platform != "linux":
        return None
    try:
        import ctypes

        call = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):  # pragma: no cover - a libc without it
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
    call.restype = ctypes.c_int
    return lambda fd: call(fd, 0, 0, _SYNC_FILE_RANGE_WRITE)  # restype c_int: an int already


_SYNC_FILE_RANGE_WRITE = 2


def sync_files(fds: Sequence[int], hook: CrashHook | None = None) -> None:
    """Make the open files ``fds`` durable together: on Linux each file's writeback is
    started first (a hint; a failing or missing hint changes nothing), then each is fsynced,
    so the later fsyncs find their data written.  Crash point (``hook``): "synced" after the
    last.  Raises OSError (an fsync that fails: nothing may be taken as durable)."""
    hint = _writeback_hint() if len(fds) > 1 else None
    if hint is not None:
        for fd in fds:
            try:
                hint(fd)
            except Exception:  # a hint: its failure must change nothing
                continue
    for fd in fds:
        os.fsync(fd)
    crash_point("synced", hook)


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

    The usual case (a new turn's folder) costs no look-up of the target: the files are
    staged and the rename itself finds a folder that exists (it refuses to replace one that
    holds files, or anything but a folder); only then is the stage dropped and the files
    written into the folder one by one (a republish, after a crash).
    """
    target = os.fspath(path)
    parent, name = os.path.split(target)
    stage = os.path.join(parent, f"{TEMP_PREFIX}{name}")
    _make_stage(stage)
    try:
        for filename, data in files.items():
            fd = os.open(os.path.join(stage, filename), _NEW, 0o644)
            try:
                write_fd(fd, data.encode("utf-8") if isinstance(data, str) else data)
            except OSError as exc:
                name_error(exc, os.path.join(target, filename))
                raise
            finally:
                os.close(fd)
            crash_point("written", hook)
        try:
            os.rename(stage, target)
        except OSError:  # ENOTEMPTY, EEXIST, ENOTDIR: the folder (or something) is there
            if not os.path.lexists(target):
                raise
            renamed = False
        else:
            renamed = True
            crash_point("renamed", hook)
    except BaseException:
        _remove_tree(stage)
        raise
    if not renamed:
        _remove_tree(stage)
        for filename, data in files.items():
            atomic_write(os.path.join(target, filename), data, durable=False, hook=hook)


def _make_stage(stage: str) -> None:
    """Make the staging folder ``stage`` of :func:`write_folder` anew: one ``mkdir`` where its
    parent exists and no killed writer left one (every turn but the first); a stray staging
    folder (or file) by that name is removed first; missing parents are made.  Raises
    OSError."""
    try:
        os.mkdir(stage)
    except FileExistsError:  # a killed writer's
        _remove_tree(stage)
        os.mkdir(stage)
    except FileNotFoundError:  # the game's first reports: reports/ itself is new
        os.makedirs(stage)


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
