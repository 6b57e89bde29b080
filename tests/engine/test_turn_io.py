"""The file system side of a turn (issue 13, the disk row): the save's commit in three barriers,
the history file whose folder the next commit syncs, the writeback hint, the seen record
written in place.

* A kill at every crash point of a one-save turn leaves a game that loads, with no stray
  file, and the same file sent again is accepted or already accepted.
* A power cut that loses the newest history file's name (simulated: the file unlinked)
  leaves the save one revision ahead of history: every reader accepts it, the archive's
  history walk includes the save, and the next commit creates the file in its own barrier.
* The folder fsync of ``history/`` comes before every save rename (the previous commit's
  history file is on disk before the save that follows it).
* The writeback hint missing or failing changes nothing; an fsync that fails stops the
  commit before the save is renamed.
* The seen record: written in place (no rename), and a torn, garbled, zero-filled or mixed
  record reads as no record (never a traceback), including random bytes (hypothesis).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import folder as folder_module
from pbem import integrity
from pbem.archive.rebuild import history
from pbem.engine import GameFolder
from pbem.errors import ConflictError, ReplayError, RollbackError
from pbem.folder import TEMP_PREFIX, set_crash_hook, stage_file, sync_files
from pbem.integrity import history_path
from pbem.save import read_save
from pbem.seen import SeenRecord, decode_seen, encode_seen

from .conftest import Table

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 150


class Crash(Exception):
    """Stands for the process being killed at a step of a write."""


def _next_text(table: Table) -> str:
    name = table.awaited()
    seq = table.folder.read().body["seq"][name] + 1
    return table.sealed(table.signed(name, table.bot_lines(name), seq=seq))


def _submit_advance(table: Table, folder: GameFolder, text: str) -> None:
    folder.submit(text, table.moderator, source="o.txt", now=table.tick(), advance=True)


def _steps(table: Table, text: str) -> list[str]:
    """The crash points of one one-save turn, on a copy of the table's game."""
    steps: list[str] = []
    copy = table.copy_to(table.folder.path.parent / "count", table.home.parent / "count-home")
    set_crash_hook(steps.append)
    try:
        _submit_advance(table, copy, text)
    finally:
        set_crash_hook(None)
    return steps


