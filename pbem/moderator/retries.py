"""How a restarted moderator tells what a killed pass did with an inbox file (a part of
:class:`pbem.moderator.core.Moderator`): whether the engine filed it from that very place,
resolved the turn it completed, or the pass answered it already."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine import GameFolder
from pbem.errors import PbemError
from pbem.moderator.notices import notice_filename
from pbem.moderator.post import NOTICES_DIR, PLAYERS_DIR
from pbem.save import Save

if TYPE_CHECKING:
    from pbem.keys import Identity


class Retries:
    """The evidence of a killed pass, mixed into the Moderator (which provides ``identity``)."""

    if TYPE_CHECKING:
        identity: Identity
        state_dir: Path

    @staticmethod
    def _answered(game_dir: Path, save: Save, turn: int, key: str) -> bool:
        """True if the answer to the inbox file with content key ``key``, taken in ``turn``,
        is in a player's folder or the public notices."""
        filename = notice_filename(turn, key)
        places = [game_dir / PLAYERS_DIR / name / filename for name in save.names]
        return any(p.is_file() for p in [*places, game_dir / NOTICES_DIR / filename])

    def _resolved_by(self, folder: GameFolder, save: Save, text: str, source: str) -> tuple[int, int] | None:
        """The seat and turn of the order file ``text`` if its orders are the last its player
        had accepted, in a turn already resolved (its signature verified; a file with the same
        sequence number and another content is never accepted), else None."""
        try:
            signed, seat = folder.identify(folder.load(self.identity), text, source, self.identity)
        except PbemError:
            return None
        header = signed.header
        accepted = save.body["seq"].get(save.names[seat])
        if header.turn < save.turn and accepted == header.seq:
            return seat, int(header.turn)
        return None

    def _filed_from(self, folder: GameFolder, seat: int | None, source: str) -> bool:
        """True if the orders the engine holds for ``seat`` came from the file ``source``
        (rather than from an earlier file with the same content)."""
        if seat is None:
            return False
        pending = folder.load(self.identity).secret.pending.get(str(seat))
        return pending is not None and pending.get("source") == Path(source).name

    def _archived(self, folder: GameFolder, turn: int, names: Sequence[str], seat: int | None) -> int:
        """How many order files of ``seat`` the engine kept for ``turn``."""
        if seat is None:
            return 0
        return len(list(folder.orders_dir(turn).glob(f"{names[seat]}.seq*.txt")))

    def _claimed_header(self, text: str, source: str) -> Any:
        from pbem.orders import parse, unseal

        try:
            return parse(unseal(text, self.identity, source), source).header
        except PbemError:
            return None

    def _claimed_seat(self, save: Save, text: str, source: str) -> int | None:
        header = self._claimed_header(text, source)
        return None if header is None else save.seat_of(header.player)

    def _claimed_turn(self, text: str, source: str) -> int:
        header = self._claimed_header(text, source)
        return 10**9 if header is None else int(header.turn)

    def _same_seq_answer(
        self, folder: GameFolder, save: Save, seat: int, text: str, source: str
    ) -> tuple[str, str] | None:
        """The message and hint for an order file refused as replayed because another file
        of the same seat, with the same Seq and other orders, is the one accepted for the
        turn (a sync tool's conflict copy, or orders signed twice from one report); None for
        any other replay.  The accepted file is named as its sender knows it (a mailed one
        by its mail).  Raises nothing for a file it cannot read (None)."""
        header = self._claimed_header(text, source)
        if header is None or int(header.turn) != save.turn:
            return None
        try:
            pending = folder.load(self.identity).secret.pending.get(str(seat))
        except PbemError:
            return None
        if not isinstance(pending, dict) or pending.get("seq") != header.seq:
            return None
        other = str(pending.get("source", ""))
        if other == Path(source).name:
            return None
        from pbem.moderator.judge import mail_origin
        from pbem.moderator.quarantine import shown

        origin = mail_origin(self.state_dir, other)
        if origin is not None:
            named = f'your mail "{shown(str(origin.get("subject") or ""), 80)}"'
        else:
            named = f"your file {shown(other, 120)}"
        message = (
            f"{source}: Seq {header.seq} is also the number of {named}, whose orders were accepted "
            f"for turn {save.turn} and stand; this file holds other orders under the same number, "
            "so it was not filed.  Two files with one Seq are often a sync tool's copy of a file "
            "changed in two places (named 'conflicted copy' or '.sync-conflict-'), or orders "
            "signed twice from one report."
        )
        hint = (
            f"if this file holds the orders you mean, sign them again with Seq: {header.seq + 1} "
            f"and send them before turn {save.turn} is resolved (once your report of turn "
            f"{save.turn + 1} is out, it was, with the accepted orders); if the accepted ones are "
            "the orders you mean, nothing to do"
        )
        return message, hint
