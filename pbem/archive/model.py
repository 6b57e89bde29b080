"""The archive of one game as plain values, before it is written as HTML or text.

Everything a person reads is already worded here (players named, seat numbers gone), so
the HTML and text writers only lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Section:
    """A titled block of text lines added to a turn (public press, say: see
    :func:`pbem.archive.build.extra_sections`)."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PlayerOrders:
    """The orders one player gave in one turn.

    ``verbatim``: the lines as the player wrote them (opened from their sealed order file);
    otherwise written back by the game from what the save keeps (:attr:`note` says so).
    """

    player: str
    lines: tuple[str, ...]
    verbatim: bool
    note: str = ""


@dataclass(frozen=True)
class PrivatePart:
    """What one player alone read in one turn's report: their events and private text."""

    player: str
    events: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class TurnPage:
    """One pbem turn: the report that opened it and the orders that closed it."""

    turn: int
    events: tuple[str, ...]
    """Public events of the previous turn's resolution (players named)."""
    public_text: str
    private: tuple[PrivatePart, ...]
    orders: tuple[PlayerOrders, ...]
    awaiting: tuple[str, ...]
    pictures: tuple[tuple[str, str], ...] = ()
    """(file name, SVG text) of the turn's pictures, players named."""
    extra: tuple[Section, ...] = ()
    orders_note: str = ""
    """Why orders are missing or partial (a player's archive, the turn still open)."""


@dataclass(frozen=True)
class Chart:
    """One chart: a line per player over the turns; None where the reader could not know."""

    title: str
    turns: tuple[int, ...]
    series: tuple[tuple[str, tuple[int | None, ...]], ...]


@dataclass(frozen=True)
class Archive:
    """A whole game as its archive shows it."""

    game: str
    title: str
    game_id: str
    names: tuple[str, ...]
    scope: str
    """``full`` (a finished game, from public files), ``moderator`` or ``player``."""
    reader: str | None
    """The player whose archive this is (scope ``player``)."""
    finished: bool
    outcome: str | None
    seed: str | None
    seed_commitment: str
    checked: str
    """What was verified, in one sentence."""
    turns: tuple[TurnPage, ...]
    reveal: tuple[PrivatePart, ...] = ()
    charts: tuple[Chart, ...] = ()
    notes: tuple[str, ...] = field(default=())
    palette: tuple[str, ...] = ()
    """Each seat's colour in charts and the players list (the game's own colours where it
    declares them with ``chart_colours``); empty means :data:`pbem.archive.charts.PALETTE`."""

    @property
    def standings(self) -> tuple[str, ...]:
        """Each chart's last known values, highest first ("Psi at the end: carol 16, alice
        15"), for the final reveal of a finished game; empty otherwise."""
        if not self.finished:
            return ()
        out = []
        for chart in self.charts:
            last = [
                (value, name)
                for name, row in chart.series
                if (value := next((v for v in reversed(row) if v is not None), None)) is not None
            ]
            if last:
                ranked = sorted(last, key=lambda item: -item[0])
                out.append(f"{chart.title} at the end: " + ", ".join(f"{n} {v}" for v, n in ranked))
        return tuple(out)

    @property
    def confidential(self) -> bool:
        """True when the archive shows secrets of a game still being played."""
        return self.scope == "moderator" and not self.finished

    @property
    def heading(self) -> str:
        """The document's title line."""
        whose = {"full": "", "moderator": " (moderator's)", "player": f" ({self.reader}'s)"}[self.scope]
        return f"{self.title}, game {self.game_id}: archive{whose}"
