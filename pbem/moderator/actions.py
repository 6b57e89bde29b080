"""The moderator's own commands on one game: extend, pause, resume, replace, resign,
roll back, preview, and the deadline lines of ``pbem status``.

Each command takes the game's lock (the engine's, in the game folder, so it never races a
running moderator or a ``pbem submit``), changes
the save through the engine and the moderator's record through :mod:`.record`, and makes
the next pass look at the game in full.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from pbem.engine import GameFolder
from pbem.errors import ConflictError, PbemError, UsageError, no_game_here
from pbem.keys import Identity, PublicCard
from pbem.moderator.config import GameConfig, RootConfig
from pbem.moderator.lock import local_state_dir
from pbem.moderator.post import PLAYERS_DIR
from pbem.moderator.record import Record, load_record, save_record
from pbem.moderator.scan import Index
from pbem.save import Save
from pbem.timing import (
    Clock,
    Missing,
    SystemClock,
    TimingPolicy,
    TurnClock,
    deadline_of,
    due,
    format_duration,
    reminder_times,
    stand_in,
)

MAX_EXTENDED = 100 * 365 * 86400
"""The most one turn's deadline is extended in all (a hundred years): more is a mistake, and
would soon take the deadline past the times the moderator's record keeps."""


@dataclass
class GameAdmin:
    """Commands on one game folder under a moderated root."""

    game_dir: Path
    identity: Identity
    clock: Clock
    state_dir: Path

    @classmethod
    def open(
        cls, game_dir: Path, identity: Identity, clock: Clock | None = None, state_dir: Path | None = None
    ) -> GameAdmin:
        """Commands on ``game_dir`` (whose parent is the moderated root)."""
        game_dir = Path(game_dir)
        if not (game_dir / "save.json").is_file():
            raise no_game_here(game_dir)
        return cls(game_dir, identity, clock or SystemClock(), local_state_dir(game_dir.parent, state_dir))

    @cached_property
    def folder(self) -> GameFolder:
        """The engine's view of the game (one object: it holds the game's lock re-entrantly)."""
        return GameFolder(self.game_dir, home=self.state_dir / "engine")

    def _dt(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    @contextmanager
    def _locked(self) -> Iterator[Record]:
        with self.folder.lock.hold(30) as mine:
            if not mine:
                raise ConflictError(
                    f"another moderator (or pbem command) is working on {self.game_dir.name}",
                    "try again in a moment",
                )
            yield load_record(self.game_dir)
        index = Index(self.state_dir / "index.json")
        index.forget(self.game_dir.name)
        index.save()

    def _clock_of(self, record: Record) -> TurnClock:
        """The clock of the save's turn: the record's, or one started now for a turn the record
        has not seen yet, paused if the game was (as a pass starts it)."""
        save = self.folder.read(self.identity.public())
        if record.clock is not None and record.clock.turn == save.turn:
            return record.clock
        now = self.clock.now()
        paused = record.clock is not None and record.clock.paused_since is not None
        return TurnClock(save.turn, now, paused_since=now if paused else None)

    def _of_turn(self, record: Record, clock: TurnClock) -> Record:
        """``record`` with ``clock``; a clock this command started (a turn the record has not
        seen yet: after a rollback, before the next pass) drops the older turn's marks
        (reminders sent, missed turns counted, stand-ins), as a pass starting the turn does."""
        if record.clock is not None and record.clock.turn == clock.turn:
            return replace(record, clock=clock)
        return replace(record, clock=clock, reminders_sent=(), missed_counted=(), stood_in=())

    def _config(self) -> GameConfig | None:
        try:
            return GameConfig.load(self.game_dir, RootConfig.load(self.game_dir.parent))
        except PbemError:
            return None

    def policy(self) -> TimingPolicy | None:
        """The game's timing policy; None when its settings cannot be read (the pass reports them)."""
        config = self._config()
        return None if config is None else config.timing

    def _tell(self, clock: TurnClock, what: str) -> None:
        """Tell each seat that still owes orders that its deadline moved or stopped (``what``:
        ``extended``, ``paused``, ``resumed``): ``players/<name>/deadline-turn-NNNN-<what>-<time>.txt``
        with the new deadline, mailed too where the mail judge keeps its outbox.  Nothing for a
        game without a deadline, over, or not moderated yet; a notice that cannot be written is
        left out (the journal has the change, ``pbem status`` shows it)."""
        from pbem.moderator.plan import moved_text
        from pbem.moderator.post import Outbox, Post

        config = self._config()
        save = self.folder.read(self.identity.public())
        now = self.clock.now()
        deadline = None if config is None else deadline_of(config.timing, clock, now)
        if config is None or deadline is None or save.body["outcome"] is not None:
            return
        stamp = datetime.fromtimestamp(now if what == "paused" else deadline, UTC).strftime("%Y%m%dT%H%M%SZ")
        outbox = self.state_dir / "outbox"
        post = Post(
            self.game_dir, save.game_id, Outbox(outbox) if outbox.is_dir() else None, dict(config.emails)
        )
        for seat in save.awaiting:
            name = save.names[seat]
            if seat in save.body["submitted"] or save.body["players"][seat]["status"] != "active":
                continue
            if not post.folder_of(name).is_dir():
                continue
            text = moved_text(save, seat, what, deadline, deadline + config.timing.grace)
            subject = f"[pbem {save.game_id}] deadline {what}: turn {save.turn}"
            try:
                post.put(name, f"deadline-turn-{save.turn:04d}-{what}-{stamp}.txt", text, subject)
            except OSError:
                continue

    def _moved(self, record: Record, clock: TurnClock) -> Record:
        """``record`` with ``clock``, whose deadline was moved (extended, or resumed after a
        pause): a reminder already sent whose time, counted from the moved deadline, is still
        to come is sent again then, naming the new deadline (the players were told the old
        one); one whose time has passed stays sent.  When the moved grace period has not
        ended, the turn's missed turns counted at the old one (a policy that waits) are taken
        back: those seats are not late until the new one ends (a seat already marked abandoned
        stays so).  Settings that cannot be read (the pass reports them) leave all as it is."""
        record = self._of_turn(record, clock)
        policy = self.policy()
        if policy is None:
            return record
        times, now = reminder_times(policy, clock), self.clock.now()
        sent = tuple(k for k in record.reminders_sent if k >= len(times) or times[k] <= now)
        record = replace(record, reminders_sent=sent)
        deadline = deadline_of(policy, clock, now)
        if deadline is None or deadline + policy.grace <= now or not record.missed_counted:
            return record
        for name in record.missed_counted:
            seat = record.seat(name)
            record = record.with_seat(
                name,
                replace(
                    seat,
                    missed_total=max(0, seat.missed_total - 1),
                    missed_streak=max(0, seat.missed_streak - 1),
                ),
            ).logged(
                f"{name}'s missed turn {clock.turn} taken back: the deadline was moved",
                at=now,
                kind="note",
                turn=clock.turn,
                player=name,
            )
        return replace(record, missed_counted=())

    def extend(self, seconds: int) -> TurnClock:
        """Move this turn's deadline (and reminders) ``seconds`` later.  Raises UsageError,
        writing nothing, for 0 seconds or fewer (nothing would move: a deadline is not brought
        forward), for a game that is over, and when the turn's extensions would add up to more
        than MAX_EXTENDED.  A game without a deadline keeps the extension for when one is set."""
        if seconds <= 0:
            raise UsageError(
                f"DURATION: {format_duration(seconds)} moves nothing",
                hint="give how much later the deadline is to be, e.g. '24h' (it cannot be brought forward)",
            )
        with self._locked() as record:
            if self.folder.read(self.identity.public()).body["outcome"] is not None:
                raise UsageError(f"game {self.game_dir.name} is over: there is no deadline to move")
            before = self._clock_of(record)
            if before.extended + seconds > MAX_EXTENDED:
                raise UsageError(
                    f"DURATION: turn {before.turn}'s deadline is extended by "
                    f"{format_duration(before.extended)} already; {format_duration(seconds)} more "
                    "would make more than a hundred years",
                    hint="to stop the clock use pbem pause; for no deadline at all write "
                    'deadline = "none" in the game\'s moderator.toml',
                )
            clock = before.extend(seconds)
            record = self._moved(record, clock).logged(
                f"deadline extended by {format_duration(seconds)}",
                at=self.clock.now(),
                kind="extended",
                turn=clock.turn,
            )
            save_record(self.game_dir, record)
            self._tell(clock, "extended")
            return clock

    def pause(self) -> tuple[TurnClock, bool]:
        """Stop the clock: no reminder, deadline or advance until resumed (orders are still filed).

        Returns the clock and whether it was running: pausing a paused game writes nothing
        (the clock's ``paused_since`` says since when it is paused)."""
        with self._locked() as record:
            before = self._clock_of(record)
            if before.paused_since is not None:
                return before, False
            clock = before.pause(self.clock.now())
            record = self._of_turn(record, clock)
            save_record(
                self.game_dir,
                record.logged("game paused", at=self.clock.now(), kind="paused", turn=clock.turn),
            )
            self._tell(clock, "paused")
            return clock, True

    def resume(self) -> tuple[TurnClock, bool]:
        """Restart the clock; the paused time is added to the deadline.

        Returns the clock and whether it was paused: resuming a running game writes nothing."""
        with self._locked() as record:
            before = self._clock_of(record)
            if before.paused_since is None:
                return before, False
            clock = before.resume(self.clock.now())
            record = self._moved(record, clock)
            save_record(
                self.game_dir,
                record.logged("game resumed", at=self.clock.now(), kind="resumed", turn=clock.turn),
            )
            self._tell(clock, "resumed")
            return clock, True

    def replace_player(self, name: str, card: PublicCard) -> str:
        """Give seat ``name`` to the holder of ``card`` (same seat, new key); returns the new name."""
        with self._locked() as record:
            save = self.folder.replace_player(self.identity, name, card, now=self._dt())
            seats = {k: v for k, v in record.seats.items() if k != name.lower()}
            record = replace(record, seats=seats, delivered=None).logged(
                f"{name} replaced by {card.name}",
                at=self.clock.now(),
                kind="replaced",
                turn=save.turn,
                player=card.name,
            )
            with self.folder.after_commit(save):  # a full disk now: the seat is given already
                save_record(self.game_dir, record)
            return card.name

    def resign(self, name: str) -> None:
        """Mark seat ``name`` resigned: from now on the timing policy's stand-in plays it."""
        with self._locked() as record:
            save = self.folder.set_status(self.identity, name, "resigned", now=self._dt())
            entry = record.logged(
                f"{name} resigned", at=self.clock.now(), kind="resigned", turn=save.turn, player=name
            )
            with self.folder.after_commit(save):
                save_record(self.game_dir, entry)

    def rollback(self, turn: int) -> int:
        """Go back to the start of ``turn`` (hidden chance drawn anew: see the engine's
        rollback); the reports the players got for the turns undone leave their folders for
        ``undone/rev-NNNNNN/players/<name>/``, and the report of ``turn`` is handed out again.
        In a game the moderator runs, the turn's clock starts now, so ``pbem status`` shows its
        deadline at once (before, none until the next pass); a paused game stays paused (the
        clock starts stopped)."""
        with self._locked() as record:
            save = self.folder.rollback(self.identity, turn, now=self._dt())
            with self.folder.after_commit(save):  # a full disk now: the game is rolled back already
                self._rolled_back(record, save, turn)
            return save.turn

    def _rolled_back(self, record: Record, save: Save, turn: int) -> None:
        """:meth:`rollback`'s work after the engine's: the players' reports of the turns undone
        set aside, the record's clock started again for ``turn``.  Raises OSError."""
        self._set_aside_delivered(save.revision, save.names, turn)
        moderated = record.clock is not None
        paused = record.clock is not None and record.clock.paused_since is not None
        record = replace(record, clock=None, delivered=None, handled=(), inflight=None, advancing=None)
        if moderated:  # the turn rolled back to runs from now (stopped, if the game was paused)
            now = self.clock.now()
            record = self._of_turn(record, TurnClock(save.turn, now, paused_since=now if paused else None))
        save_record(
            self.game_dir,
            record.logged(f"rolled back to turn {turn}", at=self.clock.now(), kind="rollback", turn=turn),
        )

    def _set_aside_delivered(self, revision: int, names: list[str], turn: int) -> None:
        """Move the reports and pictures of turns ``turn`` and later out of the players' folders."""
        pattern = re.compile(r"(?:report-turn-|turn-)([0-9]{4,9})[.-].*")
        for name in names:
            folder = self.game_dir / PLAYERS_DIR / name
            try:
                entries = sorted(os.listdir(folder))
            except OSError:
                continue
            for entry in entries:
                match = pattern.fullmatch(entry)
                if match is None or int(match.group(1)) < turn:
                    continue
                target = self.folder.undone_dir(revision) / PLAYERS_DIR / name / entry
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(folder / entry, target)

    def preview(self) -> list[str]:
        """What advancing now would do, stand-ins included, without writing anything."""
        from pbem.moderator.plan import stand_in_orders
        from pbem.moderator.standin import descriptions
        from pbem.wording import event_lines, name_seats

        folder = self.folder
        loaded = folder.load(self.identity)
        config = GameConfig.load(self.game_dir, RootConfig.load(self.game_dir.parent), loaded.game.bots)
        save = loaded.save
        record = load_record(self.game_dir)
        lines = [f"preview of game {save.game_id}, turn {save.turn} (nothing is written):"]
        fill: dict[int, list[str]] = {}
        stands: dict[int, Missing] = {}
        for seat in save.awaiting:
            if seat in save.body["submitted"]:
                continue
            name = save.names[seat]
            status = save.body["players"][seat]["status"]
            stand = (
                config.timing.on_abandoned
                if status in ("resigned", "abandoned")
                else stand_in(config.timing, record.seat(name))
            )
            if stand.action == "wait":
                stand = config.timing.on_abandoned
                lines.append(f"  {name} sent no orders; the policy waits (shown with {stand} orders)")
            else:
                lines.append(f"  {name} sent no orders; would play {stand} orders")
            fill[seat] = stand_in_orders(loaded, seat, stand)
            stands[seat] = stand
        result = folder.advance(
            self.identity, now=self._dt(), fill=fill, preview=True, stand_in=descriptions(stands)
        )
        lines += event_lines(result.events, save.names)
        if result.outcome is not None:
            lines.append(f"  the game would end: {name_seats(result.outcome.summary, save.names)}")
        else:
            lines.append(f"  turn {result.turn} would await: {', '.join(result.awaiting)}")
        return lines


def status_lines(game_dir: Path, now: int, game: str | None = None) -> list[str]:
    """Deadline, grace, reminders and missed turns of a moderated game, for ``pbem status``
    (``game``: its kind, whose bots a stand-in may be).

    Empty for a game the moderator has not run yet.  Needs no key.  Raises UsageError for
    moderator settings that are refused.
    """
    from pbem.registry import get_game

    record = load_record(Path(game_dir))
    if record.clock is None:
        return []
    root = RootConfig.load(Path(game_dir).parent)
    bots = get_game(game).bots if game is not None else None
    policy = GameConfig.load(Path(game_dir), root, bots).timing
    state = due(policy, record.clock, now)

    def when(t: int) -> str:
        stamp = datetime.fromtimestamp(t, UTC).isoformat(timespec="minutes")
        delta = t - now
        return (
            f"{stamp} ({'in ' + format_duration(delta) if delta > 0 else format_duration(-delta) + ' ago'})"
        )

    lines = []
    if state.paused:
        lines.append("moderator: PAUSED (no deadline runs until resumed)")
    if state.deadline is None:
        lines.append("deadline: none (the moderator waits for every order)")
    else:
        lines.append(f"deadline: {when(state.deadline)}")
        if state.grace_end is not None and state.grace_end != state.deadline:
            lines.append(f"grace until: {when(state.grace_end)}")
        for k, before in enumerate(policy.reminders):
            at = state.deadline - before
            sent = (
                "sent"
                if k in record.reminders_sent
                else "planned"
                if at > now
                else "due"
                if now < state.deadline
                else "not sent: the deadline came first"
            )
            lines.append(f"reminder {k + 1}: {when(at)} [{sent}]")
    lines.append(f"when orders are missing: {policy.on_missing}")
    for name, seat in sorted(record.seats.items()):
        if seat.missed_total or seat.abandoned:
            extra = ", abandoned" if seat.abandoned else ""
            from pbem.wording import counted

            missed = counted(seat.missed_total, "turn")
            lines.append(f"{name}: missed {missed}, {seat.missed_streak} in a row{extra}")
    return lines
