"""Durable small writes for the moderator, and the crash points the fault tests use.

Every file the moderator writes goes through :func:`write_atomic`: a temporary file in the
same folder, flushed and fsynced, renamed over the target, and the folder fsynced, so a
reader (or a restarted moderator) sees the old file or the new one, never a torn one.

Crash points: when the environment variable ``PBEM_CRASH_AFTER`` is N > 0, the N-th call
of :func:`step` in this process ends it at once with ``os._exit(CRASH_EXIT)``, as a kill
would.  :func:`write_atomic` calls :func:`step` at each step of the write (before and after
its rename), and the moderator calls it between the steps of its work, so the fault tests can stop it at every
point that matters and check that a restart reaches the same result.

Group commit: inside :func:`grouped` (one game's work in a pass), :func:`write_once`,
:func:`link_all` and :func:`remove` with ``later=True`` do not sync each file.  Their files
are written (atomically: a kill never tears one) and noted; :func:`barrier` then makes all
of them durable at once (one ``syncfs`` of each file system they are on, where the system
has it, else one ``fsync`` per file and per folder), and :func:`finish` makes the removals
the group put off.  A removal is put off until the answer and the record that say the file
was handled are durable, so a power cut never leaves a file gone and its answer lost.

Shared barriers: a pass may hand the end of a game's group (the record that says its answers
were given, its removals, its lock) to :func:`defer`: it then waits for the next barrier,
which the next game's intent needs anyway, and that one ``syncfs`` makes both games' writes
durable before the first game's end is written (see :func:`defer`).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
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


def write_atomic(path: Path, data: bytes | str, mode: int = 0o644, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically (the engine's own atomic write), counting a
    crash point at each of its steps: written, synced (before the rename) and renamed.
    ``durable=False``: not synced here; inside :func:`grouped` the file is noted for the
    group's next :func:`barrier` (outside a group, only the system's own write-back makes it
    durable: for files a later step rebuilds)."""
    atomic_write(path, data, mode, durable=durable, hook=lambda label: step(f"{label} {path.name}"))
    if not durable and _group is not None:
        _group.note(path)


def write_once(path: Path, data: bytes | str, mode: int = 0o644) -> bool:
    """Write ``path`` unless it exists already (idempotent output); True if written now.
    Inside :func:`grouped` it is made durable by the group's next :func:`barrier`."""
    if path.exists():
        return False
    write_atomic(path, data, mode, durable=_group is None)
    return True


class Group:
    """The files, folders and removals of one group (see :func:`grouped`) not yet durable."""

    def __init__(self) -> None:
        self.files: dict[str, None] = {}
        self.folders: dict[str, None] = {}
        self.removals: list[tuple[Path, os.stat_result | None]] = []
        """Paths to remove at :func:`finish`, each with the ``lstat`` of the entry that was
        handled (None: whatever is there)."""
        self.barriers = 0
        """How many barriers synced something (for tests and benchmarks)."""

    def note(self, path: Path) -> None:
        """Make ``path`` (a file written or linked) and its folder durable at the next barrier."""
        self.files[os.fspath(path)] = None
        self.folders[os.fspath(path.parent)] = None

    def note_folder(self, folder: Path) -> None:
        """Make the entries of ``folder`` (a link made in it) durable at the next barrier."""
        self.folders[os.fspath(folder)] = None

    @property
    def pending(self) -> bool:
        return bool(self.files or self.folders)


_group: Group | None = None


@contextlib.contextmanager
def grouped(group: Group | None = None) -> Iterator[Group]:
    """Defer the syncs of :func:`write_once`, :func:`link_all` and ``remove(later=True)``
    inside the block to :func:`barrier` calls (the caller places them).  What the block
    leaves unsynced or unremoved when it raises stays so: every such write is one a restart
    redoes (see :mod:`pbem.moderator.core`).  ``group``: go on with a group an earlier
    block began (a game whose pass is done in two parts), else a new one."""
    global _group
    outer, _group = _group, group if group is not None else Group()
    try:
        yield _group
    finally:
        _group = outer


def active_group() -> Group | None:
    """The group the current block writes into, if any."""
    return _group


SyncFs = Callable[[int], None]
_syncfs: list[SyncFs | None] = []


def kernel_release() -> str:
    """The running kernel's release (``uname -r``)."""
    return os.uname().release


