"""A serial pass shares its barriers between games (pbem/moderator/pipeline.py, issue 13):
one barrier syncs the intents of a batch of games and ends the batch before.

What must hold for every game of such a pass, in the order the calls are made: the intent
record is synced before the game's engine write; every answer and report link is synced
before the end record that says it was given; no inbox file leaves before that record; the
game's lock is held until its end record is written.  A barrier that fails ends the games
waiting for it with the error: nothing is written for them, their files stay in the inbox,
and the next pass answers each file once; a batch barrier that fails stops its games before
their engine writes.  The code before the shared barriers made two ``syncfs`` calls a game
(and one for the pass); a pass over N games now makes one a batch of eight, and two more.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pbem.integrity import FolderLock
from pbem.keys import Identity
from pbem.moderator import durable, pipeline
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

from .modkit import Event, awaited, drop, new_game, order_block, read, watch_writes

GAMES = ("g1", "g2", "g3")


def _games_with_orders(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> tuple[list[Path], Moderator, dict[Path, str]]:
    """Three games whose turn-1 reports were handed out, each with its awaited orders dropped
    (and one junk file, so each game answers twice); the player each game awaited."""
    games = [new_game(root, keys, name, home=root.parent / "create-home") for name in GAMES]
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    names = {}
    for game in games:
        [name] = awaited(game)
        drop(game, name, "junk.txt", "not an order\n", age=90)
        drop(game, name, "orders.txt", order_block(game, keys, name), age=80)
        names[game] = name
    return games, moderator, names


def _watch(monkeypatch: pytest.MonkeyPatch, on_rename: Any = None) -> list[Event]:
    """Log renames, links and inbox removals (each with its game's folder name), and syncs."""
    return watch_writes(
        monkeypatch, lambda path: next((p for p in path.parts if p in GAMES), "?") + ":", on_rename
    )


def _indexes(events: list[Event], kind: str, game: str, test: Any = lambda name: True) -> list[int]:
    return [
        i for i, (k, what) in enumerate(events) if k == kind and what.startswith(f"{game}:") and test(what)
    ]


def test_each_game_keeps_its_order_with_one_barrier_a_batch(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    games, moderator, _ = _games_with_orders(root, keys, clock)
    held_at_next_intent: dict[str, bool] = {}

    def on_rename(path: Path) -> None:
        """When a game's intent is renamed in, is the game before it still locked?"""
        if path.name == "record.json" and path.parent.parent.name in GAMES[1:]:
            index = GAMES.index(path.parent.parent.name)
            before = root / GAMES[index - 1]
            with FolderLock(before).hold(0) as mine:
                held_at_next_intent.setdefault(before.name, not mine)

    events = _watch(monkeypatch, on_rename)
    result = moderator.run_pass()
    assert result.advanced == len(GAMES) and result.files == 2 * len(GAMES), result
    assert all(g.error is None for g in result.games), result
    syncs = [i for i, e in enumerate(events) if e[0] == "sync"]
    # one barrier for the batch's intents, one that ends the batch's games, one for the pass:
    # the code before made two a game and one for the pass
    assert len(syncs) == 3 < 2 * len(GAMES) + 1, events
    for game in GAMES:
        intent, end = _indexes(events, "rename", game, lambda w: w.endswith("moderator/record.json"))
        engine = min(_indexes(events, "rename", game, lambda w: "save.json" in w or "turn-0002/" in w))
        assert any(intent < s < engine for s in syncs), f"{game}: intent synced before the engine wrote"
        given = _indexes(events, "rename", game, lambda w: "/notice-turn-" in w)
        given += _indexes(events, "link", game, lambda w: "report-turn-0002" in w)
        assert len(given) == 2 + len(read(root / game).names), events
        assert any(max(given) < s < end for s in syncs), f"{game}: answers and links synced before the record"
        removals = _indexes(events, "remove", game)
        assert len(removals) == 2 and min(removals) > end, f"{game}: no file leaves before its record"
    assert held_at_next_intent == {"g1": True, "g2": True}, "a game's lock is held until its end record"
    last_removal = max(i for i, e in enumerate(events) if e[0] == "remove")
    assert syncs[-1] > last_removal, "the pass ends synced"
    for game_dir in games:
        assert read(game_dir).turn == 2 and not any((game_dir / "inbox").rglob("*.txt"))
        assert not FolderLock(game_dir).held
        with FolderLock(game_dir).hold(0) as mine:
            assert mine, "every lock is let go by the end of the pass"


@pytest.mark.parametrize(
    ("batch", "failing", "turns"),
    [
        (8, 1, {"g1": 1, "g2": 1, "g3": 1}),  # the batch's intents: no engine write follows
        (8, 2, {"g1": 2, "g2": 2, "g3": 2}),  # the one that ends the batch: all resolved
        (1, 2, {"g1": 2, "g2": 1, "g3": 2}),  # g2's intent barrier, which carries g1's end
    ],
)
def test_a_failed_shared_barrier_is_the_error_of_every_game_it_carried(
    root: Path,
    keys: dict[str, Identity],
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    batch: int,
    failing: int,
    turns: dict[str, int],
) -> None:
    """A barrier that fails (EIO) is the error of every game it carried: a game whose intent
    it carried stops before the engine writes; a game whose end it carried (already
    resolved) writes nothing that says its answers were given.  Their files stay in the
    inbox, games it did not carry are untouched by it, and the next pass answers each file
    once."""
    monkeypatch.setattr(pipeline, "BATCH", batch)
    games, moderator, names = _games_with_orders(root, keys, clock)
    calls: list[int] = []

    def sync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == failing:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(durable, "_syncfs", [sync])
    result = moderator.run_pass()
    errors = {g.game: g.error for g in result.games}
    carried = {"g1", "g2", "g3"} if batch == 8 else {"g1", "g2"}
    for game in games:
        error = errors[game.name]
        if game.name in carried:
            assert error is not None and "Input/output error" in error, errors
            assert sorted(p.name for p in (game / "inbox" / names[game]).iterdir()) == [
                "junk.txt",
                "orders.txt",
            ]
        else:
            assert error is None and not list((game / "inbox" / names[game]).iterdir()), errors
        assert read(game).turn == turns[game.name], game.name
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: None])
    again = moderator.run_pass(force=True)
    assert all(g.error is None for g in again.games), again
    for game in games:
        name = names[game]
        assert read(game).turn == 2 and not list((game / "inbox" / name).iterdir())
        notices = sorted((game / "players" / name).glob("notice-*"))
        kinds = sorted("ACCEPTED" in p.read_text() for p in notices)
        assert kinds == [False, True], f"{game.name}: each file answered once: {notices}"


