"""The email judge: order mails in through IMAP, answers and reports out through SMTP.

Intake turns every candidate order block of a mail into a file in the game's
``inbox/_mail/`` folder, so mailed orders go through exactly the same crash-safe path as
dropped files.  Which game a block belongs to comes from its header (read from the block,
opened with the moderator key when sealed); who sent it is decided later by its signature
alone, never by the From header.  The From address is kept only to answer mails whose
orders could not be attributed (no block, HTML only, a bad signature), without game facts.

Each mail is handled once: its UID (with the mailbox's UIDVALIDITY) is journalled on the
moderator's local disk after its blocks are written and before the mail is flagged
``$PbemDone`` on the server; a crash in between only makes the judge see it again, find it
journalled, and flag it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.mail.extract import Candidate, extract_raw
from pbem.mail.imap import Mailbox
from pbem.mail.settings import MailSettings
from pbem.mail.smtp import Outgoing, send
from pbem.moderator.core import Moderator, PassResult, is_game
from pbem.moderator.durable import step, write_atomic, write_once
from pbem.moderator.post import INBOX_DIR, MAIL_FOLDER, Outbox


def _origin_path(state_dir: Path, filename: str) -> Path:
    return state_dir / "mail-origin" / f"{filename}.json"


def mail_origin(state_dir: Path, filename: str) -> dict[str, Any] | None:
    """Where a mailed order file came from: From address, Message-ID, subject (or None)."""
    try:
        data = json.loads(_origin_path(state_dir, filename).read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class IntakeResult:
    """What one intake did."""

    mails: int
    blocks: int
    answered: int


class Judge:
    """A moderator whose players send orders by mail and receive everything by mail."""

    def __init__(self, moderator: Moderator, settings: MailSettings) -> None:
        if moderator.outbox is None:
            moderator.outbox = Outbox(moderator.state_dir / "outbox")
        self.moderator = moderator
        self.settings = settings
        self.journal_path = moderator.state_dir / "mail-journal.json"

    # ---- journal -------------------------------------------------------------------------
    def _journal(self) -> dict[str, Any]:
        try:
            data = json.loads(self.journal_path.read_bytes())
        except (OSError, ValueError):
            return {"uids": {}}
        return data if isinstance(data, dict) else {"uids": {}}

    def _games_by_id(self) -> dict[str, Path]:
        out: dict[str, Path] = {}
        from pbem.engine import GameFolder

        for game_dir in self.moderator.games():
            try:
                out[GameFolder(game_dir).read().game_id.upper()] = game_dir
            except PbemError:
                continue
        return out

    # ---- intake --------------------------------------------------------------------------
    def _game_of(self, cand: Candidate, games: dict[str, Path]) -> Path | None:
        from pbem.orders import parse, unseal

        if isinstance(cand.data, bytes):
            return None
        try:
            header = parse(unseal(cand.data, self.moderator.identity, cand.source), cand.source).header
        except PbemError:
            return None
        return games.get(header.game.upper())

    def intake(self) -> IntakeResult:
        """Fetch every unhandled mail and turn its order blocks into inbox files."""
        journal = self._journal()
        uids: dict[str, Any] = journal.setdefault("uids", {})
        games: dict[str, Path] | None = None
        mails = blocks = answered = 0
        outbox = self.moderator.outbox
        assert outbox is not None
        with Mailbox(self.settings) as box:
            for uid, raw in box.messages():
                key = f"{box.uidvalidity}:{uid}"
                if key in uids:
                    box.mark_done(uid)
                    continue
                mails += 1
                if games is None:
                    games = self._games_by_id()
                digest = hashlib.sha256(raw).hexdigest()[:24]
                found = extract_raw(raw)
                sender = parseaddr(str(_header(raw, "From")))[1]
                origin = {"from": sender, "message_id": found.message_id, "subject": found.subject}
                placed = 0
                unplaced = []
                for n, cand in enumerate(found.candidates):
                    game_dir = self._game_of(cand, games)
                    if game_dir is None:
                        unplaced.append(cand)
                        continue
                    filename = f"mail-{digest}-{n}.txt"
                    write_once(_origin_path(self.moderator.state_dir, filename), json.dumps(origin))
                    data = cand.data if isinstance(cand.data, str) else cand.data.decode("latin-1")
                    write_once(game_dir / INBOX_DIR / MAIL_FOLDER / filename, data)
                    placed += 1
                blocks += placed
                problem = found.problem()
                if problem is None and placed == 0 and unplaced:
                    problem = (
                        "the order block(s) in your mail name no game this judge runs, or could not be "
                        "read (a sealed block must be sealed to this judge's key). Check the Game: line "
                        "of your orders against your latest report."
                    )
                if problem is not None and sender and self.settings.answer_unsigned:
                    body = f"pbem judge: your mail {found.subject!r} was not used.\n\nWhy: {problem}\n"
                    outbox.enqueue(
                        Outgoing(
                            sender,
                            f"Re: {found.subject}"[:200],
                            body,
                            f"intake/{digest}",
                            (),
                            found.message_id,
                        )
                    )
                    answered += 1
                uids[key] = {"digest": digest, "blocks": placed}
                write_atomic(self.journal_path, json.dumps(journal, sort_keys=True))
                step("mail journalled")
                box.mark_done(uid)
                step("mail flagged")
        return IntakeResult(mails, blocks, answered)

    # ---- output --------------------------------------------------------------------------
    def flush(self) -> int:
        """Send every queued mail; returns how many were sent."""
        outbox = self.moderator.outbox
        assert outbox is not None
        pending = outbox.pending()
        if not pending:
            return 0
        sent = set(send(self.settings, [mail for _, mail in pending], date=self.moderator.clock.now()))
        count = 0
        for path, mail in pending:
            if mail.key in sent:
                outbox.mark_sent(path)
                count += 1
        return count

    def run_once(self) -> tuple[IntakeResult, PassResult, int]:
        """Intake, one moderator pass over every game, then send what is queued."""
        intake = self.intake()
        result = self.moderator.run_pass()
        sent = self.flush()
        return intake, result, sent


def _header(raw: bytes, name: str) -> str:
    from pbem.mail.extract import parse_mail

    return str(parse_mail(raw).get(name, "") or "")


__all__ = ["IntakeResult", "Judge", "is_game", "mail_origin"]
