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
from pbem.errors import PbemError, RollbackError
from pbem.folder import read_file, write_fd
from pbem.save import Save

_OPEN = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class Seen:
    """The newest save of a game a moderator has seen."""

    revision: int
    digest: str


def _sum(revision: int, digest: str) -> str:
    """The check a record carries: SHA-256 of its canonical JSON without the check."""
    return hashlib.sha256(canonical.dumps({"digest": digest, "revision": revision})).hexdigest()


def encode_seen(seen: Seen) -> bytes:
    """The bytes of a record (one line, ending in a newline)."""
    body = {"digest": seen.digest, "revision": seen.revision, "sum": _sum(seen.revision, seen.digest)}
    return canonical.dumps(body).rstrip(b"\n") + b"\n"


def decode_seen(raw: bytes) -> Seen | None:
    """The record in ``raw``, or None when there is none to trust: empty, cut short, mixed
    with an older record, not JSON, a field of the wrong type or a check that fails.  Never
    raises."""
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

    def _path(self, game_id: str) -> str:
        if not game_id.isalnum():
            raise RollbackError(f"game id {game_id!r} is not a pbem game id")
        return os.path.join(self.folder, f"{game_id}.json")

    def read(self, game_id: str) -> Seen | None:
        """The record of game ``game_id``, None when there is none (or none to trust: see
        the module's docstring).  Raises RollbackError for a game id that is not one."""
        try:
            raw = read_file(self._path(game_id))
        except OSError:  # absent, unreadable, a folder: no record, as when it is lost
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

    def record(self, save: Save) -> None:
        """Remember ``save`` as the newest of its game: the record rewritten in place, readable
        by its owner only, not synced (see the module's docstring).  Raises OSError."""
        path = self._path(save.game_id)
        raw = encode_seen(Seen(save.revision, save.digest))
        try:
            fd = os.open(path, _OPEN, 0o600)
        except FileNotFoundError:
            os.makedirs(self.folder, exist_ok=True)
            fd = os.open(path, _OPEN, 0o600)
        try:
            if os.fstat(fd).st_size > len(raw):  # a longer old record (a lower revision, a hand edit)
                os.ftruncate(fd, len(raw))
            write_fd(fd, raw)  # from the start: the file was just opened
        finally:
            os.close(fd)
