"""The moderator's group commit (issue 13): the order of its writes, syncs and removals, and
kills at the points the group commit added.

A pass over one game writes its answers, report links and notices without syncing each; a
barrier (one ``syncfs``) makes them durable.  What must hold, in the order the calls are
made (not only in what a kill leaves, since the order is what a power cut relies on):

* the intent record is synced before the engine's first write;
* every answer and report link is synced before the record that says it was given;
* no inbox file is removed before that record is written, after that barrier.

The kill tests stop a pass at each new point (each barrier, each put-off removal, the end
record) and restart it: the same outcome as an uninterrupted run, every file answered once.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import folder as engine_folder
from pbem.keys import Identity
from pbem.moderator import core, durable
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

from .faultkit import load_keys, outcome, prepare, script
from .modkit import Event, awaited, drop, new_game, order_block, read
from .modkit import watch_writes as _watch


def _first(events: list[Event], test: Callable[[Event], bool], start: int = 0) -> int:
    return next(i for i in range(start, len(events)) if test(events[i]))


def test_every_write_is_synced_before_what_depends_on_it(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(root, keys, "g1", home=root.parent / "create-home")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    [name] = awaited(game)
    drop(game, name, "junk.txt", "not an order\n", age=90)
    drop(game, name, "orders.txt", order_block(game, keys, name), age=80)
    events = _watch(monkeypatch)
    result = moderator.run_pass()
    assert result.advanced == 1 and result.files == 2, result
    records = [i for i, e in enumerate(events) if e == ("rename", "moderator/record.json")]
    assert len(records) == 2, events
    intent, end = records
    engine = _first(events, lambda e: e[0] == "rename" and e[1].startswith(("turn-0001/", "g1/save.json")))
    assert intent < _first(events, lambda e: e[0] == "sync", intent) < engine, events
    answers = [i for i, e in enumerate(events) if e[0] == "rename" and "/notice-turn-" in e[1]]
    links = [i for i, e in enumerate(events) if e[0] == "link" and e[1].startswith("report-turn-0002")]
    assert len(answers) == 2 and len(links) == len(read(game).names), events
    last_sync = max(i for i, e in enumerate(events[:end]) if e[0] == "sync")
    assert max(answers + links) < last_sync < end, "answers and links synced before the record says so"
    removals = [i for i, e in enumerate(events) if e[0] == "remove"]
    assert len(removals) == 2 and min(removals) > end, "no file leaves the inbox before its record"
    assert events[-1] == ("sync", "") or ("sync", "") in events[max(removals) :], "the pass ends synced"
    assert not list((game / "inbox" / name).iterdir())


def test_a_barrier_without_syncfs_fsyncs_each_file_and_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str] = []
    real_open = os.open
    opened: dict[int, str] = {}

    def fake_open(path: Any, flags: int, *args: Any) -> int:
        fd = real_open(path, flags, *args)
        opened[fd] = os.fspath(path)
        return fd

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(Path(opened[fd]).name))
    monkeypatch.setattr(durable, "USE_SYNCFS", False)
    (tmp_path / "a").mkdir()
    with durable.grouped() as group:
        durable.write_once(tmp_path / "a" / "one.txt", "1")
        durable.write_once(tmp_path / "a" / "two.txt", "2")
        durable.write_once(tmp_path / "a" / "one.txt", "again")  # exists: not written
        durable.remove(tmp_path / "a" / "one.txt", later=True)
        assert synced == [] and group.pending
        assert durable.barrier() and not durable.barrier(), "a second barrier has nothing to sync"
        assert sorted(synced) == ["a", "one.txt", "two.txt"]
        assert (tmp_path / "a" / "one.txt").read_text() == "1", "removal put off until finish"
        assert durable.finish() == 1
    assert not (tmp_path / "a" / "one.txt").exists()
    durable.remove(tmp_path / "a" / "two.txt", later=True)  # outside a group: at once
    assert not (tmp_path / "a" / "two.txt").exists()


def test_a_write_error_at_the_barrier_is_the_games_error_and_removes_nothing(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that reports a lost write at the barrier (syncfs fails with EIO): the game's
    pass stops there with an error, its inbox file stays, and the next pass answers it once."""
    game = new_game(root, keys, "g1", home=root.parent / "create-home")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    [name] = awaited(game)
    drop(game, name, "orders.txt", order_block(game, keys, name))
    calls: list[int] = []

    def failing(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:  # the end barrier: the answer and the links are not known durable
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(durable, "_syncfs", [failing])
    result = moderator.run_pass()
    assert result.games[0].error is not None and "Input/output error" in result.games[0].error
    assert (game / "inbox" / name / "orders.txt").exists()
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: None])
    again = moderator.run_pass(force=True)
    assert again.games[0].error is None and not (game / "inbox" / name / "orders.txt").exists()
    notices = sorted(p.name for p in (game / "players" / name).glob("notice-*"))
    assert len(notices) == 1, notices
    assert "ACCEPTED" in (game / "players" / name / notices[0]).read_text()


