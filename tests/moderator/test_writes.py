"""How much a moderated turn writes: the record twice, the save once, report copies as links,
and the moderator's own writes made durable by two barriers a game (group commit).

Counted by wrapping the write functions, ``os.fsync`` for regular files and folders, and the
barrier's ``syncfs``, so a change that writes or syncs more per turn fails here, not only in
the benchmark.  The code before issue 13's work wrote the record five times in such a turn
(six on a game's first pass) and the save twice, and copied each report with a durable write
of its own; before the group commit the moderator fsynced each file it wrote and its folder
(the record twice, the notice, each report linked, each player's folder, the inbox: 7 file
and 8 folder fsyncs for three players), where it now makes two ``syncfs`` calls.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator import core, durable
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block, read


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts = {"record": 0, "file_fsync": 0, "dir_fsync": 0, "syncfs": 0}
    real_save = core.save_record

    def save_record(game_dir: Path, record: object, durable: bool = True) -> None:
        counts["record"] += 1
        real_save(game_dir, record, durable)  # type: ignore[arg-type]

    def fsync(fd: int) -> None:
        counts["file_fsync" if stat.S_ISREG(os.fstat(fd).st_mode) else "dir_fsync"] += 1

    def syncfs(fd: int) -> None:
        counts["syncfs"] += 1

    monkeypatch.setattr(core, "save_record", save_record)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(durable, "_syncfs", [syncfs])
    monkeypatch.setattr(durable, "USE_SYNCFS", True)
    return counts


def _turn(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, Moderator]:
    """A game whose turn-1 reports were handed out, with the awaited orders dropped."""
    game = new_game(root, keys, "g1", home=root.parent / "create-home")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    for name in awaited(game):
        drop(game, name, "orders.txt", order_block(game, keys, name))
    return game, moderator


def test_a_turn_with_all_orders_in_writes_the_record_twice_and_the_save_once(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, moderator = _turn(root, keys, clock)
    before = read(game)
    counts = _counting(monkeypatch)
    result = moderator.run_pass()
    after = read(game)
    assert result.advanced == 1 and after.turn == before.turn + 1
    assert after.revision == before.revision + 1, "one save: the file resolved its turn in the same write"
    assert counts["record"] == 2, "one intent write before the engine's, one at the end"
    # The moderator's own writes (record, notice, report links, the players' folders, the
    # inbox removal): one barrier with the intent, one before the end record; one more for
    # the whole pass (the root and the state folder share a file system here).
    assert counts["syncfs"] == 3, counts
    # What is left are the engine's own (order archive, save, history: at most 3 files and
    # 3 folders) and the local change index (1 and 1).
    assert counts["file_fsync"] <= 4 and counts["dir_fsync"] <= 4, counts


def test_without_syncfs_a_barrier_fsyncs_each_file_and_folder_once(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where there is no syncfs (or it is turned off), a barrier fsyncs what its group wrote,
    each file and each folder once, and the pass ends with one sync of every file system."""
    game, moderator = _turn(root, keys, clock)
    counts = _counting(monkeypatch)
    monkeypatch.setattr(durable, "USE_SYNCFS", False)
    syncs: list[int] = []
    monkeypatch.setattr(os, "sync", lambda: syncs.append(1))
    result = moderator.run_pass()
    assert result.advanced == 1 and counts["syncfs"] == 0 and syncs == [1]
    players = len(read(game).names)
    # intent barrier: the record; end barrier: the notice, each new report (then linked)
    # and the public report is not linked; engine 3 and the index 1.
    assert counts["file_fsync"] <= 1 + 1 + players + 3 + 1, counts


def test_a_pass_with_nothing_to_do_writes_nothing(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, moderator = _turn(root, keys, clock)
    moderator.run_pass()
    counts = _counting(monkeypatch)
    moderator.run_pass(force=True)
    assert counts["record"] == 0 and counts["file_fsync"] <= 1, counts  # at most the local index
    assert counts["syncfs"] == 0, counts
    assert read(game).turn == 2


def test_report_copies_are_hard_links_of_the_games_reports(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game, moderator = _turn(root, keys, clock)
    moderator.run_pass()
    save = read(game)
    for name in save.names:
        source = game / "reports" / f"turn-{save.turn:04d}" / f"{name}.txt"
        copy = game / "players" / name / f"report-turn-{save.turn:04d}.txt"
        assert os.path.samefile(source, copy), name
        assert copy.stat().st_nlink == 2


def test_report_copies_are_real_copies_where_links_fail(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, moderator = _turn(root, keys, clock)

    real_link = os.link

    def no_link(source: str, target: str, **kwargs: object) -> None:
        """A file system that cannot link into the players' folders (the engine's own
        links, in history/, still work)."""
        if "players" in Path(target).parts:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real_link(source, target, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", no_link)
    moderator.run_pass()
    save = read(game)
    for name in save.names:
        source = game / "reports" / f"turn-{save.turn:04d}" / f"{name}.txt"
        copy = game / "players" / name / f"report-turn-{save.turn:04d}.txt"
        assert not os.path.samefile(source, copy) and copy.read_bytes() == source.read_bytes()


def test_link_all_keeps_same_bytes_and_replaces_other_bytes(tmp_path: Path) -> None:
    source = tmp_path / "report.txt"
    source.write_text("signed report\n")
    (tmp_path / "a").mkdir()
    same, other, fresh = tmp_path / "a" / "same.txt", tmp_path / "a" / "other.txt", tmp_path / "a" / "new.txt"
    same.write_text("signed report\n")
    other.write_text("edited by the player\n")
    how = durable.link_all([(source, same), (source, other), (source, fresh)])
    assert how == ["present", "copied", "linked"]
    assert other.read_text() == "signed report\n" and not os.path.samefile(source, other)
    assert os.path.samefile(source, fresh)
    assert durable.link_all([(source, fresh)]) == ["present"], "delivering again changes nothing"


def test_a_turn_reads_the_save_no_more_than_it_must(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderated turn with its orders in reads the save once to begin, once in the engine's
    write, once after the turn resolved and once to look for more to do: the inbox file's own
    read and the notice's were the same save read again (six reads before)."""
    from pbem.engine import GameFolder

    game, moderator = _turn(root, keys, clock)
    reads: list[int] = []
    real = GameFolder.read

    def read_save(self: GameFolder, *args: object, **kwargs: object) -> object:
        reads.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    before = read(game)
    monkeypatch.setattr(GameFolder, "read", read_save)
    result = moderator.run_pass()
    assert len(reads) == 4, len(reads)
    assert result.advanced == 1 and result.games[0].notices == ("accepted",)
    assert read(game).turn == before.turn + 1