def test_waiting_games_are_bounded(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games wait in batches of BATCH for their intents, and at most MAX_WAITING of them for
    their ends: never more locks held at once; every game still ends, in order."""
    monkeypatch.setattr(pipeline, "MAX_WAITING", 2)
    monkeypatch.setattr(pipeline, "BATCH", 2)
    peak = {"ends": 0, "locks": 0}
    real_defer, real_begin = durable.defer, Moderator.begin

    def defer(end: durable.End) -> None:
        real_defer(end)
        peak["ends"] = max(peak["ends"], durable.waiting())

    def begin(self: Moderator, game_dir: Path, now: int, batched: bool = True) -> Any:
        locked = 0
        for other in GAMES:  # who holds a lock when a game begins
            with FolderLock(root / other).hold(0) as mine:
                locked += not mine
        peak["locks"] = max(peak["locks"], locked)
        return real_begin(self, game_dir, now, batched)

    monkeypatch.setattr("pbem.moderator.core.defer", defer)
    monkeypatch.setattr(Moderator, "begin", begin)
    games, moderator, _ = _games_with_orders(root, keys, clock)
    peak.update(ends=0, locks=0)
    result = moderator.run_pass()
    assert all(g.error is None for g in result.games) and result.advanced == len(GAMES), result
    assert 1 <= peak["ends"] <= 2 and durable.waiting() == 0, peak
    assert 1 <= peak["locks"] <= 2, peak
    for game in games:
        assert read(game).turn == 2 and not any((game / "inbox").rglob("*.txt"))


def test_a_waiting_group_ends_once_after_a_barrier_that_synced_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without syncfs (one fsync a file and a folder), the next group's barrier fsyncs the
    waiting group's files too before that group's end runs; a group with nothing to sync ends
    at once; ``abandon`` ends what waits with the error, unsynced."""
    synced: list[str] = []
    opened: dict[int, str] = {}
    real_open = os.open

    def fake_open(path: Any, flags: int, *args: Any) -> int:
        fd = real_open(path, flags, *args)
        opened[fd] = Path(path).name
        return fd

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(opened[fd]))
    monkeypatch.setattr(durable, "USE_SYNCFS", False)
    ends: list[tuple[object, ...]] = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    with durable.grouped():
        durable.write_once(tmp_path / "a" / "answer.txt", "1")
        durable.remove(tmp_path / "a" / "answer.txt", later=True)
        durable.defer(lambda failure: ends.append(("a", failure, durable.finish())))
    with durable.grouped():
        durable.defer(lambda failure: ends.append(("empty", failure)))
        assert ends == [("empty", None)] and durable.waiting() == 1, "nothing to sync: ended at once"
        durable.write_once(tmp_path / "b" / "intent.txt", "2")
        assert synced == [] and ends == [("empty", None)]
        assert durable.barrier()
        assert sorted(synced) == ["a", "answer.txt", "b", "intent.txt"], synced
        assert ends == [("empty", None), ("a", None, 1)], "a's end ran once, its removal made"
        assert durable.waiting() == 0 and not durable.barrier()
        durable.write_once(tmp_path / "b" / "answer.txt", "3")
        durable.defer(lambda failure: ends.append(("b", failure)))
    durable.abandon(OSError("stopped"))
    assert ends[-1][0] == "b" and isinstance(ends[-1][1], OSError) and durable.waiting() == 0


def test_a_game_waits_no_longer_than_the_time_bound(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no time to wait, each game's end gets a barrier right after its work (two a game,
    as before the shared barrier): the bound on how long a lock is held past a game's work."""
    monkeypatch.setattr(pipeline, "MAX_WAIT_SECONDS", 0.0)
    games, moderator, _ = _games_with_orders(root, keys, clock)
    events = _watch(monkeypatch)
    result = moderator.run_pass()
    assert all(g.error is None for g in result.games) and result.advanced == len(GAMES), result
    syncs = [i for i, e in enumerate(events) if e[0] == "sync"]
    assert len(syncs) == 2 * len(GAMES) + 1, events
    for game in GAMES[:-1]:
        end = _indexes(events, "rename", game, lambda w: w.endswith("moderator/record.json"))[-1]
        following = GAMES[GAMES.index(game) + 1]
        first_of_next = min(i for i, (_, what) in enumerate(events) if what.startswith(f"{following}:"))
        assert end < first_of_next, f"{game} ended before {following} began"
    assert all(read(game).turn == 2 for game in games)