def test_a_kill_at_each_step_of_a_one_save_turn_leaves_a_game_that_goes_on(
    table: Table, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = _next_text(table)
    steps = _steps(table, text)
    # written x3 (order copy, save, history file), synced (files), renamed (order copy),
    # synced (folders), renamed (save), synced (game folder), renamed (history), then reports
    assert steps[:9] == ["written"] * 3 + ["synced", "renamed", "synced", "renamed", "synced", "renamed"]
    pristine = tmp_path_factory.mktemp("pristine")
    shutil.copytree(table.folder.path, pristine / "game")
    shutil.copytree(table.home, pristine / "home")
    outcomes = set()
    for k in range(9):
        root = tmp_path_factory.mktemp(f"kill-{k}")
        shutil.copytree(pristine, root, dirs_exist_ok=True)
        folder = GameFolder(root / "game", root / "home")
        before = folder.read()
        calls = [0]

        def hook(step: str, k: int = k, calls: list[int] = calls) -> None:
            calls[0] += 1
            if calls[0] == k + 1:
                raise Crash(step)

        set_crash_hook(hook)
        try:
            with pytest.raises(Crash):
                _submit_advance(table, folder, text)
        finally:
            set_crash_hook(None)
        assert not list(folder.path.rglob(f"{TEMP_PREFIX}*")), k
        after = folder.load(table.moderator).save  # loads: never a forked or rolled-back save
        assert after.revision in (before.revision, before.revision + 1)
        # Killed after the rename, before the link (k = 6, 7): history lags one revision.
        assert history_path(folder.path, after.revision).exists() == (k not in (6, 7))
        if after.revision == before.revision:  # not saved: the same file is simply accepted
            _submit_advance(table, folder, text)
            outcomes.add("accepted on retry")
        else:  # saved and resolved: the file is from an old turn now; the reports come again
            with pytest.raises(ReplayError, match="old order file"):
                _submit_advance(table, folder, text)
            outcomes.add("old turn")
            assert folder.missing_files(after)
            folder.republish(table.moderator)
            assert not folder.missing_files(after)
        assert folder.read().revision == before.revision + 1
        assert history_path(folder.path, before.revision + 1).exists()
        assert len(list(folder.orders_dir(before.turn).iterdir())) == 1
    assert outcomes == {"accepted on retry", "old turn"}


def test_a_power_cut_that_loses_the_newest_history_file_leaves_a_game_that_goes_on(table: Table) -> None:
    for _ in range(2):
        _submit_advance(table, table.folder, _next_text(table))
    save = table.folder.read()
    newest = history_path(table.folder.path, save.revision)
    os.unlink(newest)  # the name a power cut can lose: its folder is synced by the next commit
    other = GameFolder(table.folder.path, table.home)
    assert other.read().digest == save.digest  # a reader without the lock accepts it
    assert [s.revision for s in history(table.folder.path, save)] == list(range(save.revision + 1))
    assert not newest.exists()
    _submit_advance(table, other, _next_text(table))  # the next writer completes history first
    assert read_save(newest.read_bytes(), str(newest)).digest == save.digest
    assert history_path(table.folder.path, save.revision + 1).exists()


def test_the_next_commit_creates_a_missing_history_file_in_its_own_barrier(table: Table) -> None:
    _submit_advance(table, table.folder, _next_text(table))
    previous = table.folder.read()
    data = table.folder.save_path.read_bytes()
    newest = history_path(table.folder.path, previous.revision)
    os.unlink(newest)
    text = _next_text(table)
    real = integrity.check_history
    calls: list[str] = []

    def no_repair(*args: object) -> bool:  # leave the gap to the commit itself
        real(*args)  # type: ignore[arg-type]
        return False

    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        calls.append(f"replace {os.path.basename(dst)} (history kept: {newest.exists()})")
        real_replace(src, dst)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pbem.engine.check_history", no_repair)
        patch.setattr(os, "replace", replace)
        _submit_advance(table, table.folder, text)
    assert calls == ["replace save.json (history kept: True)"]
    assert newest.read_bytes() == data


def test_history_folder_is_synced_before_the_save_is_renamed(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    log: list[str] = []
    real_dir, real_replace = integrity.fsync_dir, os.replace

    def logged_sync(p: str | os.PathLike[str]) -> None:
        log.append(f"sync {Path(p).name}")
        real_dir(p)

    def logged_replace(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> None:
        log.append(f"rename {Path(b).name}")
        real_replace(a, b)

    monkeypatch.setattr(integrity, "fsync_dir", logged_sync)
    monkeypatch.setattr(os, "replace", logged_replace)
    _submit_advance(table, table.folder, _next_text(table))
    save = table.folder.read()
    game = table.folder.path.name
    assert log == ["sync history", "sync turn-0001", "rename save.json", f"sync {game}"]
    log.clear()
    _submit_advance(table, table.folder, _next_text(table))
    assert log == ["sync history", f"sync turn-{save.turn:04d}", "rename save.json", f"sync {game}"]


@pytest.mark.parametrize("hint", ["missing", "failing", "raising"])
def test_the_writeback_hint_missing_or_failing_changes_nothing(
    table: Table, monkeypatch: pytest.MonkeyPatch, hint: str
) -> None:
    def failing(fd: int) -> int:
        return -1

    def raising(fd: int) -> int:
        raise OSError(22, "Invalid argument")

    chosen = {"missing": None, "failing": failing, "raising": raising}[hint]
    monkeypatch.setattr(folder_module, "_writeback_hint", lambda: chosen)
    before = table.folder.read().revision
    _submit_advance(table, table.folder, _next_text(table))
    assert table.folder.read().revision == before + 1
    assert history_path(table.folder.path, before + 1).exists()


def test_the_writeback_hint_is_given_before_the_fsyncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log: list[str] = []

    def hint(fd: int) -> int:
        log.append("hint")
        return 0

    monkeypatch.setattr(folder_module, "_writeback_hint", lambda: hint)
    real = os.fsync

    def logged_fsync(fd: int) -> None:
        log.append("fsync")
        real(fd)

    monkeypatch.setattr(os, "fsync", logged_fsync)
    staged = [stage_file(tmp_path / f"f{i}", b"x" * 100) for i in range(3)]
    try:
        sync_files([p.fd for p in staged])
    finally:
        for p in staged:
            p.close()
    assert log == ["hint"] * 3 + ["fsync"] * 3
    assert not list(tmp_path.iterdir())  # never named: nothing left


def test_a_failing_fsync_stops_the_commit_before_the_rename(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = table.save_bytes
    text = _next_text(table)

    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="Input/output"):
        _submit_advance(table, table.folder, text)
    monkeypatch.undo()
    assert table.save_bytes == before
    assert not list(table.folder.path.rglob(f"{TEMP_PREFIX}*"))
    save = table.folder.read()
    assert not list(table.folder.orders_dir(save.turn).glob("*.txt"))  # not accepted: no copy
    _submit_advance(table, table.folder, text)  # and the same file is taken afterwards
    assert table.folder.read().revision == save.revision + 1


def test_a_taken_history_name_with_other_bytes_is_a_conflict_and_the_save_stays(table: Table) -> None:
    save = table.folder.read()
    data = table.save_bytes
    history_path(table.folder.path, save.revision + 1).write_bytes(b"{}\n")
    with pytest.raises(ConflictError, match="already in history"):
        integrity.commit(table.folder.path, save, data + b" ", save.revision + 1)
    assert table.save_bytes == data


def test_an_order_copy_whose_name_appears_meanwhile_is_replaced(table: Table, tmp_path: Path) -> None:
    save = table.folder.read()
    data = table.save_bytes
    copy = tmp_path / "orders" / "a.txt"
    pending = stage_file(copy, b"new copy\n")
    try:
        copy.write_bytes(b"left by a stopped writer\n")
        integrity._name(pending, None)
    finally:
        pending.close()
    assert copy.read_bytes() == b"new copy\n"
    assert table.save_bytes == data and table.folder.read().digest == save.digest


# ---- the seen record ---------------------------------------------------------------------------
def test_the_seen_record_is_written_in_place(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = SeenRecord(table.home)
    save = table.folder.read()
    path = table.home / "seen" / f"{save.game_id}.json"
    inode = path.stat().st_ino
    renames: list[str] = []
    monkeypatch.setattr(os, "replace", lambda *a: renames.append("replace"))
    monkeypatch.setattr(os, "rename", lambda *a: renames.append("rename"))
    seen.record(save)
    assert renames == [] and path.stat().st_ino == inode
    assert decode_seen(path.read_bytes()) is not None
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("damage", ["empty", "cut", "zeros", "mixed", "sum", "garbage", "list", "folder"])
def test_a_damaged_seen_record_reads_as_no_record(table: Table, damage: str) -> None:
    first = table.folder.read()
    table.play_step()
    newer = table.folder.read()
    path = table.home / "seen" / f"{first.game_id}.json"
    whole = path.read_bytes()
    with pytest.raises(RollbackError):  # the record works: the older save is refused
        SeenRecord(table.home).check(first)
    older = encode_seen_of(first)
    damaged = {
        "empty": b"",
        "cut": whole[: len(whole) // 2],
        "zeros": whole[:-40] + bytes(40),
        "mixed": whole[:30] + older[30:],
        "sum": whole.replace(b'"sum":"', b'"sum":"0'),
        "garbage": b"\xff\xfe not json \x00",
        "list": b"[1, 2]\n",
        "folder": b"",
    }[damage]
    if damage == "folder":
        path.unlink()
        path.mkdir()
    else:
        path.write_bytes(damaged)
    SeenRecord(table.home).check(first)  # no record to trust: only the check is lost
    if damage != "folder":
        SeenRecord(table.home).record(newer)  # the next save writes it whole again
        assert path.read_bytes() == whole
        with pytest.raises(RollbackError):
            SeenRecord(table.home).check(first)


def encode_seen_of(save: object) -> bytes:
    from pbem.seen import Seen

    return encode_seen(Seen(save.revision, save.digest))  # type: ignore[attr-defined]


def test_a_seen_record_of_the_old_format_still_refuses_an_old_save(table: Table) -> None:
    first = table.folder.read()
    table.play_step()
    newer = table.folder.read()
    path = table.home / "seen" / f"{first.game_id}.json"
    path.write_bytes(f'{{"digest":"{newer.digest}","revision":{newer.revision}}}'.encode())
    with pytest.raises(RollbackError, match="already seen"):
        SeenRecord(table.home).check(first)


def test_a_longer_old_seen_record_is_cut_to_the_new_one(tmp_path: Path, table: Table) -> None:
    save = table.folder.read()
    path = table.home / "seen" / f"{save.game_id}.json"
    path.write_bytes(path.read_bytes() + b" " * 500)
    SeenRecord(table.home).record(save)
    assert path.read_bytes() == encode_seen_of(save)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 10**9), st.text("0123456789abcdef", min_size=1, max_size=64))
def test_decode_seen_never_raises_and_trusts_only_a_checked_record(
    raw: bytes, revision: int, digest: str
) -> None:
    from pbem.seen import Seen

    decode_seen(raw)  # never raises, whatever the bytes
    whole = encode_seen(Seen(revision, digest))
    assert decode_seen(whole) == Seen(revision, digest)
    for cut in range(1, len(whole) - 1, 7):
        assert decode_seen(whole[:cut]) is None
    flipped = bytearray(whole)
    index = whole.index(b'"digest":"') + 10
    flipped[index] = ord("g")  # a digest that is not the one the check covers
    assert decode_seen(bytes(flipped)) is None


@pytest.mark.parametrize("unnamed", [True, False])
def test_create_file_syncs_the_parent_of_every_folder_it_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unnamed: bool
) -> None:
    if not unnamed:
        monkeypatch.setattr(folder_module, "_UNNAMED", 0)
    synced: list[str] = []
    real = folder_module.fsync_dir

    def logged_sync(p: str | os.PathLike[str]) -> None:
        synced.append(os.fspath(p))
        real(p)

    monkeypatch.setattr(folder_module, "fsync_dir", logged_sync)
    target = tmp_path / "game" / "history" / "rev-000000.json"
    folder_module.create_file(target, b"first\n")
    assert target.read_bytes() == b"first\n"
    assert synced == [str(tmp_path / "game" / "history"), str(tmp_path / "game"), str(tmp_path)]
    synced.clear()
    folder_module.create_file(tmp_path / "game" / "history" / "rev-000001.json", b"second\n")
    assert synced == [str(tmp_path / "game" / "history")]  # nothing made: its folder only
