"""What keeps one game folder whole when several writers meet it: the lock, the history that
binds a save to its folder, and the compare-and-swap write of a new save.

* **One lock per game, in the game folder.**  Every command that writes a game holds
  ``<game>/.pbem-lock`` (a ``filelock`` lock, freed by the kernel the moment its holder
  dies), so it is found the same way by every process on the machine, whatever its
  ``$XDG_RUNTIME_DIR``, ``$TMPDIR``, ``$PBEM_HOME`` or ``--state-dir``.  The file holds no
  data: a sync tool copying it to another machine is harmless (it locks nothing there).
* **The folder's history is the record every command consults.**  ``history/rev-000000.json``
  is written first, when the game is created, and binds the folder to its game id and its
  moderator; each later save is kept as ``history/rev-NNNNNN.json``, created exclusively
  (never overwritten).  A save is accepted only if it is this game's and the newest one the
  history knows: another game's save copied in, or an old one put back, is refused by every
  command, with or without a key.
* **Compare-and-swap.**  A writer replaces ``save.json`` only if it still holds the very
  bytes the writer read (checked right before the atomic rename), and only if no history
  file exists yet for the revision it writes.  Across machines of a synced folder nothing
  is atomic, so this narrows the window to the moment of the rename; the history files,
  created exclusively, make a fork visible instead of silent.

Order of writes: a new game writes its history first (the binding), then its save; every
later write replaces the save first, then adds its history file.  A writer killed between
the two leaves a save one revision ahead of the history, which :func:`check_history`
recognises (the save's ``prev`` is the newest history file's digest) and the next writer
completes (:func:`store_history`).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import ConflictError, ForeignError, PbemError, RollbackError, UsageError
from pbem.folder import (
    REPLACE_FLAGS,
    CrashHook,
    Pending,
    atomic_write,
    crash_point,
    create_file,
    fsync_dir,
    name_error,
    read_file,
    stage_file,
    sync_files,
    temp_path,
    write_fd,
)
from pbem.save import Save, file_sha256, read_save

SAVE_NAME = "save.json"
LOCK_NAME = ".pbem-lock"
HISTORY_DIR = "history"
_REVISION = re.compile(r"rev-([0-9]{6,9})\.json")


def history_path(folder: Path, revision: int) -> Path:
    """Where revision ``revision`` of the game in ``folder`` is kept."""
    return folder / HISTORY_DIR / f"rev-{revision:06d}.json"


def _history_file(folder: Path, revision: int) -> str:
    """:func:`history_path` as a plain string, for the checks every turn makes (a pathlib
    join costs more than the system call it names)."""
    return f"{os.fspath(folder)}{os.sep}{HISTORY_DIR}{os.sep}rev-{revision:06d}.json"


def file_digest(data: bytes) -> str:
    """SHA-256 of a save file's bytes: what compare-and-swap compares (the bytes of a save
    this process wrote or read are not hashed again: :func:`pbem.save.file_sha256`)."""
    return file_sha256(data)


# ---- the lock ---------------------------------------------------------------------------------
class FolderLock:
    """The lock of one game folder, re-entrant for the object that holds it.

    Two objects (two processes, or two holders in one process) exclude each other; one
    object may enter again while it holds the lock (the moderator holds it for a whole
    game and calls the engine, which takes it again).  Not shared between threads.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._depth = 0

    @property
    def held(self) -> bool:
        return self._depth > 0

    def hold(self, wait: float) -> _Holding:
        """Hold the lock for the block, waiting up to ``wait`` seconds for it; the block gets
        False (holding nothing) if another holder kept it that long.

        Raises UsageError if the lock file cannot be made or locked (a missing or read-only
        folder, a file system without locks).
        """
        return _Holding(self, wait)


class _Holding:
    """The block of :meth:`FolderLock.hold`: what a ``contextlib.contextmanager`` generator
    did, as a plain class (entered on every command and turn: a generator, its context
    object and its ``StopIteration`` cost about three times as much).  Entered once."""

    __slots__ = ("_lock", "_nested", "_release", "_wait")

    def __init__(self, lock: FolderLock, wait: float) -> None:
        self._lock = lock
        self._wait = wait
        self._nested = False
        self._release: Callable[[], None] | None = None

    def __enter__(self) -> bool:
        lock = self._lock
        if lock._depth:
            lock._depth += 1
            self._nested = True
            return True
        try:
            release = _acquire(lock.path, self._wait)
        except OSError as exc:
            raise UsageError(
                f"cannot lock the game in {lock.folder} ({LOCK_NAME}): {exc.strerror or exc}",
                "check that the folder exists, that you may write in it, and that its file system "
                "supports file locks",
            ) from None
        if release is None:
            return False
        lock._depth = 1
        self._release = release
        return True

    def __exit__(self, *exc: object) -> None:
        if self._nested:
            self._lock._depth -= 1
            return
        release, self._release = self._release, None
        if release is not None:
            self._lock._depth = 0
            release()