def syncfs_reports_errors(release: str) -> bool:
    """True if a Linux kernel of release ``release`` (``os.uname().release``, such as
    "6.1.0-18-amd64") reports write errors from ``syncfs``: 5.8 and later.  Before 5.8 it
    returned success when a file's writeback had failed, so a barrier could not know its
    files were on disk.  A release that does not start with a version: False."""
    match = re.match(r"(\d+)\.(\d+)", release)
    return match is not None and (int(match[1]), int(match[2])) >= (5, 8)


def _load_syncfs() -> SyncFs | None:
    """``syncfs(2)`` through ctypes on Linux (one call syncs a whole file system); None
    elsewhere or where the C library lacks it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.syncfs
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int]
    fn.restype = ctypes.c_int

    def syncfs(fd: int) -> None:
        if fn(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))

    return syncfs


def syncfs_function(*, reporting: bool = True) -> SyncFs | None:
    """The system's ``syncfs``, loaded once (None where there is none).  ``reporting``: only
    a ``syncfs`` that reports write errors, as a barrier needs (None on a kernel older than
    5.8, :func:`syncfs_reports_errors`: barriers there fsync each file and folder, which
    reports them)."""
    if not _syncfs:
        _syncfs.append(_load_syncfs())
    if reporting and not syncfs_reports_errors(kernel_release()):
        return None
    return _syncfs[0]


USE_SYNCFS = True
"""Barriers sync whole file systems where the system can (False: one fsync per file and
folder, as the moderator did before; for benchmarks and systems where others keep a file
system busy)."""


def sync_paths(files: Collection[str], folders: Collection[str]) -> None:
    """Make ``files`` and the entries of ``folders`` durable: one ``syncfs`` per file system
    the folders are on (Linux), else an ``fsync`` of each file and folder.  Raises OSError
    when the disk reports a write error."""
    syncfs = syncfs_function() if USE_SYNCFS else None
    if syncfs is not None:
        for folder in _one_per_device(folders):
            _syncfs_at(syncfs, folder)
        return
    for name in files:
        with contextlib.suppress(FileNotFoundError):
            fd = os.open(name, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    for folder in folders:
        fsync_dir(folder)


def _one_per_device(folders: Iterable[str]) -> list[str]:
    """One of ``folders`` for each file system they are on (those that cannot be reached left
    out: nothing was written there)."""
    devices: dict[int, str] = {}
    for folder in folders:
        with contextlib.suppress(OSError):
            devices.setdefault(os.stat(folder).st_dev, folder)
    return list(devices.values())


def _syncfs_at(syncfs: SyncFs, folder: str) -> None:
    """``syncfs`` of the file system ``folder`` is on.  Raises OSError."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        syncfs(fd)
    finally:
        os.close(fd)


def sync_filesystems(folders: Collection[str | os.PathLike[str]]) -> None:
    """Make everything written on the file systems of ``folders`` durable: one ``syncfs``
    each where the system has it, else one ``sync`` of every file system.  Raises OSError
    when the disk reports a write error (``syncfs`` on Linux 5.8 and later; ``sync`` and
    older kernels report none: what this call follows is redone by the next pass)."""
    syncfs = syncfs_function(reporting=False) if USE_SYNCFS else None
    if syncfs is None:
        os.sync()
        return
    for folder in _one_per_device(os.fspath(f) for f in folders):
        _syncfs_at(syncfs, folder)


End = Callable[[OSError | None], None]
"""The put-off end of a group (see :func:`defer`): called once, with None after a barrier made
the group's writes durable, or with the error of a barrier that failed."""

_waiting: list[tuple[Group, End]] = []
"""Groups whose end waits for the next barrier, oldest first (see :func:`defer`)."""


def defer(end: End) -> None:
    """Put off the end of the current group until the next :func:`barrier` (or :func:`flush`),
    instead of a barrier of its own: what saves a ``syncfs`` a game in a pass, since the next
    game's intent needs a barrier anyway and one ``syncfs`` makes the writes of both durable.

    ``end`` writes what says the group's writes were given (the game's end record), makes the
    group's put-off removals (it runs with the group as the current one, so :func:`finish`
    finds them) and lets go of what it holds (the game's lock).  It is called with None only
    after a barrier that synced every file and folder of the group (all file systems of all
    waiting groups, or each file and folder where there is no ``syncfs``), so the order a
    power cut relies on (answers durable, then the record, then the removals) is the same as
    with a barrier of its own; with the OSError of a barrier that failed it must write
    nothing (the answers are not known durable: the next pass retries, as after a kill).
    A group with nothing left to sync ends at once.  ``end`` must not raise."""
    group = _group
    if group is None or not group.pending:
        _end(group or Group(), end, None)
        return
    _waiting.append((group, end))


