"""A serial moderator pass whose games share their barriers (issue 13).

A game's pass makes two barriers (one ``syncfs`` each): its intent record on disk before the
engine's first write, and its answers, report links and notices on disk before the end
record that says they were given (then the inbox removals).  Across the games of a pass
these are two ``syncfs`` calls a game.  Here a batch of up to :data:`BATCH` games is begun
(:meth:`pbem.moderator.core.Moderator.begin`: each game's lock taken, its work done up to
its intent record, written, not synced), then ONE barrier syncs the batch's intents, then
each game's work goes on in order (:meth:`~pbem.moderator.core.Moderator.complete`).  A
game's end (its end record, its removals and its lock) is put off with
:func:`pbem.moderator.durable.defer` until the next barrier, which is the next batch's (or
the pass's last): that one ``syncfs`` makes the ended games' answers and the new batch's
intents durable at once.  About two ``syncfs`` a batch instead of two a game.

What stays as it was, game by game: the intent is durable before the engine writes, nothing
is written that says an answer or a link was given before a barrier made it durable, no
inbox file is removed before that record, and the game's lock is held from its first read
to its end record (so no other writer sees the game between the two).  What changes: a
game's engine work waits for the batch's barrier, its end record and removals for the next
one, and its lock is held that much longer (at most :data:`BATCH` games' work more, or
:data:`MAX_WAIT_SECONDS`).  A barrier that fails is the error of every game it carried: a
game whose intent it carried stops before its engine write, a game whose end it carried
writes nothing more; either way its files stay in the inbox and the next pass answers them
once (as after a kill at that point).  The games' work stays in the order of the pass.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from pbem.engine import GameFolder
from pbem.errors import PbemError
from pbem.moderator import durable
from pbem.moderator.config import GameConfig
from pbem.moderator.durable import Group
from pbem.moderator.post import Post
from pbem.moderator.record import Record
from pbem.moderator.results import GameResult
from pbem.moderator.scan import InboxFile
from pbem.save import Save

if TYPE_CHECKING:
    from pbem.moderator.core import Moderator

BATCH = 8
"""The most games whose intents one barrier syncs (each holds its lock meanwhile): the
``syncfs`` calls of a pass fall about eightfold, a lock is held at most about eight games'
work (some 60 ms) longer."""

MAX_WAITING = 2 * BATCH
"""The most games whose end may wait for a barrier at once (each holds its lock meanwhile):
a batch's games end at the next batch's barrier."""

MAX_WAIT_SECONDS = 0.5
"""How long the first game of a batch, or the first put-off end, may wait before the pass
makes a barrier for it (a slow game must not keep the others' locks)."""


class Prepared(NamedTuple):
    """What a game's work needs after its intent record (see :meth:`Moderator.begin`);
    ``before`` is the journal as the pass found it, ``resume`` the entries a stopped pass took
    (with the turn it took them in), ``on_disk`` the record as its file holds it."""

    folder: GameFolder
    now: int
    save: Save
    config: GameConfig
    post: Post
    record: Record
    before: tuple[str | dict[str, Any], ...]
    files: list[InboxFile]
    ids: list[str]
    settling: bool
    arriving: int | None
    """The game time at which the earliest inbox file still settling last changed (None:
    none is): such a file, there before a deadline, holds that deadline until it settles."""
    resume: tuple[frozenset[str], int | None]
    on_disk: Record


@dataclass(frozen=True)
class Begun:
    """A game between the two parts of its work: its lock held, its writes in ``group``."""

    prepared: Prepared
    group: Group
    held: contextlib.ExitStack


T = TypeVar("T")


def guarded(game: str, work: Callable[[], T]) -> T | GameResult:
    """``work()``, or the game's error result for anything it raises: a bug or a broken disk
    in one game must not stop the others."""
    try:
        return work()
    except PbemError as exc:
        return GameResult(game, error=str(exc))
    except Exception as exc:
        return GameResult(game, error=f"{type(exc).__name__}: {exc}")


def ending(
    game: str, write: Callable[[], None] | None, held: contextlib.ExitStack, late: dict[str, str]
) -> durable.End:
    """The put-off end of ``game``'s pass (see :func:`pbem.moderator.durable.defer`): after
    a barrier, ``write`` its end record (None: the file holds it already) and make its
    removals; after a failed barrier, nothing.  Either way let go of ``held`` (the game's
    lock).  A failure is noted in ``late`` under the game's name; never raises."""
    held = held.pop_all()  # the caller's ``with`` no longer releases the lock

    def end(failure: OSError | None) -> None:
        try:
            if failure is not None:
                late[game] = (
                    f"the disk reported an error when the pass synced this game's answers: {failure}; "
                    "the files it took stay in the inbox for the next pass"
                )
                return
            if write is not None:
                write()
            durable.finish()
        except Exception as exc:  # one game's broken disk must not stop the others
            late[game] = f"{type(exc).__name__}: {exc}"
        finally:
            held.close()

    return end


def run_serial(moderator: Moderator, games: Sequence[Path], force: bool) -> tuple[GameResult, ...]:
    """One pass over ``games`` in this process: the intents of up to :data:`BATCH` games
    synced by one barrier, which also ends the games of the batch before; results in the
    order of ``games``, each with the error its put-off end met.  Every game's end is
    written (or abandoned, with an exception) before this returns."""
    late: dict[str, str] = {}
    moderator.late = late
    run = _Serial(moderator)
    try:
        for game in games:
            sig, now, skipped = moderator.look(game, force)
            if skipped is not None:
                run.looked.append([skipped, None])
                continue
            run.begin(game, now, sig)
            run.bound()
        run.complete_batch()
        _flush()
    except BaseException as exc:
        for _, begun in run.batch:
            begun.held.close()  # intents not known durable: as a kill before the engine wrote
        durable.abandon(OSError(f"the pass stopped ({type(exc).__name__})"))
        raise
    finally:
        moderator.late = None
    results = []
    for result, seen in run.looked:
        assert result is not None, "every begun game was completed or dropped"
        if result.game in late:
            result = replace(result, error=result.error or late[result.game])
        if seen is not None:
            moderator.note(result, seen)
        results.append(result)
    return tuple(results)


class _Serial:
    """The state of :func:`run_serial`: the results so far (None for a begun game) with the
    signatures looked at, the begun games whose intents wait for the batch's barrier, and
    since when the oldest of them, and the oldest put-off end, wait."""

    def __init__(self, moderator: Moderator) -> None:
        self.moderator = moderator
        self.looked: list[list[Any]] = []
        self.batch: list[tuple[int, Begun]] = []
        self.batch_since = 0.0
        self.ends_since: float | None = None

    def clock(self) -> float:
        """Seconds, from the moderator's own clock of real time (``real_ns``, passed in)."""
        return self.moderator.real_ns() / 1e9

    def begin(self, game: Path, now: int, sig: list[int]) -> None:
        """Begin a game and add it to the batch.  A game with no inbox files taken has no
        intent to wait for, but waits too: the games' work stays in the order of the pass
        (as in a pass that does one game after the other)."""
        begun = self.moderator.begin(game, now)
        self.looked.append([None, sig])
        if isinstance(begun, GameResult):
            self.looked[-1][0] = begun
            return
        if not self.batch:
            self.batch_since = self.clock()
        self.batch.append((len(self.looked) - 1, begun))

    def complete(self, begun: Begun) -> GameResult:
        rounds = durable.ended_rounds()
        result = self.moderator.complete(begun)
        if durable.waiting() == 0:
            self.ends_since = None
        elif self.ends_since is None or durable.ended_rounds() != rounds:  # the oldest is this one
            self.ends_since = self.clock()
        return result

    def complete_batch(self) -> None:
        """One barrier for the batch's intents (and the ends waiting), then the rest of each
        game's work; a barrier that fails is the error of every game of the batch."""
        if not self.batch:
            return
        batch, self.batch = self.batch, []
        try:
            durable.flush([begun.group for _, begun in batch])
        except OSError as exc:
            problem = f"the disk reported an error when the pass synced its intent record: {exc}"
            for index, begun in batch:
                self.looked[index][0] = self.moderator.drop(begun, problem)
            return
        for index, begun in batch:
            self.looked[index][0] = self.complete(begun)

    def bound(self) -> None:
        """Keep locks from piling up: the batch goes on when it is full or its first game
        waited too long; the put-off ends get a barrier of their own likewise."""
        if len(self.batch) >= BATCH or (self.batch and self.clock() - self.batch_since > MAX_WAIT_SECONDS):
            self.complete_batch()
        waiting = durable.waiting()
        if waiting >= MAX_WAITING or (
            waiting and self.ends_since is not None and self.clock() - self.ends_since > MAX_WAIT_SECONDS
        ):
            _flush()
            self.ends_since = None


def _flush() -> None:
    """End the waiting games after one barrier; a disk error there is their error (each
    end notes it), not the pass's."""
    with contextlib.suppress(OSError):
        durable.flush()
