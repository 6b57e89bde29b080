"""A player's own reports as witnesses of a finished game's history (``pbem verify``).

The history a moderator shows at the end is signed, chained and re-played from the revealed
seed (:func:`pbem.archive.rebuild.verify_game`), but a moderator who wrote the whole game
again (another seed, its own commitment, every save signed anew) would pass those checks.
What the players read during the game cannot be rewritten: each report is signed by the
moderator at its turn and names the seed's commitment, the revision, the public position
and who was awaited.  pbem keeps a copy of every report a player opens
(:meth:`pbem.player.ReportCopies.of_game`, under ``$PBEM_HOME/reports/<game id>/``); this
module compares those copies, and any report file given, with the game's history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import FormatError, RollbackError
from pbem.inputs import read_bytes, shorten
from pbem.reports import Report, parse_report
from pbem.save import Save

COMMITMENT_LINE = "Seed commitment (SHA-256):"
"""The report line above the seed's commitment (templates/report.txt.j2)."""

MAX_REPORT_BYTES = 4 * 1024 * 1024
"""A kept copy larger than this is no report pbem wrote: left out."""

WHAT_TO_DO = (
    "the game's record is not what the players were shown: keep your reports, and ask the moderator "
    "(or the other players) to compare theirs"
)


@dataclass(frozen=True)
class Witnessed:
    """What the reports told of a game's history."""

    reports: int
    """Reports compared with the history."""
    players: tuple[str, ...]
    """Whose reports they were (the public report: "public")."""
    turns: tuple[int, int] | None
    """The first and last turn they cover (None: no report)."""


def commitment_of(report: Report) -> str | None:
    """The seed commitment a verified report's text names (its signed prose), if it names one."""
    from pbem.mailtext import unquoted
    from pbem.reports import DATA_BEGIN, signed_lines

    lines = [line.strip() for line in unquoted(report.text)]
    data_at = lines.index(DATA_BEGIN) if DATA_BEGIN in lines else len(lines)
    # Only the words the moderator signed: a line above the report's first line, below its
    # data block or between age markers is anyone's, and would name any commitment.
    signed = signed_lines(lines[:data_at])
    for at, line in enumerate(signed):
        if line == COMMITMENT_LINE:
            return signed[at + 1] if at + 1 < len(signed) else None
    return None


def witness(history: Sequence[Save], final: Save, reports: Sequence[tuple[str, str]]) -> Witnessed:
    """Compare each report (text, where it came from) with the save of ``history`` (every
    revision, by number) that it was written from: the same game, its turn, public position
    and awaited players, and the seed commitment of the final save ``final``.

    Raises FormatError or SignatureError for a file that is no report of this game's
    moderator, and RollbackError naming the report and what differs.
    """
    by_revision = {save.revision: save for save in history}
    players: list[str] = []
    turns: list[int] = []
    for text, source in reports:
        report = parse_report(text, source, None, final.moderator)
        data = report.data
        if data["game_id"] != final.game_id:
            raise FormatError(
                f"{source} is a report of game {data['game_id']}, not of game {final.game_id}",
                "give the reports of this game",
            )
        revision = data["revision"]
        save = by_revision.get(revision)
        if save is None:
            raise RollbackError(
                f"{source}: the report of turn {data['turn']} was written from revision {revision}, which "
                f"the game's history does not hold",
                WHAT_TO_DO,
            )
        shown = _difference(report, save, final)
        if shown is not None:
            raise RollbackError(
                f"{source}: the report of turn {data['turn']} (revision {revision}) shows {shown} than "
                f"the game's history/rev-{revision:06d}.json",
                WHAT_TO_DO,
            )
        players.append(data["player"] or "public")
        turns.append(data["turn"])
    return Witnessed(
        len(turns),
        tuple(sorted(set(players))),
        (min(turns), max(turns)) if turns else None,
    )


def _difference(report: Report, save: Save, final: Save) -> str | None:
    """What ``report`` shows otherwise than ``save`` (the revision it was written from), or
    None when they agree; its commitment is compared with ``final``'s, the one the revealed
    seed was checked against."""
    data = report.data
    if data["turn"] != save.turn:
        return f"another turn ({data['turn']}, the save {save.turn})"
    if data["public"] != save.body["public"]:
        return "another position"
    if list(data["awaiting"]) != [save.names[seat] for seat in save.awaiting]:
        return "other awaited players"
    if list(data["names"]) != list(save.names):
        return "other players"
    commitment = commitment_of(report)
    if commitment != final.body["seed_commitment"]:
        return f"another seed commitment ({shorten(str(commitment), 20)})"
    return None


def read_report_file(path: Path) -> tuple[str, str]:
    """A report file's text and its name, for :func:`witness`.  Raises FormatError for a file
    that is too large or not UTF-8 text, UsageError when it cannot be read as a file."""
    raw = read_bytes(path, "report", MAX_REPORT_BYTES)
    try:
        return raw.decode("utf-8"), str(path)
    except UnicodeDecodeError:
        raise FormatError(f"{path} is not a report (not UTF-8 text)") from None