def waiting() -> int:
    """How many groups wait for a barrier to end (see :func:`defer`)."""
    return len(_waiting)


_ended_rounds = 0
"""How many times the waiting groups were ended (every barrier ends all of them)."""


def ended_rounds() -> int:
    """A count that changes whenever the waiting groups are ended: a caller that sees it
    unchanged knows the groups waiting now include every group that waited before."""
    return _ended_rounds


def _end(group: Group, end: End, failure: OSError | None) -> None:
    global _group
    outer, _group = _group, group
    try:
        end(failure)
    finally:
        _group = outer


def _end_waiting(failure: OSError | None) -> None:
    """End every waiting group, oldest first (each once, even when one of them raises)."""
    global _ended_rounds
    _ended_rounds += 1
    while _waiting:
        group, end = _waiting.pop(0)
        _end(group, end, failure)


def barrier(also: Sequence[Group] = ()) -> bool:
    """Make everything the current group wrote so far durable, and everything the groups
    ``also`` and the groups waiting for a barrier wrote (see :func:`defer`), then end the
    waiting ones; True if it synced (nothing is synced when nothing is pending and none
    waits).  Raises OSError for a disk error (the waiting groups are then ended with it)."""
    groups = [g for g in (_group, *also) if g is not None and g.pending]
    if not groups and not _waiting:
        return False
    groups += [g for g, _ in _waiting]
    files: dict[str, None] = {}
    folders: dict[str, None] = {}
    for group in groups:
        files.update(group.files)
        folders.update(group.folders)
    try:
        sync_paths(files, folders)
    except OSError as exc:
        _end_waiting(exc)
        raise
    for group in groups:
        group.files.clear()
        group.folders.clear()
        group.barriers += 1
    step("barrier")
    _end_waiting(None)
    return True


def flush(also: Sequence[Group] = ()) -> bool:
    """The barrier for ``also`` (groups of games whose next step waits for it) and the groups
    waiting to end, outside any group (between games, or at the end of a pass); True if it
    synced.  Raises OSError for a disk error (the waiting groups are then ended with it)."""
    global _group
    outer, _group = _group, None
    try:
        return barrier(also)
    finally:
        _group = outer


def abandon(failure: OSError) -> None:
    """End every waiting group with ``failure``, unsynced (a pass stopped by an exception):
    their ends write nothing and let go of their locks, as a kill there would leave them."""
    _end_waiting(failure)


def finish() -> int:
    """Make the removals the current group put off (after its last barrier); how many.
    Not synced: a removal a power cut undoes is made again by the next pass (the record
    lists the file as handled).  An entry given with the ``lstat`` of what was handled is
    removed only if it is still that entry (same file, size and modification time): one a
    player saved again under the same name meanwhile stays, for the next pass to read."""
    group = _group
    if group is None:
        return 0
    done = 0
    for path, handled in group.removals:
        with contextlib.suppress(FileNotFoundError):
            if handled is not None and not _same_entry(os.lstat(path), handled):
                step(f"kept {path.name}")
                continue
            path.unlink()
            done += 1
        step(f"removed {path.name}")
    group.removals.clear()
    return done


def _same_entry(now: os.stat_result, handled: os.stat_result) -> bool:
    """True if ``now`` (an ``lstat``) is the entry ``handled`` was, unchanged."""
    return (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns, now.st_mode) == (
        handled.st_dev,
        handled.st_ino,
        handled.st_size,
        handled.st_mtime_ns,
        handled.st_mode,
    )


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
    group = _group
    for source, target in pairs:
        if source not in synced:
            if group is not None:
                group.note(source)
            else:
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
        write_atomic(target, source.read_bytes(), durable=group is None)
        out.append("copied")
    for folder in folders:
        if group is not None:
            group.note_folder(folder)
        else:
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


def remove(path: Path, later: bool = False, handled: os.stat_result | None = None) -> None:
    """Delete ``path`` durably; a missing file is fine (the step may be repeated).
    ``later`` inside :func:`grouped`: put off until :func:`finish`, after the group's last
    barrier; ``handled``, the ``lstat`` of the entry that was read: :func:`finish` leaves a
    file that is no longer that entry (saved again under the same name meanwhile)."""
    if later and _group is not None:
        _group.removals.append((path, handled))
        return
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
