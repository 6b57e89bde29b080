"""Bad input moved aside: the quarantine, and reading inbox files without trusting them.

Whatever lands in a shared inbox is read the same careful way: never through a symbolic
link, never a FIFO or a device (which could block the pass for ever), at most a bounded
number of bytes.  A file that was read is kept, byte for byte, in the moderator's private
quarantine (``<state>/quarantine/<game>/<key>/``, on the moderator's own disk: a refused
order file may name a player's hidden cards, and players share the game folder), next to
``note.json`` saying where it came from and why it was refused; then it leaves the inbox.

Things that cannot be read (no permission, not a regular file, a broken link) are moved
aside whole by a rename: into the private quarantine when it is on the same disk, else into
``<game>/moderator/quarantine/`` (same disk as the inbox; the moderator's corner of the
game folder).  What cannot even be renamed stays where it is and the caller remembers it
by its ``stat`` identity, so it is reported once and never blocks a pass.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import RejectedError
from pbem.folder import fsync_dir
from pbem.inputs import read_fd
from pbem.moderator.durable import write_atomic, write_once

QUARANTINE_DIR = "quarantine"
"""Under the moderator's local state folder: ``quarantine/<game>/``."""
SHARED_QUARANTINE = ("moderator", "quarantine")
"""Under a game folder: only for things that could not be moved to the private one."""
MAX_COPY_BYTES = 64 * 1024 * 1024
"""A file larger than this that cannot be renamed into the quarantine is not copied."""
NOTE_NAME = "note.json"
"""Next to each quarantined thing, in its own folder: where it came from and why."""
NAME_LIMIT = 80
"""Characters of a file name kept in messages and in quarantine names."""


class Unreadable(Exception):
    """An inbox entry that cannot be read as a file; ``reason`` says why, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def shown(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` as safe, printable text for a notice or a log line: bytes that are not
    UTF-8 become ``\\xNN``, control and format characters ``\\uNNNN``, and a long name is
    shortened in the middle."""
    raw = os.fsencode(name)
    text = raw.decode("utf-8", "backslashreplace")
    out = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        else:
            out.append(char)
    safe = "".join(out)
    if len(safe) > limit:
        half = (limit - 3) // 2
        safe = f"{safe[:half]}...{safe[-half:]}"
    return safe


def file_token(name: str, limit: int = 40) -> str:
    """A short, portable file-name part made from ``name`` (ASCII letters, digits, ``.-_``)."""
    token = "".join(c if c.isascii() and (c.isalnum() or c in ".-_") else "_" for c in shown(name, limit))
    token = token.lstrip(".") or "file"
    return f"{token}_" if token == NOTE_NAME else token


def identity_key(folder: str, name: str, st: os.stat_result) -> str:
    """A key for an inbox entry that cannot be read: its place and its ``stat`` identity."""
    parts = [os.fsencode(folder), os.fsencode(name)]
    parts += [str(v).encode() for v in (st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns)]
    return "x" + hashlib.sha256(b"\0".join(parts)).hexdigest()[:23]


def content_key(folder: str, name: str, mtime_ns: int, data: bytes) -> str:
    """The key of an inbox file that was read: its place, time and content (the same key
    the moderator always used, for every name that is valid UTF-8)."""
    sha = hashlib.sha256(data).hexdigest()
    raw = b"/".join([os.fsencode(folder), os.fsencode(name), str(mtime_ns).encode(), sha.encode()])
    return hashlib.sha256(raw).hexdigest()[:24]


DISK_ERRORS = frozenset(
    getattr(errno, name)
    for name in ("EIO", "ESTALE", "ETIMEDOUT", "ENOMEM", "ENFILE", "EMFILE", "ENOTCONN", "EINTR", "EAGAIN")
    if hasattr(errno, name)
)
"""Read errors of the machine, not of the file: a failing disk, a network share that dropped
out, no file descriptor or memory left.  The file may read well on the next pass, so it is
neither refused nor moved aside (:func:`read_untrusted` raises them as they are)."""


