"""The moderator's deadlines and advances (a part of :class:`pbem.moderator.core.Moderator`):
reminders, missed turns, stand-ins, abandoned seats, and resolving a turn with its intent
journalled first, so that a killed pass finishes the same advance on restart."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine import GameFolder
from pbem.errors import PbemError
from pbem.moderator.durable import step
from pbem.moderator.plan import Plan, intent, reminder_name, reminder_text, stand_in_orders
from pbem.moderator.post import Post
from pbem.moderator.record import Record
from pbem.moderator.standin import continuing, descriptions, tell_abandoned, tell_stand_ins, with_stood_in
from pbem.registry import get_game
from pbem.save import Save
from pbem.timing import Missing, TimingPolicy, due, record_turn, stand_in

if TYPE_CHECKING:
    from pbem.keys import Identity, PublicCard


class Advancing:
    """Deadlines and advancing, mixed into the Moderator (which provides what is declared
    under TYPE_CHECKING below)."""

    if TYPE_CHECKING:
        identity: Identity
        card: PublicCard
        _on_disk: Record

        def _save(self, game_dir: Path, record: Record, durable: bool = True) -> None: ...

        def _ensure_clock(self, game_dir: Path, record: Record, save: Save, now: int) -> Record: ...

    def _plan(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        save: Save,
        now: int,
        policy: TimingPolicy,
        post: Post,
        arriving: int | None = None,
    ) -> tuple[Record, Plan | None, int | None]:
        """Send due reminders, count missed turns, and say whether (and how) to advance now.

        ``arriving``: when (game time) the earliest inbox file still settling last changed.
        A file that was there by the end of the grace period holds it until the file has
        settled and been read (at most the settle time past the end): an order filed before
        its turn is resolved counts, however close to the deadline it came."""
        assert record.clock is not None
        state = due(policy, record.clock, now)
        grace_over = state.grace_over and not (
            arriving is not None and state.grace_end is not None and arriving <= state.grace_end
        )
        names = save.names
        statuses = [p["status"] for p in save.body["players"]]
        submitted = set(save.body["submitted"])
        missing = [s for s in save.awaiting if s not in submitted]
        if state.paused:
            return record, None, None
        for k in state.reminders:
            if k in record.reminders_sent:
                continue
            for seat in missing:
                if statuses[seat] == "active":
                    post.put(
                        names[seat],
                        reminder_name(save.turn, k, record.clock, state.deadline),
                        reminder_text(save, seat, state.deadline, state.grace_end),
                        f"[pbem {save.game_id}] reminder: your orders for turn {save.turn}",
                    )
            reminded = [names[seat] for seat in missing if statuses[seat] == "active"]
            record = replace(record, reminders_sent=(*record.reminders_sent, k)).logged(
                f"reminder {k + 1} for turn {save.turn} sent to {', '.join(reminded) or 'nobody'}",
                at=now,
                kind="reminder",
                turn=save.turn,
            )  # not written now: sent again after a kill, a reminder has the same name and mail key
        how: dict[int, Missing] = {}
        waiting = False
        carried: set[str] = set()  # a go the stand-in began, finished at once
        if record.stood_in and callable(getattr(get_game(save.game), "mid_turn", None)):
            asked = [s for s in missing if names[s].lower() in record.stood_in and statuses[s] == "active"]
            for seat in continuing(folder.load(self.identity), asked) if asked else ():
                if stand_in(policy, record.seat(names[seat])).action != "wait":
                    carried.add(names[seat])
        for seat in missing:
            name = names[seat]
            if statuses[seat] in ("resigned", "abandoned"):
                how[seat] = policy.on_abandoned
                continue
            if name in carried:
                how[seat] = stand_in(policy, record.seat(name))
                continue
            if not grace_over:
                waiting = True
                continue
            stand = stand_in(policy, record.seat(name))
            if stand.action == "wait" and name.lower() not in record.missed_counted:
                seat_record = record_turn(policy, record.seat(name), missed=True)
                record = replace(
                    record.with_seat(name, seat_record), missed_counted=(*record.missed_counted, name.lower())
                ).logged(
                    f"{name} missed turn {save.turn}", at=now, kind="missed", turn=save.turn, player=name
                )  # the count and its marker are written together, before any advance they cause
                stand = stand_in(policy, seat_record)
            if stand.action == "wait":
                waiting = True
            else:
                how[seat] = stand
        record = self._sync_statuses(folder, game_dir, record, save, now, policy, post)
        if waiting:
            return record, None, state.next_event
        fill: dict[int, list[str]] = {}
        if how:
            loaded = folder.load(self.identity)
            for seat, stand in how.items():
                fill[seat] = stand_in_orders(loaded, seat, stand)
        counted = {*record.missed_counted, *(n.lower() for n in carried)}
        missed = tuple(names[s] for s in how if statuses[s] == "active" and names[s].lower() not in counted)
        on_time = tuple(names[s] for s in save.awaiting if s in submitted)
        described = {names[s]: str(stand) for s, stand in how.items()}
        played = {names[s]: list(fill[s]) for s in how if statuses[s] == "active"}
        plan = Plan(fill, missed, on_time, described, played, descriptions(how))
        return record, plan, state.next_event

    def _sync_statuses(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        save: Save,
        now: int,
        policy: TimingPolicy,
        post: Post,
    ) -> Record:
        """Mark in the save every seat the record says is abandoned, and tell its player
        (idempotent)."""
        for seat, player in enumerate(save.body["players"]):
            name = save.names[seat]
            if player["status"] == "active" and record.seat(name).abandoned:
                tell_abandoned(post, game_dir, save, name, now, policy, record, self.identity)
                folder.set_status(self.identity, name, "abandoned", now=datetime.fromtimestamp(now, UTC))
                record = record.logged(
                    f"{name} abandoned the game", at=now, kind="abandoned", turn=save.turn, player=name
                )
                self._save(game_dir, record)
        return record

    def _advance(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        save: Save,
        plan: Plan,
        now: int,
        policy: TimingPolicy,
        post: Post,
    ) -> Record:
        """Resolve the turn: journal the intent (unless the record's file holds it already:
        see :meth:`_would_advance`), advance, then finish the record in memory (the pass's
        next write keeps it; a kill before then finishes it again from the intent)."""
        record = replace(record, advancing=intent(save.turn, plan, now))
        if self._on_disk.advancing != record.advancing:
            self._save(game_dir, record)
        try:
            folder.advance(
                self.identity, now=datetime.fromtimestamp(now, UTC), fill=plan.fill, stand_in=plan.described
            )
        except PbemError:
            self._save(game_dir, replace(record, advancing=None))
            raise
        step("advanced")
        fresh = folder.read(self.card)
        return self._finish_advance(folder, game_dir, record, fresh, now, policy, post)

    def _would_advance(
        self, record: Record, save: Save, now: int, policy: TimingPolicy
    ) -> dict[str, Any] | None:
        """The intent of the advance this pass makes if the inbox files it takes complete the
        turn (every awaited seat's own orders, nothing filled in: what :meth:`_plan` then
        plans), journalled with the entries taken so that such an advance needs no write of
        its own; None when nothing can advance (the game over or paused).  A turn that does
        not complete leaves the intent unused: the pass's last write drops it, and after a
        kill :meth:`_recover` forgets it, since the save still shows ``from_turn``."""
        if save.body["outcome"] is not None or record.clock is None or due(policy, record.clock, now).paused:
            return None
        on_time = tuple(save.names[s] for s in save.awaiting)
        return intent(save.turn, Plan(fill={}, missed=(), on_time=on_time), now)

    def _finish_advance(
        self,
        folder: GameFolder,
        game_dir: Path,
        record: Record,
        save: Save,
        now: int,
        policy: TimingPolicy,
        post: Post,
    ) -> Record:
        """Apply the journalled missed-turn counts and start the new turn's clock (at the time
        the advance was planned, when the intent says), in memory only."""
        advancing = record.advancing or {}
        at = advancing.get("at")
        now = at if isinstance(at, int) and at <= now else now
        for name in advancing.get("on_time", ()):
            record = record.with_seat(name, record_turn(policy, record.seat(name), missed=False))
        for name in advancing.get("missed", ()):
            record = record.with_seat(name, record_turn(policy, record.seat(name), missed=True))
        filled = advancing.get("filled", {})
        note = f"; filled in: {', '.join(f'{n} ({h})' for n, h in filled.items())}" if filled else ""
        from_turn = advancing.get("from_turn")
        record = replace(record, advancing=None).logged(
            f"turn {from_turn} resolved{note}",
            at=now,
            kind="turn-resolved",
            turn=from_turn if isinstance(from_turn, int) else None,
        )
        record, played = tell_stand_ins(post, record, save, self.identity, advancing, now, policy)
        record = self._ensure_clock(game_dir, record, save, now)
        record = with_stood_in(record, played)
        return self._sync_statuses(folder, game_dir, record, save, now, policy, post)
