"""Several processes for one moderator pass: ``pbem moderate ROOT --workers N``.

The parent looks at every game (a few ``stat`` calls each, as a serial pass does) and hands
only the games that need work to N worker processes; each worker handles a game exactly as
a serial pass would, under the game's own lock (``<game>/.pbem-lock``), so two workers, or
a worker and a person's ``pbem submit``, never write one game at once.  The parent alone
keeps the index of unchanged games.

Workers are forked from the parent (they inherit the moderator's key, which is never
pickled or written anywhere); a system without ``fork`` runs the pass in one process.  A
worker that dies (killed, out of memory) costs only the games it had: they are reported as
errors and looked at again on the next pass, and the pool is started afresh.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.moderator.core import GameResult, Moderator

MAX_WORKERS = 64
"""The most worker processes a pass starts (more only queue on the disk)."""

AUTO_CAP = 8
"""The most workers ``--workers auto`` picks (measured: more only queue on one disk)."""


def auto_workers(cores: int | None) -> int:
    """The number of workers ``--workers auto`` means on a host with ``cores`` processors
    (None: unknown): two a core, at most :data:`AUTO_CAP`.  A moderated turn waits on the
    disk for about half its time, so two processes a core keep the cores busy; more only
    add start-up, cold caches and contention for the disk (docs/scaling.md, *Workers*)."""
    return max(1, min(2 * (cores or 1), AUTO_CAP))


_moderator: Moderator | None = None
"""The moderator a forked worker works for (set in the worker, from the parent's memory)."""


def _adopt(moderator: Moderator) -> None:
    global _moderator
    _moderator = moderator


def _work(game_dir: Path, now: int) -> GameResult:
    assert _moderator is not None, "a worker runs only in a pool started by run_parallel"
    return _moderator.work(game_dir, now)


def can_fork() -> bool:
    """True where worker processes can be forked (Linux, macOS, the BSDs)."""
    return "fork" in multiprocessing.get_all_start_methods()


def run_parallel(
    moderator: Moderator, games: Sequence[Path], force: bool, workers: int
) -> tuple[GameResult, ...]:
    """One pass over ``games`` with up to ``workers`` processes; results in the order of
    ``games``.  Never raises for a game's problems (a dead worker is an error result)."""
    from pbem.moderator.core import GameResult

    looked = [(game, *moderator.look(game, force)) for game in games]
    todo = [(game, now) for game, _, now, skipped in looked if skipped is None]
    done: dict[Path, GameResult] = {}
    if len(todo) <= 1 or not can_fork():
        done = {game: moderator.work(game, now) for game, now in todo}
    else:
        count = max(1, min(workers, MAX_WORKERS, len(todo)))
        context = multiprocessing.get_context("fork")
        pool = ProcessPoolExecutor(count, mp_context=context, initializer=_adopt, initargs=(moderator,))
        try:
            futures: list[tuple[Path, Future[GameResult]]] = [
                (game, pool.submit(_work, game, now)) for game, now in todo
            ]
            for game, future in futures:
                try:
                    done[game] = future.result()
                except BrokenProcessPool:
                    done[game] = GameResult(game.name, error="a worker process died while handling this game")
                except Exception as exc:  # a result that could not come back: that game only
                    done[game] = GameResult(game.name, error=f"worker: {type(exc).__name__}: {exc}")
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    results = []
    for game, sig, _, skipped in looked:
        if skipped is not None:
            results.append(skipped)
            continue
        result = done[game]
        moderator.note(result, sig)
        results.append(result)
    return tuple(results)
