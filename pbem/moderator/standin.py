"""Telling players about the stand-in, and letting it finish a go it began.

When a seat sends no orders in time, the timing policy's stand-in (the game's default
orders or a bot) plays it.  The player is told (a notice with the orders played, encrypted
to them, and a line in every report of the turn: "played by the stand-in"); when the seat is
marked abandoned, they are told once.  A silent seat costs one deadline per go: when a game
asks the same seat again to finish a go the stand-in began (Symbiote after ``draw`` alone;
the game's optional ``mid_turn(view)`` hook says so), the stand-in plays the rest at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from pbem.engine import Loaded
from pbem.keys import Identity
from pbem.moderator.notices import abandoned_notice, describe_stand_in, stand_in_notice
from pbem.moderator.post import Post
from pbem.moderator.record import Record, iso_time
from pbem.save import Save
from pbem.timing import Missing, TimingPolicy


def continuing(loaded: Loaded, seats: Iterable[int]) -> set[int]:
    """The seats among ``seats`` that the game asks again to finish a go they began (its
    optional ``mid_turn`` hook; a game without one never continues a go).  A hook that
    fails counts as "no": the seat then simply gets a deadline of its own."""
    hook = getattr(loaded.game, "mid_turn", None)
    if not callable(hook):
        return set()
    out = set()
    for seat in seats:
        try:
            if hook(loaded.view(seat)):
                out.add(seat)
        except Exception:  # a game's optional hook: never a reason to stop the moderator
            continue
    return out


def descriptions(how: Mapping[int, Missing]) -> dict[int, str]:
    """Who played each filled seat, in words for the reports ("the greedy bot")."""
    return {seat: describe_stand_in(str(stand)) for seat, stand in how.items()}


def tell_stand_ins(
    post: Post,
    record: Record,
    save: Save,
    moderator: Identity,
    advancing: Mapping[str, object],
    now: int,
    policy: TimingPolicy,
) -> tuple[Record, tuple[str, ...]]:
    """After an advance: a notice to every active player the stand-in played for (the orders
    it played encrypted to them), and a journal entry each.  ``save`` is the game after the
    advance; ``advancing`` the journalled intent (``from_turn``, ``filled`` policies by name,
    ``played`` order lines by name).  Returns the record and the (lower-case) names played.
    Idempotent: the notice's file name is fixed by turn and player."""
    turn = advancing.get("from_turn")
    filled = advancing.get("filled")
    played = advancing.get("played")
    if not isinstance(turn, int) or not isinstance(played, dict) or not isinstance(filled, dict):
        return record, ()
    names: list[str] = []
    for name, lines in sorted(played.items()):
        seat = save.seat_of(name)
        if seat is None or not isinstance(lines, list):
            continue
        stand = str(filled.get(name, "default"))
        rest = name.lower() in record.stood_in
        notice = stand_in_notice(
            save.game_id,
            turn,
            iso_time(now),
            name,
            stand,
            [str(line) for line in lines],
            record.seat(name).missed_total,
            policy.abandon_after,
            rest=rest,
        )
        post.put(
            save.names[seat],
            f"stand-in-turn-{turn:04d}.txt",
            notice.render([save.players[seat], moderator.public()], moderator),
            notice.subject,
        )
        what = "finished the go" if rest else "played"
        record = record.logged(
            f"stand-in {what} for {name} ({stand})", at=now, kind="stand-in", turn=turn, player=name
        )
        names.append(name.lower())
    return record, tuple(names)


def tell_abandoned(
    post: Post,
    game_dir: Path,
    save: Save,
    name: str,
    now: int,
    policy: TimingPolicy,
    record: Record,
    signer: Identity | None = None,
) -> None:
    """Tell ``name`` their seat is marked abandoned (before the save says so: a crash in
    between tells them again under the same file name, which changes nothing)."""
    seat = save.seat_of(name)
    if seat is None:
        return
    seat_record = record.seat(name)
    missed = seat_record.missed_streak if policy.abandon_count == "consecutive" else seat_record.missed_total
    notice = abandoned_notice(
        save.game_id, save.turn, iso_time(now), str(policy.on_abandoned), missed, policy.abandon_count
    )
    text = notice.render(signer=signer)
    post.put(save.names[seat], f"abandoned-turn-{save.turn:04d}.txt", text, notice.subject)


def with_stood_in(record: Record, names: Sequence[str]) -> Record:
    """The record remembering the seats the stand-in played in the turn just resolved."""
    return replace(record, stood_in=tuple(names))
