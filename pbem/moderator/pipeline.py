"""A serial moderator pass whose games share their barriers (issue 13).

A game's pass ends with a barrier (one ``syncfs``: its answers, report links and notices on
disk), then the record that says they were given, then the inbox removals.  A game whose
files are taken starts with a barrier too (its intent record on disk before the engine's
first write).  In a pass over many games those are two ``syncfs`` calls a game, back to back
across games: the end of one and the intent of the next.  Here they are one: a game's end
(its end record, its removals and its lock) is put off with
:func:`pbem.moderator.durable.defer` until the next barrier, which syncs the writes of both
games; then the first game's end is written and its lock let go.

What stays as it was, game by game: nothing is written that says an answer or a link was
given before a barrier made it durable, no inbox file is removed before that record, the
intent is durable before the engine writes, and the game's lock is held from its first read
to its end record (so no other writer sees the game between the two).  What changes: a
game's end record and removals come later (at the next game's first barrier, at most
:data:`MAX_WAITING` games or :data:`MAX_WAIT_SECONDS` later, or at the end of the pass), and
its lock is held that much longer.  A barrier that fails ends every waiting game with the
error: their ends write nothing, their files stay in the inbox and the next pass answers
them once (as after a kill before the end record), and their results carry the error.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.moderator import durable
from pbem.moderator.results import GameResult

if TYPE_CHECKING:
    from pbem.moderator.core import Moderator

MAX_WAITING = 8
"""The most games whose end may wait for a barrier at once (each holds its lock meanwhile)."""

MAX_WAIT_SECONDS = 0.5
"""How long the first waiting game's end may wait before the pass makes a barrier for it."""


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
    """One pass over ``games`` in this process, each game's end sharing the next barrier;
    results in the order of ``games``, each with the error its put-off end met.  Every
    game's end is written (or abandoned, with an exception) before this returns."""
    late: dict[str, str] = {}
    moderator.late = late
    looked: list[tuple[GameResult, list[int] | None]] = []
    since: float | None = None
    try:
        for game in games:
            sig, now, skipped = moderator.look(game, force)
            if skipped is not None:
                looked.append((skipped, None))
                continue
            rounds = durable.ended_rounds()
            looked.append((moderator.work(game, now), sig))
            count = durable.waiting()
            if count == 0:
                since = None
            elif since is None or durable.ended_rounds() != rounds:  # the oldest waiting is this game
                since = time.monotonic()
            if count >= MAX_WAITING or (since is not None and time.monotonic() - since > MAX_WAIT_SECONDS):
                _flush()
                since = None
        _flush()
    except BaseException as exc:
        durable.abandon(OSError(f"the pass stopped ({type(exc).__name__})"))
        raise
    finally:
        moderator.late = None
    results = []
    for result, seen in looked:
        if result.game in late:
            result = replace(result, error=result.error or late[result.game])
        if seen is not None:
            moderator.note(result, seen)
        results.append(result)
    return tuple(results)


def _flush() -> None:
    """End the waiting games after one barrier; a disk error there is their error (each
    end notes it), not the pass's."""
    with contextlib.suppress(OSError):
        durable.flush()