POLL = 0.02
"""Seconds between two tries for a lock another process holds."""


def _acquire(path: Path, wait: float) -> Callable[[], None] | None:
    """Take the lock file ``path`` (``flock``, as ``filelock`` takes it on POSIX, without its
    per-call overhead; ``filelock`` itself elsewhere), waiting up to ``wait`` seconds.
    Returns the function that frees it, or None if another holder kept it that long.
    Raises OSError if the file cannot be made or locked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return _acquire_filelock(path, wait)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + max(wait, 0)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return None
                time.sleep(POLL)
    except BaseException:
        os.close(fd)
        raise

    def release() -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    return release


def _acquire_filelock(path: Path, wait: float) -> Callable[[], None] | None:  # pragma: no cover
    from filelock import FileLock, Timeout

    lock = FileLock(str(path), thread_local=False, fallback_to_soft=False)
    try:
        lock.acquire(timeout=max(wait, 0))
    except Timeout:
        return None
    return lambda: lock.release()


# ---- history: the folder's own record -----------------------------------------------------------
@dataclass(frozen=True)
class Origin:
    """What ``history/rev-000000.json`` binds the folder to."""

    game_id: str
    verify_key: bytes


def read_origin(folder: Path, save: Save) -> Origin:
    """The game the folder was created for, read from its first history file.

    Raises ForeignError if there is none, or if it is another moderator's or not a first save.
    """
    path = history_path(folder, 0)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ForeignError(
            f"{folder} has no {HISTORY_DIR}/{path.name}, the file that binds a folder to its game: "
            f"{save.source} (game {save.game_id}) cannot be shown to belong here",
            f"if a sync tool keeps this folder on several machines, {HISTORY_DIR}/ may not have "
            f"arrived here yet: wait until the sync tool is done and look again; otherwise restore the "
            f"folder's {HISTORY_DIR}/ from your backup (a save is only used together with its game's "
            "history)",
        ) from None
    except OSError as exc:
        raise ForeignError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        first = read_save(data, str(path), save.moderator)
    except ForeignError:
        raise ForeignError(
            f"{save.source} is signed by moderator {save.moderator.name} ({save.moderator.key_id}), but "
            f"the game in {folder} was created by another moderator ({HISTORY_DIR}/{path.name})",
            "put back this folder's own save: its newest history/rev-NNNNNN.json",
        ) from None
    if first.revision != 0 or first.body["prev"] is not None:
        raise ForeignError(f"{path} is not the first save of a game (revision {first.revision})")
    return Origin(first.game_id, first.moderator.verify_key)


def newest_revision(folder: Path) -> int:
    """The highest revision in the folder's history (-1 if none)."""
    try:
        names = os.listdir(folder / HISTORY_DIR)
    except OSError:
        return -1
    found = [int(m.group(1)) for m in map(_REVISION.fullmatch, names) if m]
    return max(found, default=-1)


