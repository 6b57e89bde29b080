"""Atomic writes, idempotent writes, temp sweeping and the crash points (real fsync)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.moderator import durable
from pbem.moderator.scan import Index, inbox_files, is_temporary, signature

pytestmark = pytest.mark.real_fsync


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.txt"
    durable.write_atomic(target, "one")
    durable.write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["b.txt"]


def test_write_once_and_remove_are_idempotent(tmp_path: Path) -> None:
    target = tmp_path / "n.txt"
    assert durable.write_once(target, "first") is True
    assert durable.write_once(target, "second") is False
    assert target.read_text() == "first"
    durable.remove(target)
    durable.remove(target)
    assert not target.exists()


def test_sweep_temp_removes_only_our_temporaries(tmp_path: Path) -> None:
    (tmp_path / f"{durable.TEMP_PREFIX}x.123").write_text("torn")
    (tmp_path / "keep.txt").write_text("k")
    assert durable.sweep_temp(tmp_path) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_crash_point_ends_the_process_at_the_nth_step(tmp_path: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from pbem.moderator.durable import write_atomic;"
        "[write_atomic(Path(sys.argv[1]) / f'f{i}', str(i)) for i in range(5)]"
    )
    env = {**os.environ, durable.CRASH_ENV: "4"}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env, check=False)
    assert done.returncode == durable.CRASH_EXIT
    # three steps per write (written, synced, renamed): died at f1's first, before its rename
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["f0"]


def test_temporary_names() -> None:
    for name in (".x", "a.tmp", "a.part", "a.partial", "a~", "~$a.docx", "#a#", "a.crdownload", "a.swp"):
        assert is_temporary(name), name
    for name in ("orders.txt", "signed.asc", "turn-3"):
        assert not is_temporary(name), name


def test_inbox_files_settle_and_order(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    (inbox / "alice").mkdir(parents=True)
    (inbox / "bob").mkdir()
    old, young = inbox / "alice" / "old.txt", inbox / "bob" / "young.txt"
    old.write_text("1")
    young.write_text("2")
    stamp = young.stat().st_mtime_ns
    os.utime(old, ns=(stamp - 10**10, stamp - 10**10))  # dated in the past: a change all the same
    changes = [p.stat().st_ctime_ns for p in (old, young)]
    now = max(changes)
    ready, settling = inbox_files(inbox, now + 10**9, 5 * 10**9)
    assert ready == [] and settling == min(changes), "a file dated in the past still settles"
    ready, settling = inbox_files(inbox, now + 6 * 10**9, 5 * 10**9)
    assert [f.path.name for f in ready] == ["old.txt", "young.txt"] and settling is None


def test_a_file_dated_in_the_future_settles_like_any_other(tmp_path: Path) -> None:
    # A player's clock runs a year ahead and their sync tool keeps the times it sets.
    inbox = tmp_path / "inbox"
    (inbox / "alice").mkdir(parents=True)
    ahead = inbox / "alice" / "orders.txt"
    ahead.write_text("1")
    year = 365 * 24 * 3600 * 10**9
    os.utime(ahead, ns=(ahead.stat().st_mtime_ns + year,) * 2)
    changed = ahead.stat().st_ctime_ns
    ready, settling = inbox_files(inbox, changed + 10**9, 5 * 10**9)
    assert ready == [] and settling == changed
    ready, settling = inbox_files(inbox, changed + 6 * 10**9, 5 * 10**9)
    assert [f.path.name for f in ready] == ["orders.txt"] and settling is None


def test_index_remembers_and_forgets(tmp_path: Path) -> None:
    index = Index(tmp_path / "index.json")
    sig = signature([tmp_path])
    index.record("g", sig, next_due=100, settling=False)
    index.save()
    again = Index(tmp_path / "index.json")
    assert again.unchanged("g", sig, now=50)
    assert not again.unchanged("g", sig, now=100), "something falls due"
    assert not again.unchanged("g", [*sig[:-1], -5], now=50), "a changed signature"
    again.forget("g")
    assert not again.unchanged("g", sig, now=50)
    (tmp_path / "index.json").write_text("{torn")
    assert Index(tmp_path / "index.json").entries == {}, "a torn index costs one full pass"
