"""What a moderator pass did: one result a game and one for the whole pass."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.moderator.journal import Entry


@dataclass(frozen=True)
class GameResult:
    """What one pass did to one game."""

    game: str
    skipped: str | None = None
    """``unchanged``, ``locked``, or None when the game was looked at."""
    files: int = 0
    advanced: int = 0
    notices: tuple[str, ...] = ()
    """The notice kinds sent, in order."""
    error: str | None = None
    next_due: int | None = None
    journal: tuple[Entry, ...] = ()
    """The journal entries this pass wrote (what it did, with times)."""


@dataclass(frozen=True)
class PassResult:
    """What a whole pass did."""

    games: tuple[GameResult, ...]
    seconds: float

    @property
    def looked_at(self) -> int:
        return sum(1 for g in self.games if g.skipped is None)

    @property
    def advanced(self) -> int:
        return sum(g.advanced for g in self.games)

    @property
    def files(self) -> int:
        return sum(g.files for g in self.games)
