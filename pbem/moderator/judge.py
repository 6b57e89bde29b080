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
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import PbemError
from pbem.mail.extract import Candidate, Extraction, extract_raw
from pbem.mail.imap import Mailbox
from pbem.mail.message import (
    MAX_MAIL_BYTES,
    BadMail,
    check_size,
    essential_headers,
    header_text,
    is_automatic,
    message_id,
    printable,
    sender_address,
)
from pbem.mail.settings import MailSettings
from pbem.mail.smtp import MailError, Outgoing, send
from pbem.moderator.core import Moderator, PassResult, is_game, iso
from pbem.moderator.durable import step, write_atomic, write_once
from pbem.moderator.post import INBOX_DIR, MAIL_FOLDER, Outbox
from pbem.moderator.quarantine import Quarantine
from pbem.wording import wrap_text

MAIL_QUARANTINE = "mail-quarantine"
"""Under the moderator's local state folder: one sub-folder per mail that was not used."""
HEAD_BYTES = 64 * 1024
"""Bytes of the header of a mail too big to read that are fetched and kept."""


def _origin_path(state_dir: Path, filename: str) -> Path:
    return state_dir / "mail-origin" / f"{filename}.json"


def mail_origin(state_dir: Path, filename: str) -> dict[str, Any] | None:
    """Where a mailed order file came from: From address, Message-ID, subject, Date (or None)."""
    try:
        data = json.loads(_origin_path(state_dir, filename).read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


class MailboxLike(Protocol):
    """What intake needs of a mailbox (:class:`pbem.mail.imap.Mailbox`, or a test double)."""

    uidvalidity: int

    def pending(self) -> list[int]: ...
    def sizes(self, uids: list[int]) -> dict[int, int]: ...
    def fetch(self, uid: int) -> bytes | None: ...
    def fetch_head(self, uid: int, limit: int) -> bytes | None: ...
    def mark_done(self, uid: int, quarantined: bool = False) -> None: ...


@dataclass(frozen=True)
class IntakeResult:
    """What one intake did; ``log`` has a line for the moderator per mail set aside, and
    per mail the server would not flag handled."""

    mails: int
    blocks: int
    answered: int
    quarantined: int = 0
    log: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """What one mail comes to, decided before anything is written."""

    digest: str
    placed: tuple[tuple[Path, str], ...] = ()
    """(game folder, block text) for every block that names a game this judge runs."""
    problem: str | None = None
    """Why the mail, or nothing in it, was used; None when blocks were placed."""
    hint: str | None = None
    refused: bool = False
    """The mail itself was not read (beyond a bound, or unreadable)."""
    sender: str | None = None
    message_id: str | None = None
    subject: str = ""
    automatic: bool = False
    size: int = 0
    date: str = ""
    """The mail's Date field: the notices about its blocks name the mail by subject and date."""
    error: str | None = None
    """An unexpected failure of the mail code, for the moderator's note (never seen in tests)."""


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:24]