def _same_save(path: str, data: bytes, save: Save) -> bool | None:
    """True if the history file ``path`` holds ``save``, False if another, None if absent."""
    try:
        kept = read_file(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RollbackError(
            f"cannot read {path} ({exc.strerror or exc}) to check {save.source} against it",
            "make the game's history/ readable again",
        ) from None
    if kept == data:
        return True
    try:
        return read_save(kept, str(path), save.moderator).digest == save.digest
    except PbemError:
        return False


def check_history(folder: Path, save: Save, data: bytes, origin: Origin) -> bool:
    """Check that ``save`` (read from the bytes ``data``) is the current save of the game whose
    history is in ``folder``.  Returns True when history lacks the save's own revision and the
    save follows its newest entry (a writer was stopped between its two writes); the caller
    may then complete history with :func:`store_history`.

    Raises ForeignError (another game's save), RollbackError (an old save put back, or a
    save that forks from the history).
    """
    if save.game_id != origin.game_id:
        raise ForeignError(
            f"{save.source} is a save of game {save.game_id}, but the folder {folder} holds game "
            f"{origin.game_id} (its {HISTORY_DIR}/rev-000000.json): a save copied from another game",
            f"put back this folder's own save, the newest {HISTORY_DIR}/rev-NNNNNN.json of game "
            f"{origin.game_id}",
        )
    if save.moderator.verify_key != origin.verify_key:
        raise ForeignError(
            f"{save.source} is signed by moderator {save.moderator.name}, not by the moderator who "
            f"created game {origin.game_id} in {folder}",
            f"put back this folder's own save, the newest {HISTORY_DIR}/rev-NNNNNN.json",
        )
    revision = save.revision
    _remember_read(save, "")
    if os.path.lexists(_history_file(folder, revision + 1)):
        newest = newest_revision(folder)
        raise RollbackError(
            f"{save.source} is revision {revision} (turn {save.turn}) but revision {newest} of game "
            f"{save.game_id} is in {HISTORY_DIR}/: an old save was put back",
            f"if a sync tool keeps this folder on several machines, the newer {SAVE_NAME} may not "
            "have arrived here yet: wait until the sync tool is done and look again; otherwise "
            f"restore the newest save ({HISTORY_DIR}/rev-{newest:06d}.json) as {SAVE_NAME}, or use "
            "pbem rollback to go back on purpose",
        )
    kept = _history_file(folder, revision)
    same = _same_save(kept, data, save)
    if same:
        _remember_read(save, kept)
        return False
    if same is False:
        raise RollbackError(
            f"{save.source} differs from the revision {revision} seen before in {HISTORY_DIR}/ "
            f"(rev-{revision:06d}.json): a forked save, written by two moderators at once",
            f"keep the one in {HISTORY_DIR}/: copy {HISTORY_DIR}/rev-{revision:06d}.json to {SAVE_NAME}",
        )
    before = history_path(folder, revision - 1)
    try:
        previous = read_save(before.read_bytes(), str(before), save.moderator) if revision > 0 else None
    except (OSError, PbemError):
        previous = None
    if previous is None or previous.digest != save.body["prev"]:
        raise RollbackError(
            f"{save.source} is revision {revision} of game {save.game_id}, but {HISTORY_DIR}/ holds "
            f"neither it nor the revision it follows: it does not continue this folder's history",
            f"if a sync tool keeps this folder on several machines, {HISTORY_DIR}/ may not have "
            "caught up here yet: wait until the sync tool is done and look again, and put nothing "
            f"back (an older save put back would undo turns); if it stays so, put back the newest "
            f"{HISTORY_DIR}/rev-NNNNNN.json as {SAVE_NAME}",
        )
    return True


def store_history(folder: Path, revision: int, data: bytes) -> None:
    """Keep ``data`` as history file ``revision``, created exclusively (durably, complete or
    not at all): an existing file with the same bytes is fine, one with other bytes is never
    overwritten.

    Raises ConflictError if that revision is already in history with other content.
    """
    target = _history_file(folder, revision)
    try:
        create_file(target, data)
    except FileExistsError:
        if read_file(target) != data:
            raise ConflictError(
                f"{target} already holds another revision {revision}: another moderator wrote this game "
                "at the same time (a synced folder?)",
                "let one moderator run the game; then check the game with pbem status",
            ) from None
        fsync_dir(os.path.dirname(target))


_last_read: tuple[str, str] = ("", "")
"""The file digest of the save :func:`check_history` checked last, and the history file it
found holding that very save ("" if none): one entry, for :func:`commit`."""


def _remember_read(save: Save, kept: str) -> None:
    """Note that :func:`check_history` found the history file ``kept`` holding the bytes
    ``save`` was read from ("": it did not), by the save's file digest."""
    global _last_read
    _last_read = (save.file_digest, kept)


def _still_holds(current: bytes, previous: Save) -> bool:
    """True if the save file bytes ``current`` are those of ``previous``."""
    if previous.file_digest:
        return file_digest(current) == previous.file_digest
    try:
        return read_save(current, SAVE_NAME, previous.moderator).digest == previous.digest
    except PbemError:
        return False


def _unmake_first(folder: Path, save_path: str, data: bytes) -> None:
    """After a system error writing a new game's first save ``data``: unless the save was
    renamed into place, remove its history file (this writer's own bytes), so that the folder
    is as it was and ``pbem new`` can be run again, rather than holding a history with no
    save, which every command (and ``pbem new``) takes for a game.  Never raises."""
    kept = _history_file(folder, 0)
    with contextlib.suppress(OSError):
        if read_file(save_path) == data:
            return
    with contextlib.suppress(OSError):
        if read_file(kept) == data:
            os.unlink(kept)


def commit(
    folder: Path,
    previous: Save | None,
    data: bytes,
    revision: int,
    also: Sequence[tuple[str, bytes]] = (),
    hook: CrashHook | None = None,
) -> None:
    """Write the save ``data`` (revision ``revision``) if the folder still holds ``previous``
    (or, for a new game, no save and no history at all), and keep it in history.  ``also``:
    new files (path, bytes) that must be on disk before the save (an accepted order's sealed
    copy), created with it; a name already taken is replaced, durably.

    Raises ConflictError, changing nothing, if another writer got there first; OSError.
    Crash points (``hook``, else :func:`pbem.folder.set_crash_hook`'s): "written" after each
    file, "synced" after each batch of fsyncs, "renamed" after each name given.
    """
    save_path = os.path.join(folder, SAVE_NAME)
    if os.path.lexists(_history_file(folder, revision)):
        raise ConflictError(
            f"revision {revision} of the game in {folder} is already in {HISTORY_DIR}/: another writer "
            "saved the game meanwhile",
            "run the command again",
        )
    if previous is None:
        if os.path.lexists(save_path):
            raise ConflictError(f"{folder} already holds a game", "choose an empty folder")
        for path, raw in also:
            create_file(path, raw, hook=hook)
        try:
            store_history(folder, revision, data)
            atomic_write(save_path, data, hook=hook)
        except OSError:
            _unmake_first(folder, save_path, data)
            raise
        return
    try:
        current = read_file(save_path)
    except OSError:
        current = b""
    if not _still_holds(current, previous):
        raise ConflictError(
            f"{save_path} changed while this command worked (another writer saved the game)",
            "run the command again",
        )
    before = _history_file(folder, previous.revision)
    # check_history, under this lock, just read ``before`` holding these bytes: no lstat of it
    known = bool(previous.file_digest) and _last_read == (previous.file_digest, before)
    _replace_save(folder, save_path, before, current, data, revision, also, hook, known)


def _replace_save(
    folder: Path,
    save_path: str,
    before: str,
    current: bytes,
    data: bytes,
    revision: int,
    also: Sequence[tuple[str, bytes]],
    hook: CrashHook | None,
    before_known: bool = False,
) -> None:
    """:func:`commit` of a later save, in three barriers (see "The writes of an engine turn"
    in docs/robustness.md):

    1. every new file written whole, none named yet: ``also``, the save under a temporary
       name, its history file and, if history lacks it (a writer stopped, or a power cut),
       the history file ``before`` of the save being replaced (``current``); writeback of
       all started, then one fsync each;
    2. ``also`` and ``before`` named, then their folders fsynced with ``history/`` (which
       also makes the previous commit's history file name durable);
    3. the save renamed into place and the game folder fsynced; then its history file is
       named, not synced: the next commit syncs ``history/`` before its own rename, and a
       power cut that loses the name leaves the save one revision ahead of history, the gap
       :func:`check_history` recognises and the next writer completes.

    ``before_known``: :func:`check_history` read ``before`` a moment ago, in this process and
    under the game's lock, and found it holding the save ``current`` is; it is not looked up
    again (one ``lstat`` a turn).  Otherwise it is, and written if history lacks it.
    """
    history = os.path.join(folder, HISTORY_DIR)
    staged: list[Pending] = []
    tmp = temp_path(save_path)
    fd = -1
    try:
        if not before_known and not os.path.lexists(before):
            staged.append(stage_file(before, current, hook=hook))
        staged.extend(stage_file(path, raw, hook=hook) for path, raw in also)
        fd = os.open(tmp, REPLACE_FLAGS, 0o644)
        write_fd(fd, data)
        crash_point("written", hook)
        kept = stage_file(_history_file(folder, revision), data, hook=hook)
        staged.append(kept)
        sync_files([*(p.fd for p in staged), fd], hook)
        os.close(fd)
        fd = -1
        folders = {history}
        for pending in staged[:-1]:
            _name(pending, hook)
            folders.add(pending.folder)  # a folder made for it: its own name left to the file system
        for path in sorted(folders):
            fsync_dir(path)
        crash_point("synced", hook)
        os.replace(tmp, save_path)
        crash_point("renamed", hook)
        fsync_dir(folder)
        crash_point("synced", hook)
        _name(kept, hook)
    except BaseException as exc:
        name_error(exc, save_path)  # a write or fsync of one of its files: the save's commit
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        for pending in staged:
            pending.close()


def _name(pending: Pending, hook: CrashHook | None) -> None:
    """Give a staged file its name.  A taken name: a history file holding the same bytes is
    fine, one holding others is never overwritten (ConflictError); any other file (an order
    copy a stopped writer left) is replaced, durably."""
    try:
        pending.name()
    except FileExistsError:
        data = pending.data
        if _REVISION.fullmatch(os.path.basename(pending.target)):
            if read_file(pending.target) != data:
                raise ConflictError(
                    f"{pending.target} already holds another revision: another moderator wrote this game "
                    "at the same time (a synced folder?)",
                    "let one moderator run the game; then check the game with pbem status",
                ) from None
        else:
            atomic_write(pending.target, data, hook=hook)
    crash_point("renamed", hook)
