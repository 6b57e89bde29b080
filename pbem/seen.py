"""What a moderator remembers of each game it has seen: the newest save's revision and
digest, so that an old or forked save put back in a game folder is refused.

The record is one small file per game, rewritten **in place** on every save (no temporary
file, no rename over the old one, no fsync): a rename over an existing file makes ext4
start writing the file back at once, and a new file costs an inode a turn.  The file holds
one line of canonical JSON, ``{"digest": ..., "revision": N, "sum": ...}``, where ``sum``
is the SHA-256 of the same object without it.  A record cut short or mixed with the old one
by a crash or a power cut, or edited by hand, fails that check and reads as no record:
what is lost is the check it gives (until the next save writes it again), never a game,
as when the file is lost.  Records written before (no ``sum``, always written whole by a
rename) are read as they are.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from pbem import canonical
from pbem.errors import PbemError, RollbackError, UsageError
from pbem.folder import HOME_HINT, MISCONFIGURED, name_error, write_fd
from pbem.save import Save

_OPEN = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
RECORD_MAX = 4096
"""The longest file read as a record (pbem writes about 170 bytes)."""


@dataclass(frozen=True)
class Seen:
    """The newest save of a game a moderator has seen."""

    revision: int
    digest: str


_HEX = "0123456789abcdef"
_MAX_REVISION = 2**53 - 1


def _usual(revision: int, digest: str) -> bool:
    """True for what every save gives a record (a SHA-256 digest in lowercase hex, a
    revision JSON carries exactly): fields whose canonical JSON is plain formatting."""
    return (
        type(revision) is int
        and 0 <= revision <= _MAX_REVISION
        and (type(digest) is str and len(digest) == 64 and not digest.strip(_HEX))
    )  # lowercase hex only: no pattern compiled at start-up (`pbem status` imports this)


def _fields(revision: int, digest: str) -> bytes:
    """``canonical.dumps({"digest": digest, "revision": revision})``: for the usual fields
    formatted directly (no walk of the value, no encoder: sorted keys, no spaces, nothing to
    escape in hex digits), else by :func:`pbem.canonical.dumps`."""
    if _usual(revision, digest):
        return b'{"digest":"%s","revision":%d}' % (digest.encode("ascii"), revision)
    return canonical.dumps({"digest": digest, "revision": revision})


def _sum(revision: int, digest: str) -> str:
    """The check a record carries: SHA-256 of its canonical JSON without the check."""
    return hashlib.sha256(_fields(revision, digest)).hexdigest()


_KNOWN: dict[bytes, Seen] = {}
"""Records decoded (or encoded) before in this process, by their exact bytes: a record
file holding the very bytes this process wrote last turn is known without parsing and
summing it again.  Keyed by the whole content, so it cannot answer for any other bytes;
bounded by :data:`_KNOWN_MAX` (emptied when full)."""
_KNOWN_MAX = 512


def _remember(raw: bytes, seen: Seen) -> None:
    """Keep ``raw`` as the bytes of ``seen`` in :data:`_KNOWN`."""
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    _KNOWN[raw] = seen


def encode_seen(seen: Seen) -> bytes:
    """The bytes of a record (one line, ending in a newline)."""
    revision, digest = seen.revision, seen.digest
    if _usual(revision, digest):
        fields = b'{"digest":"%s","revision":%d' % (digest.encode("ascii"), revision)
        raw = b'%s,"sum":"%s"}\n' % (fields, hashlib.sha256(fields + b"}").hexdigest().encode("ascii"))
        _remember(raw, seen)  # what decode_seen finds in these bytes
        return raw
    body = {"digest": digest, "revision": revision, "sum": _sum(revision, digest)}
    return canonical.dumps(body).rstrip(b"\n") + b"\n"


def decode_seen(raw: bytes) -> Seen | None:
    """The record in ``raw``, or None when there is none to trust: empty, cut short, mixed
    with an older record, not JSON, a field of the wrong type or a check that fails.  Never
    raises.  Bytes met before in this process (the record it wrote last) are answered from
    :data:`_KNOWN`."""
    known = _KNOWN.get(raw)
    if known is not None:
        return known
    seen = _decode(raw)
    if seen is not None:
        _remember(raw, seen)
    return seen


def _decode(raw: bytes) -> Seen | None:
    """:func:`decode_seen`, the plain way: parsed strictly and its check recomputed."""
    try:
        data = canonical.loads(raw, "seen record")
    except PbemError:
        return None
    if not isinstance(data, dict):
        return None
    revision, digest = data.get("revision"), data.get("digest")
    if type(revision) is not int or not isinstance(digest, str) or revision < 0:
        return None
    if "sum" in data:
        if data["sum"] != _sum(revision, digest) or len(data) != 3:
            return None
    elif len(data) != 2:
        return None
    return Seen(revision, digest)


class SeenRecord:
    """The moderator's local memory of the newest save of each game (rollback detection).

    One small file per game (``seen/<game id>.json``), so that moderators working on
    different games never rewrite each other's records.
    """

    def __init__(self, home: Path) -> None:
        self.folder = home / "seen"
        self._prefix = os.path.join(self.folder, "")
        self._last_size: tuple[str, int] = ("", -1)
        """The record file :meth:`read` read last and its length then (-1: none, or no
        record file): :meth:`record` in the same turn need not ask the file's size again."""

    def _path(self, game_id: str) -> str:
        if not game_id.isalnum():
            raise RollbackError(f"game id {game_id!r} is not a pbem game id")
        return f"{self._prefix}{game_id}.json"

    def read(self, game_id: str) -> Seen | None:
        """The record of game ``game_id``, None when there is none (or none to trust: see
        the module's docstring).  Raises RollbackError for a game id that is not one.

        Read with one ``read`` of at most :data:`RECORD_MAX` + 1 bytes (no second call to
        find the end: a record is about 170 bytes); a file longer than that is not a record,
        and one a short read cut would fail its check (its closing brace missing): no
        record, as when it is lost."""
        path = self._path(game_id)
        self._last_size = ("", -1)
        try:
            fd = os.open(path, _READ)
            try:
                raw = os.read(fd, RECORD_MAX + 1)
            finally:
                os.close(fd)
        except OSError:  # absent, unreadable, a folder, a FIFO: no record, as when it is lost
            return None
        self._last_size = (path, len(raw))
        if len(raw) > RECORD_MAX:
            return None
        return decode_seen(raw)

    def check(self, save: Save) -> None:
        """Raise RollbackError if a newer save of this game was seen, or another at this revision."""
        seen = self.read(save.game_id)
        if seen is None:
            return
        if save.revision < seen.revision:
            raise RollbackError(
                f"{save.source} is revision {save.revision} (turn {save.turn}) but revision "
                f"{seen.revision} of game {save.game_id} was already seen: an old save was put back",
                "restore the newest save from history/, or use pbem rollback to go back on purpose",
            )
        if save.revision == seen.revision and save.digest != seen.digest:
            raise RollbackError(
                f"{save.source} differs from the revision {save.revision} seen before: a forked save"
            )

    def ready(self) -> None:
        """Before a write: when no record of the game was just read (a new game here, or a
        ``$PBEM_HOME`` that is missing or unusable), make the record's folder, so that one
        that cannot be made is said before the game is written rather than after.  A record
        read this turn means its folder is there: no system call then.  Raises UsageError."""
        if self._last_size[1] >= 0:
            return
        try:
            os.makedirs(self.folder, exist_ok=True)
        except OSError as exc:
            if exc.errno not in MISCONFIGURED:
                raise
            raise UsageError(
                f"cannot keep the record of the newest save of each game in {self.folder}: "
                f"{exc.strerror}; nothing was written",
                f"{HOME_HINT}; the record lets pbem notice an old save put back",
            ) from None

    def record(self, save: Save) -> None:
        """Remember ``save`` as the newest of its game: the record rewritten in place, readable
        by its owner only, not synced (see the module's docstring).  Raises OSError, or
        UsageError when the folder cannot hold the record (a file in its place, no permission).

        A longer old record is cut to the new one's length.  Its length is asked of the file
        (``fstat``) unless :meth:`read` just read it, in this turn (the engine checks the record
        when it loads the save it then replaces) and found it no longer than the new one:
        one system call fewer a turn.  Should the file change between the two (it is this
        moderator's own, in ``$PBEM_HOME``), the record would read as none, as when it is lost."""
        path = self._path(save.game_id)
        read, self._last_size = self._last_size, ("", -1)
        raw = encode_seen(Seen(save.revision, save.digest))
        try:
            try:
                fd = os.open(path, _OPEN, 0o600)
            except FileNotFoundError:
                os.makedirs(self.folder, exist_ok=True)
                fd = os.open(path, _OPEN, 0o600)
        except OSError as exc:  # $PBEM_HOME a file, not writable ...: a setting, said as one
            if exc.errno not in MISCONFIGURED:
                raise
            raise UsageError(
                f"the game was saved (revision {save.revision}), but its record as the newest save "
                f"cannot be written in {self.folder}: {exc.strerror}; do not run the command again",
                f"{HOME_HINT}; the record lets pbem notice an old save put back. Then pbem status "
                "names any report of the game still to be written, and pbem publish writes it",
            ) from None
        try:
            known = read[0] == path and read[1] <= len(raw)
            if not known and os.fstat(fd).st_size > len(raw):  # longer: a lower revision, a hand edit
                os.ftruncate(fd, len(raw))
            write_fd(fd, raw)  # from the start: the file was just opened
        except OSError as exc:
            name_error(exc, path)
            raise
        finally:
            os.close(fd)