class Judge:
    """A moderator whose players send orders by mail and receive everything by mail."""

    def __init__(
        self,
        moderator: Moderator,
        settings: MailSettings,
        mailbox: Callable[[MailSettings], AbstractContextManager[MailboxLike]] = Mailbox,
    ) -> None:
        if moderator.outbox is None:
            moderator.outbox = Outbox(moderator.state_dir / "outbox")
        self.moderator = moderator
        self.settings = settings
        self.mailbox = mailbox
        self.journal_path = moderator.state_dir / "mail-journal.json"
        self.quarantine = Quarantine(
            moderator.state_dir / MAIL_QUARANTINE, moderator.state_dir / MAIL_QUARANTINE
        )

    # ---- journal -------------------------------------------------------------------------
    def _journal(self) -> dict[str, Any]:
        """The mail journal; a damaged one is read as empty (mails already flagged
        ``$PbemDone`` on the server are not read again anyway)."""
        try:
            data = json.loads(self.journal_path.read_bytes())
        except (OSError, ValueError, RecursionError):
            return {"uids": {}}
        if not isinstance(data, dict) or not isinstance(data.get("uids"), dict):
            return {"uids": {}}
        return data

    def _games_by_id(self) -> dict[str, Path]:
        out: dict[str, Path] = {}
        from pbem.engine import GameFolder

        for game_dir in self.moderator.games():
            try:
                out[GameFolder(game_dir).read().game_id.upper()] = game_dir
            except PbemError:
                continue
        return out

    # ---- reading one mail (no side effects) ------------------------------------------------
    def _game_of(
        self, cand: Candidate, games: dict[str, Path]
    ) -> tuple[Path | None, str | None, tuple[str, int, str, int] | None]:
        """The game folder a block names, or None and why not; and the (game, turn, player,
        Seq) its header claims (None for press or a block that could not be read)."""
        from pbem.orders import parse, unseal

        if isinstance(cand.data, bytes):
            return (
                None,
                f"{cand.source}: a binary age file; attach the armoured text 'pbem sign' writes",
                None,
            )
        from pbem.press.relay import press_game_id

        press_game = press_game_id(cand.data, self.moderator.identity, cand.source)
        try:
            header = (
                None
                if press_game
                else parse(
                    unseal(cand.filed_text(), self.moderator.identity, cand.source), cand.source
                ).header
            )
        except PbemError as exc:
            return None, printable(exc.message, 300), None
        claimed = press_game or (header.game if header is not None else "")
        game = games.get(claimed.upper())
        if game is None:
            return None, f"{cand.source}: Game: {printable(claimed, 40)} is no game this judge runs", None
        claim = None if header is None else (header.game, header.turn, header.player, header.seq)
        return game, None, claim

    def read(self, raw: bytes, games: dict[str, Path]) -> Verdict:
        """Decide what one mail comes to: the blocks to file, or why it is not used.

        Pure (writes nothing), so a failure here is always the mail's: it never raises.
        """
        digest = _digest(raw)
        try:
            found = extract_raw(raw, self.settings.address)
        except BadMail as exc:
            return self._refused(raw, digest, exc.reason, exc.hint, len(raw))
        except Exception as exc:  # a backstop: the mail code must only raise BadMail
            reason = "the judge could not read this mail's structure"
            return self._refused(raw, digest, reason, None, len(raw), f"{type(exc).__name__}: {exc}")
        try:
            return self._place(found, digest, games, len(raw))
        except Exception as exc:  # a backstop: order parsing must only raise PbemError
            reason = "the judge could not read the order block(s) in this mail"
            return self._refused(raw, digest, reason, None, len(raw), f"{type(exc).__name__}: {exc}")

    def _place(self, found: Extraction, digest: str, games: dict[str, Path], size: int) -> Verdict:
        """The verdict on a mail that was read: its blocks by game.  Of several blocks for
        the same game, turn and player (an Outlook reply quotes the earlier mail without
        ``>`` marks), those with a lower Seq than another are not filed: they would be
        replaced by it, or refused as replays, the moment it was read.  Blocks with the same
        Seq are all filed (a pasted copy a client damaged beside the attached file)."""
        found_blocks: list[tuple[Path, str, tuple[str, int, str, int] | None]] = []
        why: list[str] = []
        for cand in found.candidates:
            game_dir, reason, claim = self._game_of(cand, games)
            if game_dir is None or not isinstance(cand.data, str):
                why.append(reason or cand.source)
                continue
            found_blocks.append((game_dir, cand.filed_text(), claim))
        newest: dict[tuple[str, int, str], int] = {}
        for _, _, claim in found_blocks:
            if claim is not None:
                newest[claim[:3]] = max(claim[3], newest.get(claim[:3], claim[3]))
        placed = [(d, text) for d, text, c in found_blocks if c is None or c[3] == newest[c[:3]]]
        problem = found.problem()
        hint = None
        if problem is None and not placed:
            problem = (
                "the order block(s) in your mail name no game this judge runs, or could not be "
                "read (a sealed block must be sealed to this judge's key): " + "; ".join(why[:3])
            )
            hint = (
                "check the Game:, Turn: and Seq: lines against your latest report, sign the orders "
                "again with 'pbem sign' and send the whole signed block"
            )
        return Verdict(
            digest,
            tuple(placed),
            problem,
            hint,
            sender=found.sender,
            message_id=found.message_id,
            subject=found.subject,
            automatic=found.automatic,
            size=size,
            date=found.date,
        )

    def _refused(
        self, raw: bytes, digest: str, reason: str, hint: str | None, size: int, error: str | None = None
    ) -> Verdict:
        """The verdict on a mail that is not read: its sender read from its header alone."""
        sender = msgid = None
        subject = date = ""
        automatic = False
        try:
            head = essential_headers(raw)
            sender, msgid = sender_address(head), message_id(head)
            automatic = is_automatic(head, self.settings.address)
            subject = header_text(head, "subject")
            date = header_text(head, "date", 80)
        except Exception as exc:  # a backstop, as in read()
            error = error or f"{type(exc).__name__}: {exc}"
        return Verdict(
            digest,
            (),
            reason,
            hint,
            refused=True,
            sender=sender,
            message_id=msgid,
            subject=subject,
            automatic=automatic,
            size=size,
            date=date,
            error=printable(error, 300) if error else None,
        )

    def too_big(self, head: bytes, size: int) -> Verdict:
        """The verdict on a mail refused by its size alone (only its header was fetched)."""
        try:
            check_size(size)
        except BadMail as exc:
            return self._refused(head, _digest(head + str(size).encode()), exc.reason, exc.hint, size)
        raise AssertionError("too_big() on a mail within the size bound")

    # ---- intake --------------------------------------------------------------------------
    def intake(self) -> IntakeResult:
        """Fetch every unhandled mail and turn its order blocks into inbox files.

        A mail that cannot be read, or from which nothing can be used, is kept in the
        quarantine (``<state>/mail-quarantine/``), answered once at its From address when
        that is a plain address and the mail is not automatic (else only logged), flagged
        handled and never read again; it never stops the mails after it.  Raises MailError
        when the mail server fails, OSError when the local disk does.
        """
        journal = self._journal()
        uids: dict[str, Any] = journal["uids"]
        games: dict[str, Path] | None = None
        mails = blocks = answered = quarantined = 0
        log: list[str] = []
        with self.mailbox(self.settings) as box:
            pending = box.pending()
            sizes = box.sizes(pending)
            for uid in pending:
                key = f"{box.uidvalidity}:{uid}"
                seen = uids.get(key)
                if seen is not None:
                    aside = isinstance(seen, dict) and bool(seen.get("quarantined"))
                    self._flag(box, uid, aside, log)
                    continue
                size = sizes.get(uid, 0)
                if size > MAX_MAIL_BYTES:
                    kept = box.fetch_head(uid, HEAD_BYTES) or b""
                    verdict = self.too_big(kept, size)
                else:
                    fetched = box.fetch(uid)
                    if fetched is None:
                        continue
                    kept = fetched
                    if games is None:
                        games = self._games_by_id()
                    verdict = self.read(kept, games)
                mails += 1
                placed = self._file(verdict)
                blocks += placed
                aside = placed == 0
                if aside:
                    quarantined += 1
                    line, told = self._set_aside(verdict, kept, uid, box.uidvalidity)
                    answered += told
                    log.append(line)
                uids[key] = {"digest": verdict.digest, "blocks": placed, "quarantined": aside}
                write_atomic(self.journal_path, json.dumps(journal, sort_keys=True))
                step("mail journalled")
                self._flag(box, uid, aside, log)
                step("mail flagged")
        return IntakeResult(mails, blocks, answered, quarantined, tuple(log))

    @staticmethod
    def _flag(box: MailboxLike, uid: int, aside: bool, log: list[str]) -> None:
        """Flag a journalled mail handled; a server that refuses it for this one mail is
        logged, not fatal (the journal already keeps the mail from being read again)."""
        try:
            box.mark_done(uid, quarantined=aside)
        except MailError as exc:
            log.append(f"mail {box.uidvalidity}:{uid}: handled, but not flagged on the server: {exc.message}")

    def _file(self, verdict: Verdict) -> int:
        """Drop the mail's placed blocks into their games' ``inbox/_mail/``; how many."""
        sender = None if verdict.automatic else verdict.sender
        origin = {
            "from": sender,
            "message_id": verdict.message_id,
            "subject": verdict.subject,
            "date": verdict.date,
        }
        for n, (game_dir, data) in enumerate(verdict.placed):
            filename = f"mail-{verdict.digest}-{n}.txt"
            write_once(_origin_path(self.moderator.state_dir, filename), json.dumps(origin))
            write_once(game_dir / INBOX_DIR / MAIL_FOLDER / filename, data)
        return len(verdict.placed)

    def _set_aside(self, verdict: Verdict, kept: bytes, uid: int, validity: int) -> tuple[str, int]:
        """Keep a mail that was not used, answer its sender once; (log line, 1 if answered)."""
        reason = verdict.problem or "nothing in it could be used"
        note: dict[str, object] = {
            "uid": uid,
            "uidvalidity": validity,
            "received": iso(self.moderator.clock.now()),
            "from": verdict.sender,
            "subject": verdict.subject,
            "message_id": verdict.message_id,
            "size": verdict.size,
            "result": "refused" if verdict.refused else "unused",
            "reason": reason,
        }
        if verdict.error:
            note["error"] = verdict.error
        name = "mail-head.eml" if len(kept) < verdict.size else "mail.eml"
        if name == "mail-head.eml":
            note["kept"] = f"the first {len(kept):,} bytes of the header; the whole mail stays on the server"
        where = self.quarantine.keep(verdict.digest, name, kept, note)
        who = verdict.sender or "an unknown sender"
        line = f"mail set aside: {validity}:{uid} from {who} ({verdict.subject!r}): {reason}"
        line += f"; kept in {where.parent}"
        outbox = self.moderator.outbox
        if verdict.sender is None or outbox is None:
            return line + "; not answered (no usable From address)", 0
        if verdict.automatic:
            return line + "; not answered (an automatic mail)", 0
        if not self.settings.answer_unsigned:
            return line + "; not answered (answer_unsigned is off)", 0
        used = "was not read" if verdict.refused else "was not used"
        sent = f", sent {verdict.date}," if verdict.date else ""
        body = f"pbem judge: your mail {printable(verdict.subject, 60)!r}{sent} {used}.\n\nWhy: {reason}\n"
        if verdict.hint:
            body += f"\nWhat to do: {verdict.hint}\n"
        subject = printable(f"Re: {verdict.subject}" if verdict.subject else "Your mail to the pbem judge")
        outbox.enqueue(
            Outgoing(
                verdict.sender, subject, wrap_text(body), f"intake/{verdict.digest}", (), verdict.message_id
            )
        )
        return line + "; answered", 1

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
        """Intake, one moderator pass over every game, then send what is queued.

        A mail server that fails does not stop the rest: the pass runs even when the IMAP
        server is down, and queued mail waits when the SMTP server is; then the first such
        MailError is raised (after the work that could be done was done).
        """
        failure: MailError | None = None
        try:
            intake = self.intake()
        except MailError as exc:
            failure, intake = exc, IntakeResult(0, 0, 0)
        result = self.moderator.run_pass()
        try:
            sent = self.flush()
        except MailError as exc:
            failure, sent = failure or exc, 0
        if failure is not None:
            raise failure
        return intake, result, sent


__all__ = ["IntakeResult", "Judge", "is_game", "mail_origin"]
