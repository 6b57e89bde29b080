"""A barrier relies on ``syncfs`` only where it reports write errors (Linux 5.8 and later).

Before 5.8 ``syncfs`` returned success even when a file's writeback had failed, so a barrier
that trusted it could write the record that says an answer was given while the answer never
reached the disk.  On such kernels a barrier fsyncs each file and folder (which does report
errors); the pass's closing sync still uses ``syncfs`` (narrower than ``sync``, and what it
follows is redone by the next pass).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pbem.moderator import durable


@pytest.mark.parametrize(
    ("release", "reports"),
    [
        ("5.8.0", True),
        ("5.10.0-28-amd64", True),
        ("6.18.44-fc-v669", True),
        ("10.1", True),
        ("5.7.19", False),
        ("5.4.0-150-generic", False),
        ("4.18.0-513.el8.x86_64", False),
        ("3.10.0", False),
        ("", False),
        ("generic", False),
        ("5", False),
        ("5.x", False),
    ],
)
def test_which_kernels_report_syncfs_errors(release: str, reports: bool) -> None:
    assert durable.syncfs_reports_errors(release) is reports


def _barrier_of_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, release: str) -> dict[str, int]:
    counts = {"syncfs": 0, "file": 0, "folder": 0}

    def syncfs(fd: int) -> None:
        counts["syncfs"] += 1

    def fsync(fd: int) -> None:
        counts["file" if stat.S_ISREG(os.fstat(fd).st_mode) else "folder"] += 1

    monkeypatch.setattr(durable, "_syncfs", [syncfs])
    monkeypatch.setattr(durable, "USE_SYNCFS", True)
    monkeypatch.setattr(durable, "kernel_release", lambda: release)
    monkeypatch.setattr(os, "fsync", fsync)
    with durable.grouped():
        assert durable.write_once(tmp_path / "answer.txt", "accepted\n")
        assert durable.barrier()
    assert (tmp_path / "answer.txt").read_text() == "accepted\n"
    return counts


def test_a_barrier_on_a_kernel_whose_syncfs_reports_errors_is_one_syncfs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _barrier_of_one_file(tmp_path, monkeypatch, "6.1.0-18-amd64") == {
        "syncfs": 1,
        "file": 0,
        "folder": 0,
    }


def test_a_barrier_on_an_older_kernel_fsyncs_each_file_and_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _barrier_of_one_file(tmp_path, monkeypatch, "5.4.0-150-generic") == {
        "syncfs": 0,
        "file": 1,
        "folder": 1,
    }


def test_the_pass_closing_sync_uses_syncfs_on_any_linux(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: calls.append("syncfs")])
    monkeypatch.setattr(durable, "USE_SYNCFS", True)
    monkeypatch.setattr(durable, "kernel_release", lambda: "4.18.0")
    monkeypatch.setattr(os, "sync", lambda: calls.append("sync"))
    durable.sync_filesystems([tmp_path, tmp_path / "."])
    assert calls == ["syncfs"], "one file system, one syncfs; not a sync of every file system"


def test_a_failing_syncfs_fails_the_barrier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def syncfs(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(durable, "_syncfs", [syncfs])
    monkeypatch.setattr(durable, "USE_SYNCFS", True)
    monkeypatch.setattr(durable, "kernel_release", lambda: "6.1.0")
    with durable.grouped(), pytest.raises(OSError):
        durable.write_once(tmp_path / "answer.txt", "accepted\n")
        durable.barrier()
