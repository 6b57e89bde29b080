"""What a moderator remembers of each game it has seen: the newest save's revision and
digest, so that an old or forked save put back in a game folder is refused."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import RollbackError
from pbem.folder import read_record, write_record
from pbem.save import Save


class SeenRecord:
    """The moderator's local memory of the newest save of each game (rollback detection).

    One small file per game (``seen/<game id>.json``), so that moderators working on
    different games never rewrite each other's records.
    """

    def __init__(self, home: Path) -> None:
        self.folder = home / "seen"

    def _path(self, game_id: str) -> Path:
        if not game_id.isalnum():
            raise RollbackError(f"game id {game_id!r} is not a pbem game id")
        return self.folder / f"{game_id}.json"

    def check(self, save: Save) -> None:
        """Raise RollbackError if a newer save of this game was seen, or another at this revision."""
        seen = read_record(self._path(save.game_id))
        if not seen:
            return
        if save.revision < seen["revision"]:
            raise RollbackError(
                f"{save.source} is revision {save.revision} (turn {save.turn}) but revision "
                f"{seen['revision']} of game {save.game_id} was already seen: an old save was put back",
                "restore the newest save from history/, or use pbem rollback to go back on purpose",
            )
        if save.revision == seen["revision"] and save.digest != seen["digest"]:
            raise RollbackError(
                f"{save.source} differs from the revision {save.revision} seen before: a forked save"
            )

    def record(self, save: Save) -> None:
        write_record(
            self._path(save.game_id), {"revision": save.revision, "digest": save.digest}, durable=False
        )