def read_untrusted(path: Path, limit: int, follow_links: bool = False) -> tuple[bytes, int]:
    """The first ``limit`` bytes of the regular file ``path`` and its size.

    Never blocks on a FIFO or a device, and follows a symbolic link only if ``follow_links``
    (a moderator may link a settings file; nothing in an inbox is ever followed).  Raises
    FileNotFoundError if it is gone, OSError for an error of the machine (:data:`DISK_ERRORS`:
    the caller tries again later), Unreadable for anything else that stops the read.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno in DISK_ERRORS:
            raise
        if exc.errno == errno.ELOOP:
            raise Unreadable("it is a symbolic link, not a file") from None
        raise Unreadable(f"it cannot be opened ({os.strerror(exc.errno or 0) or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"it is {kind_of_mode(st.st_mode)}, not a file")
        return read_fd(fd, limit), st.st_size
    except OSError as exc:
        if exc.errno in DISK_ERRORS:
            exc.filename = exc.filename or os.fspath(path)
            raise
        raise Unreadable(f"it cannot be read ({os.strerror(exc.errno or 0) or exc})") from None
    finally:
        os.close(fd)


def kind_of_mode(mode: int) -> str:
    """What a ``stat`` mode is, in words: "a folder", "a FIFO", ..."""
    for test, words in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISREG, "a file"),
    ):
        if test(mode):
            return words
    return "not a file"


@dataclass(frozen=True)
class Quarantine:
    """Where one game's bad input is moved aside."""

    private: Path
    """``<state>/quarantine/<game>``: the moderator's own disk."""
    shared: Path
    """``<game>/moderator/quarantine``: only for what cannot leave the game folder's disk."""

    @classmethod
    def of(cls, state_dir: Path, game_dir: Path) -> Quarantine:
        return cls(state_dir / QUARANTINE_DIR / game_dir.name, game_dir.joinpath(*SHARED_QUARANTINE))

    def keep(self, key: str, name: str, data: bytes, note: Mapping[str, object]) -> Path:
        """Keep a copy of a file that was read (idempotent: the name comes from ``key``)."""
        target = self.private / key / file_token(name)
        write_once(target.parent / NOTE_NAME, json.dumps(note, indent=1, sort_keys=True))
        write_once(target, data)
        return target

    def move(self, path: Path, key: str, note: Mapping[str, object]) -> Path | None:
        """Move ``path`` (whatever it is; a link is moved, never followed) aside; where it
        went, or None if it could be neither renamed nor copied."""
        for base in (self.private, self.shared):
            folder = base / key
            target = folder / file_token(path.name)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                os.rename(path, target)
            except FileNotFoundError:
                if not os.path.lexists(path):
                    return None
                continue
            except OSError as exc:
                if folder == self.private and exc.errno == errno.EXDEV and self._copy(path, target):
                    self._note(target, note)
                    return target
                continue
            fsync_dir(folder)
            fsync_dir(path.parent)
            self._note(target, note)
            return target
        return None

    def _note(self, target: Path, note: Mapping[str, object]) -> None:
        with contextlib.suppress(OSError):
            write_once(target.parent / NOTE_NAME, json.dumps(note, indent=1, sort_keys=True))

    @staticmethod
    def _copy(path: Path, target: Path) -> bool:
        """Copy a link or a regular file across disks and remove the original; False if not."""
        try:
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                link = os.readlink(path)
                with contextlib.suppress(FileExistsError):
                    os.symlink(link, target)
            elif stat.S_ISREG(st.st_mode) and st.st_size <= MAX_COPY_BYTES:
                data, _ = read_untrusted(path, MAX_COPY_BYTES)
                write_atomic(target, data)
            else:
                return False
            os.unlink(path)
            fsync_dir(path.parent)
            return True
        except (OSError, Unreadable):
            return False


def ensure_real_dir(path: Path, quarantine: Quarantine, now: str) -> str | None:
    """Make ``path`` a real folder (not a link, not a file); a thing in its way is moved
    aside.  Returns a line for the journal when something had to be moved, else None.
    Raises RejectedError if a thing in the way can be neither moved nor removed, OSError if
    the folder cannot be made (a disk or permission problem)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        path.mkdir(parents=True, exist_ok=True)
        return None
    if stat.S_ISDIR(st.st_mode):
        return None
    what = kind_of_mode(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        with contextlib.suppress(OSError):
            target = os.readlink(path)
            what = f"a symbolic link to {shown(target)}" + ("" if os.path.exists(path) else " (dangling)")
    key = "d" + hashlib.sha256(os.fsencode(str(path)) + str(st.st_ino).encode()).hexdigest()[:23]
    note = {"was": shown(path.name), "reason": f"{what} stood where a folder belongs", "when": now}
    where = quarantine.move(path, key, note)
    if where is None:
        # Could not be moved: remove a link (it holds no data), never a file.
        if stat.S_ISLNK(st.st_mode):
            path.unlink()
        else:
            raise RejectedError(
                f"{path}: {what} stands where a folder belongs and cannot be moved aside",
                hint=f"move it away by hand; the moderator then makes the folder {path.name}/ again",
            )
    path.mkdir(parents=True, exist_ok=True)
    return f"{shown(path.name)} was {what}; moved aside to {where or 'nowhere (a link, removed)'}"