# ---- kills at the group commit's own points -------------------------------------------------

KILLS = [
    ("barrier", 1),  # alpha's intent barrier (the record synced)
    # alpha's end barrier (in a serial pass, the one shared with the pass's next barrier, see
    # test_shared_barrier.py): answers and links durable, the record not yet written
    ("barrier", 2),
    ("renamed record.json", 2),  # alpha's end record written, no file removed yet
    ("removed t1.txt", 1),  # the first put-off removal done, the others not
    ("removed t1-better.txt", 1),  # the last removal of the pass that resolved turn 1
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("group-base")
    keys = {name: Identity.generate(name) for name in ("moderator", "alice", "bob", "carol", "mallory")}
    prepare(folder / "root", keys, folder / "keys")
    return folder


def _quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: None])


def _run_until(root: Path, state: Path, keys: dict[str, Identity], label: str, nth: int) -> int:
    """Run the script in a child that dies at the ``nth`` step labelled ``label``."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            seen = [0]
            real = durable.step
            wanted = label

            def step(label: str = "") -> None:
                if label == wanted:
                    seen[0] += 1
                    if seen[0] == nth:
                        os._exit(durable.CRASH_EXIT)
                real(label)

            durable.step = step
            core.step = step
            engine_folder.set_crash_hook(step)
            script(root, state, keys)
        except BaseException:
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_killed_at_each_group_commit_point_and_restarted_ends_the_same(
    base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _quiet(monkeypatch)
    keys = load_keys(base / "keys")
    shutil.copytree(base / "root", tmp_path / "reference" / "root")
    script(tmp_path / "reference" / "root", tmp_path / "reference" / "state", keys)
    expected = outcome(tmp_path / "reference" / "root")
    for label, nth in KILLS:
        run = tmp_path / f"kill-{label.replace(' ', '-')}-{nth}"
        shutil.copytree(base / "root", run / "root")
        code = _run_until(run / "root", run / "state", keys, label, nth)
        assert code == durable.CRASH_EXIT, f"{label} #{nth}: the child should have died there (exit {code})"
        script(run / "root", run / "state", keys)
        assert outcome(run / "root") == expected, f"restart after a kill at {label} #{nth} ended elsewhere"
        shutil.rmtree(run)


def test_a_write_error_when_the_pass_syncs_is_reported_for_the_games_that_wrote(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(root, keys, "g1", home=root.parent / "create-home")
    new_game(root, keys, "g2", home=root.parent / "create-home")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    [name] = awaited(game)
    drop(game, name, "orders.txt", order_block(game, keys, name))
    calls: list[int] = []

    def failing(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 3:  # after g1's two barriers: the pass's own sync
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(durable, "_syncfs", [failing])
    result = moderator.run_pass(force=True)
    by_name = {g.game: g for g in result.games}
    assert by_name["g1"].error is not None and "synced its writes" in by_name["g1"].error
    assert by_name["g2"].error is None, "a game that wrote nothing is not blamed"
    assert read(game).turn == 2 and not (game / "inbox" / name / "orders.txt").exists()
