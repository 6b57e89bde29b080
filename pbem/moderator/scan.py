"""Finding work cheaply: which games changed, and which inbox files are complete.

A pass over a root of a thousand games must not read a thousand games.  For each game the
moderator keeps, on its local disk, a signature: the (mtime, size, inode) of the game's
folder, its inbox folders and its moderator record.  Dropping, renaming or deleting a file
in an inbox changes its folder's mtime, so an unchanged signature (and no deadline due and
no file still settling) means there is nothing to do, and the game costs a few ``stat``
calls.  The index is a cache: losing it costs one full pass, never a wrong result.

Temporary and half-written files are ignored until complete: dot-files, editor and sync
tool temporaries (``*.tmp``, ``*.part``, ``~`` backups, ...), and files that changed
within the settle time (:func:`changed_ns`).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.moderator.durable import write_atomic
from pbem.moderator.notices import Notice

TEMP_SUFFIXES = (".tmp", ".temp", ".part", ".partial", ".crdownload", ".swp", ".swx", "~", ".lock", ".!sync")
TEMP_PREFIXES = (".", "~$", "#")


INCOMPLETE_WAIT = 60
"""Seconds an inbox file that looks unfinished (see :func:`incomplete`) is left to its
writer after its last change, before it is answered as it is."""


def incomplete(data: bytes) -> bool:
    """True for an inbox file its writer may not have finished: empty, or with a block's
    BEGIN line after the last END line (orders, press, a sealed block: each ends with an
    END line; a copy or sync tool that writes a file in place, in pieces, can pause longer
    than the settle time between them; some first set its whole size aside as NULs)."""
    if not data.strip(b" \t\r\n\0"):  # empty, or space a writer set aside (NULs)
        return True
    return data.rfind(b"-----BEGIN ") > data.rfind(b"-----END ")


def unfinished_notice(notice: Notice, data: bytes) -> Notice:
    """The answer to a dropped file refused as it is after :func:`incomplete` waited for
    it: what it looks like (empty, or cut off before its END line) and what to do in a
    shared folder (the reader's own hint speaks of mail)."""
    if not data.strip(b" \t\r\n\0"):
        size = "0 bytes" if not data else f"{len(data)} bytes, all blank"
        message = f"{notice.source}: the file is empty ({size}): no order block to read."
    else:
        message = f"{notice.message}\nThe file ends before the block's END line: it was cut off."
    hint = (
        "drop the whole signed file again, as 'pbem sign' wrote it; if a copy or a sync tool "
        "was still writing it, wait until it is done (the moderator waits a minute for a file "
        "that looks unfinished)"
    )
    return replace(notice, message=message, hint=hint)


SYSTEM_NAMES = frozenset(
    {
        "desktop.ini",  # Windows, OneDrive: a folder's settings
        "thumbs.db",  # Windows: picture thumbnails
        "ehthumbs.db",
        "ehthumbs_vista.db",
        "icon\r",  # macOS: a folder's icon
        "@eadir",  # Synology NAS: its index, in every folder
        "$recycle.bin",  # Windows, on a network share
        "system volume information",
    }
)
"""Files and folders an operating system, NAS or sync tool makes in any folder it shows
(lower case): never orders, and made again if moved aside."""


def is_temporary(name: str) -> bool:
    """True for names that sync tools, editors and browsers use while a file is incomplete,
    and for the files a system makes in every folder (:data:`SYSTEM_NAMES`)."""
    lower = name.lower()
    return lower.startswith(TEMP_PREFIXES) or lower.endswith(TEMP_SUFFIXES) or lower in SYSTEM_NAMES


@dataclass(frozen=True)
class InboxFile:
    """A complete entry in a player's inbox folder (normally a file)."""

    path: Path
    folder: str
    """The inbox sub-folder it was dropped in (the player's own; "" for ``inbox/`` itself)."""
    size: int
    mtime_ns: int
    mode: int = stat.S_IFREG
    """Its ``lstat`` mode: anything but a regular file is moved aside unread."""
    st: os.stat_result | None = None

    @property
    def regular(self) -> bool:
        return stat.S_ISREG(self.mode)


def changed_ns(st: os.stat_result, now_ns: int) -> int:
    """When the entry ``st`` last changed, as far as this machine can tell: the later of its
    inode change time (POSIX ``st_ctime``: set by the kernel on every write, rename and
    ``utime``, and by nobody else) and its modification time, a modification time in the
    future left out.  A player (or their sync tool, from a clock that runs ahead) sets the
    modification time of the files they write; on the mtime alone a file dated next year
    would wait until next year, and a file dated in the past would be read while still
    being written.  Where ``st_ctime`` is not a change time (Windows: the creation time),
    the modification time alone."""
    mtime = st.st_mtime_ns if st.st_mtime_ns <= now_ns else 0
    return max(st.st_ctime_ns, mtime) if os.name == "posix" else mtime


def inbox_files(
    inbox: Path, now_ns: int, settle_ns: int, skip: Collection[str] = ()
) -> tuple[list[InboxFile], int | None]:
    """Complete entries under ``inbox/<player>/`` (and any dropped straight into ``inbox/``,
    with ``folder`` ""; none in the sub-folders named in ``skip``), oldest first, and when
    the earliest of those still settling last changed (``now_ns``'s clock; None: none is
    settling).  Nothing is followed through a
    symbolic link: a link, a folder, a FIFO in a player's folder is listed (by its own
    ``lstat``) for the moderator to move aside.

    An entry is settling if it changed (:func:`changed_ns`) less than ``settle_ns`` ago;
    temporary names are skipped and do not count as settling (they may be abandoned for
    ever).
    """
    ready: list[InboxFile] = []
    settling: int | None = None
    try:
        top = list(os.scandir(inbox))
    except OSError:
        return [], None
    groups: list[tuple[str, list[os.DirEntry[str]]]] = [("", [])]
    for entry in top:
        if is_temporary(entry.name):
            continue
        try:
            is_folder = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if not is_folder:
            groups[0][1].append(entry)
            continue
        if entry.name in skip:
            continue
        try:
            groups.append((entry.name, list(os.scandir(entry.path))))
        except OSError:
            continue
    for folder, entries in groups:
        for entry in entries:
            if is_temporary(entry.name):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            changed = changed_ns(st, now_ns)
            if now_ns - changed < settle_ns:
                settling = changed if settling is None else min(settling, changed)
                continue
            ready.append(InboxFile(Path(entry.path), folder, st.st_size, st.st_mtime_ns, st.st_mode, st))
    ready.sort(key=lambda f: (f.mtime_ns, os.fsencode(f.folder), os.fsencode(f.path.name)))
    return ready, settling


def fair_share(files: Sequence[InboxFile], limit: int) -> list[int]:
    """The positions in ``files`` (oldest first) of the ``limit`` entries one pass takes when
    there are more: taken in turn from each inbox folder, each folder's oldest first, and
    kept in ``files``' order.  One folder's flood (backdated or not: a player sets the times
    of the files they write) then never holds back the files of another folder."""
    taken: dict[str, int] = {}
    rounds: list[tuple[int, int]] = []
    for position, entry in enumerate(files):
        rounds.append((taken.get(entry.folder, 0), position))
        taken[entry.folder] = rounds[-1][0] + 1
    return sorted(position for _, position in sorted(rounds)[:limit])


def signature(paths: Iterable[Path]) -> list[int]:
    """Stat facts of ``paths`` that change when their content or entries change; -1 if missing."""
    out: list[int] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            out.extend((-1, -1, -1))
            continue
        out.extend((st.st_mtime_ns, st.st_size, st.st_ino))
    return out


def watched_paths(game_dir: Path, inbox: Path, extra: Iterable[Path] = ()) -> list[Path]:
    """What a game's signature covers: its folder, its inbox and each player's inbox folder,
    plus ``extra`` files (the moderator record, the current save)."""
    paths = [game_dir, inbox]
    with contextlib.suppress(OSError):
        paths.extend(sorted(Path(e.path) for e in os.scandir(inbox) if e.is_dir(follow_symlinks=False)))
    paths.extend(extra)
    return paths


def _valid_entry(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    sig, next_due = entry.get("sig"), entry.get("next_due")
    return (
        isinstance(sig, list)
        and all(type(v) is int for v in sig)
        and (next_due is None or type(next_due) is int)
        and isinstance(entry.get("settling"), bool)
    )


class Index:
    """The moderator's local cache of game signatures and next due times (one JSON file)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, dict[str, Any]] = {}
        self.dirty = False
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError, RecursionError):
            return
        games = data.get("games") if isinstance(data, dict) else None
        if isinstance(games, dict):
            # A cache: an entry of the wrong shape is dropped (that game gets one full look).
            self.entries = {k: v for k, v in games.items() if _valid_entry(v)}

    def unchanged(self, game: str, sig: list[int], now: int) -> bool:
        """True if nothing can have happened in ``game`` since it was last recorded."""
        entry = self.entries.get(game)
        if entry is None or entry.get("sig") != sig or entry.get("settling"):
            return False
        next_due = entry.get("next_due")
        return next_due is None or now < next_due

    def record(self, game: str, sig: list[int], next_due: int | None, settling: bool) -> None:
        """Remember a game's state after a pass handled it."""
        entry = {"sig": sig, "next_due": next_due, "settling": settling}
        if self.entries.get(game) != entry:
            self.entries[game] = entry
            self.dirty = True

    def forget(self, game: str) -> None:
        """Make the next pass look at ``game`` in full (after a moderator command)."""
        if self.entries.pop(game, None) is not None:
            self.dirty = True

    def prune(self, games: Mapping[str, object] | Iterable[str]) -> None:
        """Drop entries of games that no longer exist."""
        keep = set(games)
        for name in list(self.entries):
            if name not in keep:
                del self.entries[name]
                self.dirty = True

    def save(self) -> None:
        """Write the index if it changed (atomically: a torn index would only cost a full pass).

        Raises UsageError if the moderator's local folder cannot be written."""
        if self.dirty:
            try:
                write_atomic(self.path, json.dumps({"version": 1, "games": self.entries}, sort_keys=True))
            except OSError as exc:
                raise UsageError(
                    f"cannot write the moderator's index {self.path}: {exc.strerror or exc}",
                    hint="check the moderator's local folder (--state-dir): free space and permissions",
                ) from None
            self.dirty = False
