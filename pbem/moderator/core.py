"""A moderator pass: every game folder under a root, handled without a person.

For each game (under its local lock, skipped at the cost of a few ``stat`` calls when
nothing changed): finish anything a killed moderator left half done, hand out new reports,
file or refuse every complete inbox file with a notice to its sender, send due reminders,
and advance the turn as soon as no awaited orders are missing (after the grace period,
seats that sent nothing are played as the timing policy says).  The game folder is the
source of truth; the moderator's journal (:mod:`pbem.moderator.record`) sits in it, so a
restart anywhere reaches the same result.

Layout the moderator adds to an engine game folder::

    moderator.toml              timing policy, players' mail addresses (optional)
    moderator/record.json       the moderator's journal (turn clock, missed turns)
    inbox/<name>/               player <name> drops signed order files here
    players/<name>/             reports, notices and reminders for player <name>
    notices/                    answers to files whose sender could not be told

Writes of one pass over one game, and why a kill at any point loses nothing:

1. the record is written once before the first engine write: the inbox entries the pass
   takes (``taking``, by ``stat`` identity, in the order handled) and, unless the game is
   over or paused, the intent of the advance those files would complete (``advancing``:
   every awaited seat's own orders, nothing filled in, planned at ``at``);
2. each file is filed or refused (the last one with ``submit(advance=True)``: when it
   completes the turn, the engine files and resolves it in ONE save), answered (a notice
   under a name fixed by turn and content, written once), and removed from the inbox;
3. an advance the intent does not cover (stand-ins, resigned seats) writes its own intent
   first; reports are handed out as hard links of ``reports/turn-NNNN/`` (see
   :meth:`Moderator._deliver_reports`);
4. the record is written once more at the end (journal lines, counts, the new clock).

Restarted after a kill: an entry of ``taking`` still in the inbox is handled again, the
first of them as a retry (the engine may have filed it, or filed and resolved its turn:
it is then answered as accepted, for its own turn); entries gone were answered (one journal
line says their own lines were lost); an intent whose ``from_turn`` the save has passed is
finished exactly as the killed pass would have (at its time ``at``), one it has not passed
is dropped.  Notices and reminders are written once by name, mail is queued once by key,
report links are left as they are: no file is answered twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.engine import SAVE_NAME, GameFolder
from pbem.errors import ConflictError, DuplicateError, PbemError
from pbem.keys import Identity
from pbem.mail.extract import AGE_BINARY_MAGIC
from pbem.moderator.advancing import Advancing
from pbem.moderator.config import CONFIG_NAME, GameConfig, RootConfig
from pbem.moderator.durable import (
    Group,
    active_group,
    arm_engine_writes,
    barrier,
    defer,
    finish,
    grouped,
    remove,
    step,
    sweep_tree,
    sync_filesystems,
    write_once,
)
from pbem.moderator.journal import added
from pbem.moderator.lock import local_state_dir
from pbem.moderator.notices import VERIFIED_KINDS, Notice, kind_of, notice_filename
from pbem.moderator.pipeline import Begun, Prepared, ending, guarded, run_serial
from pbem.moderator.plan import iso
from pbem.moderator.post import INBOX_DIR, MAIL_FOLDER, NOTICES_DIR, PLAYERS_DIR, Outbox, Post
from pbem.moderator.quarantine import (
    Quarantine,
    Unreadable,
    content_key,
    ensure_real_dir,
    identity_key,
    kind_of_mode,
    read_untrusted,
    shown,
)
from pbem.moderator.record import RECORD_DIR, Record, read_record, record_path, save_record
from pbem.moderator.results import GameResult, PassResult
from pbem.moderator.retries import Retries
from pbem.moderator.scan import (
    INCOMPLETE_WAIT,
    InboxFile,
    Index,
    changed_ns,
    fair_share,
    inbox_files,
    incomplete,
    signature,
    unfinished_notice,
    watched_paths,
)
from pbem.registry import get_game
from pbem.save import Save
from pbem.timing import Clock, SystemClock, TimingPolicy, TurnClock, due

MAX_ORDER_BYTES = 1_000_000
"""Inbox files larger than this are refused unread."""

MAX_ADVANCES = 50
"""Turns one pass may resolve in one game (resigned seats can make turns follow at once)."""

MAX_FILES_PER_PASS = 500
"""Inbox entries one pass handles in one game (a flood of junk is worked off over passes)."""


def awaiting_note(save: Save) -> str:
    """Whose orders a turn awaits, for the journal (", awaiting bob, carol")."""
    if save.body["outcome"] is not None:
        return ": the game is over"
    waiting = [save.names[s] for s in save.awaiting if s not in save.body["submitted"]]
    return f", awaiting {', '.join(waiting)}" if waiting else ""


def is_game(path: Path) -> bool:
    """True for a folder that holds a pbem game."""
    return (path / SAVE_NAME).is_file()


class Moderator(Advancing, Retries):
    """Runs the games under one root with one moderator key.

    ``clock`` gives the game time (deadlines); ``real_ns`` the file-system time used to let
    dropped files settle.  With ``mail`` on, everything handed to a player with an address
    is also queued for sending (see :mod:`pbem.moderator.judge`).
    """

    def __init__(
        self,
        root: Path,
        identity: Identity,
        *,
        clock: Clock | None = None,
        state_dir: Path | None = None,
        settle: int | None = None,
        mail: bool = False,
        real_ns: Callable[[], int] = time.time_ns,
    ) -> None:
        self.root = Path(root)
        self.identity = identity
        self.card = identity.public()
        self.clock: Clock = clock or SystemClock()
        self.state_dir = local_state_dir(self.root, state_dir)
        self.config = RootConfig.load(self.root)
        self.settle_ns = (self.config.settle if settle is None else settle) * 1_000_000_000
        self.outbox = Outbox(self.state_dir / "outbox") if mail else None
        self.index = Index(self.state_dir / "index.json")
        self.home = self.state_dir / "engine"
        self.real_ns = real_ns
        self._on_disk = Record()
        """The record of the game being handled as its file holds it (see :meth:`_save`)."""
        self._removing: list[str] = []
        self._waiting = 0
        """Inbox files of the game being handled left to their writers (:meth:`_unfinished`)."""
        """Keys of the inbox files the game being handled answered this pass, removed only
        after the barrier that makes their answers durable (kept in the record's ``handled``)."""
        self.late: dict[str, str] | None = None
        """During a serial pass: the errors of games whose end came after their result (see
        :mod:`pbem.moderator.pipeline`); None otherwise (each game ends with its own barrier)."""
        self._ending: tuple[Path, Record | None] | None = None
        """In a serial pass, the end of the game being handled: its end record (None when
        the file holds it already), written after the barrier its end waits for."""
        arm_engine_writes()

    # ---- the pass ----------------------------------------------------------------------------
    def games(self) -> list[Path]:
        """Game folders directly under the root, by name."""
        try:
            entries = sorted(os.scandir(self.root), key=lambda e: e.name)
        except FileNotFoundError:
            return []
        return [
            Path(e.path)
            for e in entries
            if e.is_dir() and not e.name.startswith(".") and os.path.isfile(os.path.join(e.path, SAVE_NAME))
        ]

    def run_pass(self, force: bool = False, workers: int = 1) -> PassResult:
        """Look at every game once; returns what was done.  With ``workers`` > 1 the games
        that need work are handled by that many processes at once (see
        :mod:`pbem.moderator.workers`; each game's own lock keeps them apart)."""
        start = time.perf_counter()
        games = self.games()
        if workers > 1:
            from pbem.moderator.workers import run_parallel

            results = run_parallel(self, games, force, workers)
        else:  # one process: each game's end shares the next game's barrier
            results = run_serial(self, games, force)
        if any(r.files or r.advanced or r.journal for r in results):
            # The pass's last writes of each game (its record, the removals) made durable
            # at once: what a finished pass did survives a power cut.
            try:
                sync_filesystems([self.root, self.state_dir])
            except OSError as exc:  # the disk lost a write: say so for every game that wrote
                problem = f"the disk reported an error when the pass synced its writes: {exc}"
                results = tuple(
                    replace(r, error=r.error or problem) if r.files or r.advanced or r.journal else r
                    for r in results
                )
        self.index.prune(g.name for g in games)
        self.index.save()
        return PassResult(results, time.perf_counter() - start)

    def _watched(self, game_dir: Path) -> list[Path]:
        # players/ too: a player's folder deleted (and made again) by a sync tool takes the
        # turn's report with it, handed out again when the game is looked at.
        extra = [game_dir / SAVE_NAME, record_path(game_dir), game_dir / CONFIG_NAME, game_dir / PLAYERS_DIR]
        return watched_paths(game_dir, game_dir / INBOX_DIR, extra)

    def look(self, game_dir: Path, force: bool = False) -> tuple[list[int], int, GameResult | None]:
        """The game's signature and the time now, with a result when the game is skipped
        as unchanged (a few ``stat`` calls; nothing is opened)."""
        sig = signature(self._watched(game_dir))
        now = self.clock.now()
        if not force and self.index.unchanged(game_dir.name, sig, now):
            return sig, now, GameResult(game_dir.name, skipped="unchanged")
        return sig, now, None

    def process(self, game_dir: Path, force: bool = False) -> GameResult:
        """Handle one game if anything may have changed; never raises for a game's problems."""
        sig, now, skipped = self.look(game_dir, force)
        if skipped is not None:
            return skipped
        result = self.work(game_dir, now)
        self.note(result, sig)
        return result

    def work(self, game_dir: Path, now: int) -> GameResult:
        """Handle one game under its lock (``skipped="locked"`` if another holds it); never
        raises for a game's problems."""
        begun = self.begin(game_dir, now, batched=False)
        return begun if isinstance(begun, GameResult) else self.complete(begun)

    def begin(self, game_dir: Path, now: int, batched: bool = True) -> GameResult | Begun:
        """The first part of a game's work: take its lock and go as far as the intent record
        (see the module's docstring); a result instead when the game is locked or failed.
        ``batched``: the intent is written, not synced: the caller makes one barrier for the
        intents of several games before it calls :meth:`complete` for each
        (:mod:`pbem.moderator.pipeline`); else it is synced here.  Never raises for a game's
        problems."""
        name = game_dir.name
        # The game's own lock (in its folder), held for the whole game: the engine's writes
        # below take it again through the same GameFolder.
        folder = GameFolder(game_dir, home=self.home)
        held = contextlib.ExitStack()  # the lock, until the game's end (which may be put off)
        try:
            with held:
                if not held.enter_context(folder.lock.hold(0)):
                    return GameResult(name, skipped="locked")
                group = Group()
                with grouped(group):
                    prepared = guarded(name, lambda: self._prepare(folder, now, not batched))
                if isinstance(prepared, GameResult):
                    return prepared
                return Begun(prepared, group, held.pop_all())
        except PbemError as exc:  # the folder cannot hold its lock file
            return GameResult(name, error=str(exc))

    def complete(self, begun: Begun) -> GameResult:
        """The rest of a begun game's work, its intent durable (see :meth:`begin`).  In a
        serial pass (``self.late`` set) the game's end waits, under its lock, for the next
        barrier (:func:`pbem.moderator.durable.defer`).  Never raises for a game's problems."""
        with begun.held as held, grouped(begun.group):
            self._ending = None
            result = guarded(begun.prepared.folder.path.name, lambda: self._complete(begun.prepared))
            if self._ending is not None and self.late is not None:
                game_dir, record = self._ending
                write = None if record is None else lambda: save_record(game_dir, record, durable=False)
                defer(ending(result.game, write, held, self.late))
            return result

    @staticmethod
    def drop(begun: Begun, error: str) -> GameResult:
        """Give up a begun game whose intent could not be made durable: its lock let go,
        nothing more written (the next pass finds the intent, as after a kill there)."""
        begun.held.close()
        return GameResult(begun.prepared.folder.path.name, error=error)

    def note(self, result: GameResult, sig: list[int]) -> None:
        """Record in the index what a look at a game found (not for a game found locked)."""
        if result.skipped == "locked":
            return
        fresh = self._recently_touched(sig)
        self.index.record(result.game, sig, result.next_due, settling=fresh or result.error is not None)

    def _recently_touched(self, sig: list[int]) -> bool:
        """True if a watched path changed within the settle time (coarse mtimes could hide a
        later change behind the recorded signature, so such a game is looked at again).  A
        time further ahead than that is a date set by hand (``touch -d``), not a change: any
        later change in the folder gives it the time of that change."""
        real = self.real_ns()
        window = max(self.settle_ns, 2_000_000_000)
        return any(real - window < mtime <= real + window for mtime in sig[0::3])

    # ---- one game ----------------------------------------------------------------------------
    def _prepare(self, folder: GameFolder, now: int, durable: bool = True) -> Prepared:
        """A game's work up to its intent record (written, synced unless ``durable`` is
        False): reading, repairs, a killed pass's intent finished, reports handed out."""
        game_dir = folder.path
        self._removing = []
        sweep_tree(game_dir, skip=(INBOX_DIR,))
        save = folder.read(self.card)
        config = GameConfig.load(game_dir, self.config, get_game(save.game).bots)
        post = Post(game_dir, save.game_id, self.outbox, dict(config.emails))
        repaired = self._ensure_folders(game_dir, save, now)
        record, damage = read_record(game_dir)
        self._on_disk = record
        before = record.log
        if damage is not None or repaired:
            record = self._note_repairs(game_dir, record, damage, repaired, now)
        real = self.real_ns()
        # The judge's folder of mailed blocks is left to the judge when mail is off (pbem
        # moderate on a game pbem judge runs): only the judge can answer a mail.
        skip = () if self.outbox is not None else (MAIL_FOLDER,)
        files, changed = inbox_files(game_dir / INBOX_DIR, real, self.settle_ns, skip)
        # game time of the earliest change still settling: its file may hold the deadline
        arriving = None if changed is None else now - (real - changed) // 1_000_000_000
        settling = arriving is not None
        ids = [self._entry_id(f) for f in files]
        resume_turn = record.taking_turn
        record, resume = self._resume_taking(record, ids, save, now)
        if record.advancing is not None:
            record = self._recover(folder, game_dir, record, save, now, config.timing, post)
            save = folder.read(self.card)  # finishing an advance may have marked a seat (a new save)
        record = self._ensure_clock(game_dir, record, save, now)
        record = self._deliver_reports(folder, game_dir, record, save, post, now)
        if len(files) > MAX_FILES_PER_PASS:
            keep = fair_share(files, MAX_FILES_PER_PASS)
            files, ids, settling = [files[i] for i in keep], [ids[i] for i in keep], True
        if files:
            # The one write before the pass's first engine write: the entries taken, in order,
            # and the advance the turn would get if they complete it (see _would_advance).
            record = replace(
                record,
                taking=tuple(ids),
                taking_turn=save.turn,
                advancing=self._would_advance(record, save, now, config.timing),
            )
            self._save(game_dir, record, durable=durable)
        resumed = (resume, resume_turn)
        return Prepared(
            folder,
            now,
            save,
            config,
            post,
            record,
            before,
            files,
            ids,
            settling,
            arriving,
            resumed,
            self._on_disk,
        )

    def _complete(self, prepared: Prepared) -> GameResult:
        """A game's work after its intent: the inbox files, the advances, the end."""
        folder, now, save, config, post, record, before, files, ids, settling, arriving, resumed, on_disk = (
            prepared
        )
        resume, resume_turn = resumed
        game_dir = folder.path
        self._on_disk, self._removing, self._waiting = on_disk, [], 0
        kinds: list[str] = []
        advanced = 0
        # The last file of the pass may resolve the turn it completes in the same save write,
        # as the advance after the files would (the record holds that advance's intent),
        # unless a seat's status is still to be marked first (see _sync_statuses).
        advance = record.advancing is not None and not any(
            p["status"] == "active" and record.seat(n).abandoned
            for n, p in zip(save.names, save.body["players"], strict=True)
        )
        for i, (inbox_file, entry_id) in enumerate(zip(files, ids, strict=True)):
            retry, last = entry_id in resume, i == len(files) - 1
            record, kind, resolved = self._handle_file(
                folder,
                game_dir,
                record,
                inbox_file,
                post,
                now,
                config.timing,
                retry,
                advance and last,
                resume_turn if retry else None,
                save if i == 0 else None,  # the save read above: no engine write since
            )
            if kind:
                kinds.append(kind)
            if resolved:  # the file completed the turn, resolved in its own save write
                step("advanced")
                fresh = folder.read(self.card)
                record = self._finish_advance(folder, game_dir, record, fresh, now, config.timing, post)
                advanced += 1
        next_due: int | None = None
        while advanced < MAX_ADVANCES:
            save = folder.read(self.card)
            record = self._ensure_clock(game_dir, record, save, now)
            record = self._deliver_reports(folder, game_dir, record, save, post, now)
            if save.body["outcome"] is not None:
                break
            record, plan, next_due = self._plan(
                folder, game_dir, record, save, now, config.timing, post, arriving=arriving
            )
            if plan is None:
                break
            record = self._advance(folder, game_dir, record, save, plan, now, config.timing, post)
            advanced += 1
        # The pass's last write (none if nothing changed): what it did, the entries it took
        # answered, an intent it wrote for an advance that did not happen dropped.  Every
        # answer, report link and notice it claims is made durable first (one barrier); the
        # record itself need not be (lost, the intent written before it is finished again),
        # nor the inbox removals after it (lost, the record names the files as handled).
        # In a serial pass that barrier is the next game's (see complete).
        if self.late is None:
            barrier()
        # The files answered but not yet removed stay named as handled (a new turn's clock
        # forgets the keys of the last), so a stop before their removal never answers again.
        handled = (*record.handled, *(k for k in self._removing if k not in record.handled))
        record = replace(record, taking=(), taking_turn=None, advancing=None, handled=handled)
        if self.late is not None:  # written by the game's end, after that barrier
            self._ending = (game_dir, record if record != self._on_disk else None)
        else:
            self._save(game_dir, record, durable=False)
            finish()
        return GameResult(
            game_dir.name,
            files=len(files) - self._waiting,
            advanced=advanced,
            notices=tuple(kinds),
            next_due=1 if settling or self._waiting else next_due,
            journal=tuple(added(before, record.log)),
        )

    def _quarantine(self, game_dir: Path) -> Quarantine:
        return Quarantine.of(self.state_dir, game_dir)

    def _ensure_folders(self, game_dir: Path, save: Save, now: int) -> list[str]:
        """Make the folders the moderator reads and writes real folders: anything else in
        their place (a file, a link, dangling or not: never followed) is moved aside.
        Returns a journal line for each thing moved."""
        folders = [game_dir / RECORD_DIR, game_dir / INBOX_DIR, game_dir / PLAYERS_DIR]
        for name in save.names:
            folders += [game_dir / INBOX_DIR / name, game_dir / PLAYERS_DIR / name]
        if (game_dir / NOTICES_DIR).exists() or os.path.islink(game_dir / NOTICES_DIR):
            folders.append(game_dir / NOTICES_DIR)
        quarantine = self._quarantine(game_dir)
        lines = []
        for path in folders:
            line = ensure_real_dir(path, quarantine, iso(now))
            if line is not None:
                lines.append(f"{path.parent.name}/{line}")
        return lines

    def _note_repairs(
        self, game_dir: Path, record: Record, damage: str | None, repaired: list[str], now: int
    ) -> Record:
        """Journal what was repaired before the pass could begin; a damaged journal is kept
        in the quarantine and replaced by what could be saved of it."""
        if damage is not None:
            path = record_path(game_dir)
            note: dict[str, object] = {"was": f"{RECORD_DIR}/{path.name}", "reason": damage, "when": iso(now)}
            try:
                data, _ = read_untrusted(path, 64 * 1024 * 1024)
            except (OSError, Unreadable):
                # Not a file (a folder, a link, a FIFO): move it out of the way whole.
                if os.path.lexists(path):
                    stamp = hashlib.sha256(f"{path}/{now}".encode()).hexdigest()[:24]
                    if self._quarantine(game_dir).move(path, f"record-{stamp}", note) is None:
                        raise
            else:
                key = hashlib.sha256(data).hexdigest()[:24]
                self._quarantine(game_dir).keep(f"record-{key}", path.name, data, note)
            record = record.logged(
                f"{RECORD_DIR}/{path.name} was damaged ({damage}); rebuilt", at=now, kind="repaired"
            )
        for line in repaired:
            record = record.logged(line, at=now, kind="repaired")
        self._save(game_dir, record)
        return record

    def _save(self, game_dir: Path, record: Record, durable: bool = True) -> None:
        """Write the game's record, unless its file holds that very record already.  A
        durable write inside a game's group is one barrier: the record and everything the
        group wrote before it (answers, links, notices the record says were given) synced at
        once.  ``durable=False``: left to the next barrier or the pass's end."""
        if record != self._on_disk:
            grouped_write = active_group() is not None
            save_record(game_dir, record, durable=durable and not grouped_write)
            if durable and grouped_write:
                barrier()
            self._on_disk = record

    @staticmethod
    def _entry_id(item: InboxFile) -> str:
        """An inbox entry's key before it is read: its place and its ``stat`` identity."""
        return identity_key(item.folder, item.path.name, item.st or os.lstat(item.path))

    def _resume_taking(
        self, record: Record, present: Sequence[str], save: Save, now: int
    ) -> tuple[Record, frozenset[str]]:
        """What a stopped pass left of the inbox entries it took (``taking``).  Those gone
        from the inbox were answered and removed, but their journal lines died with the pass:
        one line says so.  Those still there are returned: the engine may have filed any of
        them before the stop (a pass removes the files it handled only after its last
        barrier), so each is handled as a retry: a DuplicateError for a file filed from that
        very place, or a "late" error for the file that resolved its turn, means accepted."""
        if not record.taking:
            return record, frozenset()
        here = set(present)
        gone = sum(1 for key in record.taking if key not in here)
        if gone:
            from pbem.wording import counted

            record = record.logged(
                f"{counted(gone, 'inbox file')} answered just before the moderator stopped; their own "
                "journal lines were lost (the notices are in the senders' folders)",
                at=now,
                kind="repaired",
                turn=save.turn,
            )
        return replace(record, taking=(), taking_turn=None), frozenset(k for k in record.taking if k in here)

    def _ensure_clock(self, game_dir: Path, record: Record, save: Save, now: int) -> Record:
        """Start the turn clock when the save shows a turn the record has not seen.  Not
        written here: the pass's next write keeps it (a clock lost with a killed pass starts
        again later, so a deadline is never brought forward)."""
        if record.clock is not None and record.clock.turn == save.turn:
            return record
        paused = record.clock is not None and record.clock.paused_since is not None
        clock = TurnClock(save.turn, now, paused_since=now if paused else None)
        record = replace(
            record,
            clock=clock,
            reminders_sent=(),
            missed_counted=(),
            stood_in=(),
            handled=(),
            inflight=None,
        ).logged(
            f"turn {save.turn} started" + awaiting_note(save), at=now, kind="turn-started", turn=save.turn
        )
        return record

    def _recover(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        save: Save,
        now: int,
        policy: TimingPolicy,
        post: Post,
    ) -> Record:
        """Finish or forget an advance a killed moderator left half done: finished when the
        save is the turn after it (the advance happened), forgotten when the save is that
        turn (it never did) and, with a journal line, when the save is further on: the
        record is older than the game (a sync tool brought back an old copy, or turns were
        resolved by hand since), and its missed turns and clock must not be applied again."""
        if record.advancing is None:
            return record
        from_turn = int(record.advancing["from_turn"])
        if save.turn == from_turn + 1:
            return self._finish_advance(folder, game_dir, record, save, now, policy, post)
        if save.turn > from_turn + 1:
            return replace(record, advancing=None).logged(
                f"{RECORD_DIR}/record.json held an unfinished advance of turn {from_turn}, but the game "
                f"is at turn {save.turn}: an older copy of the record (brought back by a sync tool?); "
                "its missed turns and clock were not applied again",
                at=now,
                kind="repaired",
                turn=save.turn,
            )
        return replace(record, advancing=None)  # never happened; the pass's next write drops it

    # ---- reports -----------------------------------------------------------------------------
    def _deliver_reports(
        self, folder: GameFolder, game_dir: Path, record: Record, save: Save, post: Post, now: int
    ) -> Record:
        """Hand the current turn's reports to each player, once (see
        :func:`pbem.moderator.deliver.deliver_reports`), and again to a player whose copy is
        gone (a sync tool deleted the file, or the folder and made it again): without it
        they could not write the orders the turn awaits."""
        from pbem.moderator.deliver import deliver_reports, missing_reports

        # A turn handed out by a moderator without mail (pbem moderate on a game the judge
        # runs) is handed out again with mail on: the mail is queued once, by its key.
        unmailed = self.outbox is not None and record.mailed != save.turn and bool(post.emails)
        if record.delivered is not None and record.delivered[0] == save.turn and not unmailed:
            gone = missing_reports(folder, save, post)
            if not gone:
                return record
            record = record.logged(
                f"turn {save.turn}'s report was gone from players/ of {', '.join(gone)}; handed out again",
                at=now,
                kind="repaired",
                turn=save.turn,
            )
        deliver_reports(folder, self.identity, save, post)
        # Not written on its own: handing out again is harmless (links left as they are, the
        # same copies, and mail deduplicated by content), so the pass's next write keeps it.
        mailed = save.turn if self.outbox is not None else record.mailed
        return replace(record, delivered=(save.turn, save.revision), mailed=mailed)

    # ---- inbox files -------------------------------------------------------------------------
    def _source(self, item: InboxFile) -> str:
        """Where an inbox entry was found, as printable text for notices and the journal."""
        folder = f"{shown(item.folder)}/" if item.folder else ""
        return f"{INBOX_DIR}/{folder}{shown(item.path.name)}"

    def _handle_file(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        item: InboxFile,
        post: Post,
        now: int,
        policy: TimingPolicy,
        retry: bool = False,
        advance: bool = False,
        taken_in: int | None = None,
        current: Save | None = None,
    ) -> tuple[Record, str | None, bool]:
        """File or refuse one inbox entry, answer its sender, and take it out of the inbox:
        a refused file is kept in the quarantine.  ``retry``: a killed pass may have had the
        engine file it (see :meth:`_resume_taking`).  The record is not written here: the
        entry is in the record's ``taking`` (see :meth:`begin`); ``taken_in``: the
        turn the stopped pass took it in (a retried entry answered in a turn since resolved is
        only removed: see :meth:`_answered`).  ``advance``: a
        file that completes the turn resolves it in the same engine write (the record's
        ``advancing`` holds the intent); the third value returned says it did.  ``current``:
        the save as this pass read it under the lock, when nothing wrote it since (not read
        again).  Whatever the entry is or holds, this raises only for a broken disk or a
        broken game, never for the entry itself."""
        if not item.regular:
            reason = f"it is {kind_of_mode(item.mode)}, not a file"
            return (*self._set_aside(folder, game_dir, record, item, post, now, reason), False)
        if item.size > MAX_ORDER_BYTES:
            reason = f"the file is {item.size} bytes; no order file is that big"
            return (*self._set_aside(folder, game_dir, record, item, post, now, reason), False)
        try:
            data, size = read_untrusted(item.path, MAX_ORDER_BYTES + 1)
        except FileNotFoundError:
            return record, None, False
        except Unreadable as exc:
            return (*self._set_aside(folder, game_dir, record, item, post, now, exc.reason), False)
        if len(data) > MAX_ORDER_BYTES:
            reason = f"the file is {size} bytes; no order file is that big"
            return (*self._set_aside(folder, game_dir, record, item, post, now, reason), False)
        if self._unfinished(item, data):  # left to its writer: the next pass looks again
            return record, None, False
        key = content_key(item.folder, item.path.name, item.mtime_ns, data)
        if key in record.handled:  # answered by a pass that stopped before removing it
            self._removing.append(key)
            remove(item.path, later=True, handled=item.st)
            return record, None, False
        retry = retry or (record.inflight is not None and record.inflight.get("key") == key)
        source = self._source(item)
        save = current or folder.read(self.card)
        if taken_in is not None and taken_in != save.turn and self._answered(game_dir, save, taken_in, key):
            # The stopped pass answered it, then resolved the turn (the last file of a pass
            # completes it): answered once, in its own turn; its journal line is rebuilt.
            record = record.with_handled(key).logged(
                f"{source}: answered for turn {taken_in} just before the moderator stopped",
                at=now,
                kind="repaired",
                turn=taken_in,
            )
            self._removing.append(key)
            remove(item.path, later=True, handled=item.st)
            return record, None, False
        problem = None
        resolved = False
        try:
            notice, seat, resolved = self._submit(
                folder, save, data, source, retry, now, policy, record, post, advance
            )
        except Exception as exc:  # no file may stall the game, whatever it trips in the engine
            if isinstance(exc, OSError | ConflictError) or folder.read(self.card).revision != save.revision:
                raise  # the disk, not the file; or the engine filed it: the retry path decides
            problem = f"{type(exc).__name__}: {shown(str(exc), 200)}"
            notice = Notice(
                "malformed",
                game_id=save.game_id,
                turn=save.turn,
                source=source,
                received=iso(now),
                message=f"{source}: the moderator could not read this file; it was set aside unfiled.",
                hint="send the signed order file as 'pbem sign' writes it (the moderator keeps this one)",
            )
            seat = None
        if notice.kind == "malformed" and item.folder != MAIL_FOLDER and incomplete(data):
            notice = unfinished_notice(notice, data)
        self._answer(game_dir, save, notice, seat, item, post, key)
        if notice.kind not in ("accepted", "replaced", "relayed"):
            note: dict[str, object] = {
                "was": source,
                "received": iso(now),
                "result": notice.kind,
                "message": notice.message,
            }
            if problem is not None:
                note["error"] = problem
            self._quarantine(game_dir).keep(key, item.path.name, data, note)
        record = record.with_handled(key)
        # A press notice names no player in the journal (grey press must not be traced).
        verified = (
            seat is not None and notice.kind in VERIFIED_KINDS and notice.kind not in ("relayed", "press")
        )
        shown_source = "a press file" if notice.kind in ("relayed", "press") else source  # no inbox name
        record = replace(record, inflight=None).logged(
            f"{shown_source}: {notice.kind}"
            + (f" ({save.names[seat]})" if seat is not None and verified else "")
            + (f" [{problem}]" if problem is not None else ""),
            at=now,
            kind="accepted" if notice.kind in ("accepted", "replaced", "relayed") else "rejected",
            turn=save.turn,
            player=save.names[seat] if seat is not None and verified else None,
        )
        self._removing.append(key)
        remove(item.path, later=True, handled=item.st)  # once its answer and the record are durable
        return record, notice.kind, resolved

    def _unfinished(self, item: InboxFile, data: bytes) -> bool:
        """True (and counted in ``_waiting``) for an inbox file that looks unfinished (see
        :func:`pbem.moderator.scan.incomplete`) and changed less than
        :data:`~pbem.moderator.scan.INCOMPLETE_WAIT` seconds ago (at least the settle time):
        left to its writer, unanswered, rather than refused as cut off while a copy or sync
        tool is still writing it in place.  It holds no deadline longer than any file."""
        if item.st is None or not incomplete(data):
            return False
        wait = max(INCOMPLETE_WAIT * 1_000_000_000, self.settle_ns)
        if self.real_ns() - changed_ns(item.st, self.real_ns()) >= wait:
            return False
        self._waiting += 1
        return True

    def _set_aside(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        item: InboxFile,
        post: Post,
        now: int,
        reason: str,
    ) -> tuple[Record, str | None]:
        """Refuse an inbox entry that is not read (not a file, unreadable, too big): one
        notice to the owner of the folder, then move it aside whole; what cannot be moved is
        remembered by its ``stat`` identity and ignored from then on."""
        try:
            st = item.st or os.lstat(item.path)
        except FileNotFoundError:
            return record, None
        key = identity_key(item.folder, item.path.name, st)
        if key in record.ignored:
            return record, None
        save = folder.read(self.card)
        source = self._source(item)
        notice = Notice(
            "malformed",
            game_id=save.game_id,
            turn=save.turn,
            source=source,
            received=iso(now),
            message=f"{reason[:1].upper()}{reason[1:]}.\nIt was set aside unread; the moderator keeps it.",
            hint="drop only the signed order file itself, as 'pbem sign' writes it (a plain, readable file)",
        )
        self._answer(game_dir, save, notice, None, item, post, key)
        note: dict[str, object] = {"was": source, "received": iso(now), "result": "malformed"}
        note["reason"] = reason
        barrier()  # the answer on disk before the entry leaves the inbox
        where = self._quarantine(game_dir).move(item.path, key, note)
        if where is None and os.path.lexists(item.path):
            record = replace(record, ignored=(*record.ignored, key)[-Record.KEEP_IGNORED :])
            outcome = "cannot be moved: left in place and ignored"
        else:
            outcome = f"moved aside to {where}" if where is not None else "gone"
        record = record.logged(
            f"{source}: malformed ({reason}); {outcome}", at=now, kind="rejected", turn=save.turn
        )
        return record, notice.kind

    def _submit(
        self,
        folder: GameFolder,
        save: Save,
        data: bytes,
        source: str,
        retry: bool,
        now: int,
        policy: TimingPolicy,
        record: Record,
        post: Post | None = None,
        advance: bool = False,
    ) -> tuple[Notice, int | None, bool]:
        """Hand one file to the engine (``advance``: to resolve the turn if it completes it);
        the notice for its sender, the verified seat, and whether the turn was resolved."""
        base: dict[str, Any] = {
            "game_id": save.game_id,
            "turn": save.turn,
            "source": source,
            "received": iso(now),
        }
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            hint = "save the order file as plain text (UTF-8), as 'pbem sign' writes it"
            if data.startswith(AGE_BINARY_MAGIC):
                hint = "send the sealed orders in ASCII armour, as 'pbem sign' writes them (age -a)"
            message = f"{source}: the file is not text"
            return Notice("malformed", message=message, hint=hint, **base), None, False
        from pbem.press.moderated import handle as handle_press

        press = handle_press(folder, self.identity, text, source, base, post, retry)
        if press is not None:  # a press file (pbem say): relayed and delivered, or refused
            return (*press, False)
        try:
            receipt = folder.submit(
                text, self.identity, source=source, now=datetime.fromtimestamp(now, UTC), advance=advance
            )
        except DuplicateError as exc:
            seat = self._claimed_seat(save, text, source)
            if retry and self._filed_from(folder, seat, source):
                # Killed after the engine filed this very file and before it was answered.
                replaced = self._archived(folder, save.turn, save.names, seat) > 1
                notice = self._accepted_notice(folder, seat, replaced, now, policy, record, base, save.names)
                return notice, seat, False
            return Notice("duplicate", message=exc.message, hint=exc.hint, **base), seat, False
        except ConflictError:
            raise  # another writer kept saving the game: the file stays for the next pass
        except PbemError as exc:
            kind = kind_of(exc)
            seat = self._claimed_seat(save, text, source) if kind in VERIFIED_KINDS else None
            late = kind in ("replayed", "late")
            resolved = self._resolved_by(folder, save, text, source) if retry and late else None
            if resolved is not None:
                # Killed after this very file completed and resolved its turn (one engine
                # write) and before it was answered: the answer it would have had.
                seat, turn = resolved
                replaced = self._archived(folder, turn, save.names, seat) > 1
                notice = self._accepted_notice(
                    folder, seat, replaced, now, policy, record, dict(base, turn=turn), save.names, (turn, ())
                )
                return notice, seat, False
            if kind == "replayed" and self._claimed_turn(text, source) < save.turn:
                kind = "late"
            same = (
                None
                if kind != "replayed" or seat is None
                else self._same_seq_answer(folder, save, seat, text, source)
            )
            if same is not None:  # another file with this Seq was accepted: say which
                return Notice(kind, message=same[0], hint=same[1], **base), seat, False
            if kind == "orders":
                from pbem.wording import counted

                count = exc.message.count("\n") + 1
                message = (
                    f"{source}: {counted(count, 'order line')} could not be accepted; the file was not filed "
                    "and your earlier orders for this turn, if any, still stand."
                )
                # The lines are named in the encrypted details, below the hint (the engine's
                # own hint, for pbem submit, says "above").
                hint = (
                    "correct the lines named in the encrypted details below, sign again and resend "
                    "(the same Seq will do: nothing was accepted)"
                )
                return Notice(kind, message=message, hint=hint, secret=exc.message, **base), seat, False
            return Notice(kind, message=exc.message, hint=exc.hint, **base), seat, False
        seat = save.seat_of(receipt.player)
        filed = (receipt.turn, receipt.awaiting)
        notice = self._accepted_notice(
            folder, seat, receipt.replaced, now, policy, record, base, save.names, filed
        )
        return notice, seat, receipt.advanced is not None

    def _accepted_notice(
        self,
        folder: GameFolder,
        seat: int | None,
        replaced: bool,
        now: int,
        policy: TimingPolicy,
        record: Record,
        base: dict[str, Any],
        names: Sequence[str],
        filed: tuple[int, Sequence[str]] | None = None,
    ) -> Notice:
        """The notice for accepted orders: ``filed`` is the turn they are for and who still
        owes orders for it (as the engine's receipt says; read from the save without it);
        ``names``: the players' names (as the save the file was filed in has them)."""
        after = record.clock is not None and due(policy, record.clock, now).deadline_passed
        if filed is None:
            fresh = folder.read(self.card)
            filed = fresh.turn, [fresh.names[s] for s in fresh.awaiting if s not in fresh.body["submitted"]]
        turn, missing = filed
        who = names[seat] if seat is not None else "?"
        lines = [f"The orders of {who} for turn {turn} are filed."]
        if after:
            lines.append("They came after the deadline, within the grace period.")
        lines.append(
            f"Still awaiting orders from: {', '.join(missing) or 'nobody: the turn will be resolved'}."
        )
        lines.append("You may replace them until the turn is resolved: sign new orders with a higher Seq.")
        return Notice("replaced" if replaced else "accepted", message="\n".join(lines), **base)

    def _answer(
        self,
        game_dir: Path,
        save: Save,
        notice: Notice,
        seat: int | None,
        item: InboxFile,
        post: Post,
        key: str,
    ) -> None:
        """Deliver a notice: to the verified seat, else to the owner of the inbox folder it came
        from, else to the mail sender (judge), else to the game's public notices folder."""
        if notice.kept_back:
            return
        filename = notice_filename(notice.turn, key)
        origin = None
        if item.folder == MAIL_FOLDER:  # named to the player by the mail's subject and date
            from pbem.moderator.judge import mail_origin
            from pbem.moderator.notices import mail_label, relabel

            origin = mail_origin(self.state_dir, item.path.name)
            notice = relabel(notice, self._source(item), *mail_label(origin))
        if seat is not None and notice.kind in VERIFIED_KINDS:
            recipients = [save.players[seat], self.card] if notice.secret is not None else []
            post.put(save.names[seat], filename, notice.render(recipients, self.identity), notice.subject)
            return
        text = notice.render(signer=self.identity)
        owner = save.seat_of(item.folder)
        if owner is not None:
            post.put(save.names[owner], filename, text, notice.subject)
            return
        if item.folder == MAIL_FOLDER:
            sender = origin.get("from") if origin is not None else None
            if isinstance(sender, str) and sender and origin is not None:
                reply_to = origin.get("message_id")
                post.mail_only(
                    sender,
                    notice.subject,
                    text,
                    f"{save.game_id}/notice/{key}",
                    reply_to if isinstance(reply_to, str) else None,
                )
        write_once(game_dir / NOTICES_DIR / filename, text)
