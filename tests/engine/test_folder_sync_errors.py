"""A folder's fsync that reports a write error is an error, not a silent success.

``fsync_dir`` makes a rename or a new name durable.  It used to swallow every error, so an
``EIO`` from a failing disk let a commit go on as if the order copy's name, the previous
history file's name or the save's rename were on disk.  Now only the answers of a file
system that does not offer a folder's fsync (``EINVAL``, ``ENOTSUP``...) are passed over;
a write error raises, and a turn whose barrier fails is refused with the save untouched.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from pbem.folder import TEMP_PREFIX, fsync_dir

from .conftest import Table


def _folder_fsync_fails(monkeypatch: pytest.MonkeyPatch, code: int) -> list[int]:
    """Make every folder fsync fail with ``code`` (files still sync); the calls, counted."""
    real = os.fsync
    calls: list[int] = []

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            calls.append(fd)
            raise OSError(code, os.strerror(code))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


@pytest.mark.parametrize("code", [errno.EIO, errno.ENOSPC, errno.EDQUOT])
def test_a_write_error_of_a_folder_fsync_raises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    calls = _folder_fsync_fails(monkeypatch, code)
    with pytest.raises(OSError) as caught:
        fsync_dir(tmp_path)
    assert caught.value.errno == code and calls


@pytest.mark.parametrize("code", [errno.EINVAL, errno.ENOTSUP, errno.ENOSYS, errno.EACCES])
def test_a_file_system_without_folder_fsync_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    calls = _folder_fsync_fails(monkeypatch, code)
    fsync_dir(tmp_path)  # no error: there is nothing more to do on such a file system
    assert calls


def test_a_folder_that_cannot_be_opened_is_passed_over(tmp_path: Path) -> None:
    fsync_dir(tmp_path / "missing")  # as on Windows, where folders cannot be opened


def test_a_turn_whose_folder_fsync_fails_is_refused_and_the_save_stays(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = table.save_bytes
    save = table.folder.read()
    name = table.awaited()
    text = table.sealed(table.signed(name, table.bot_lines(name), seq=save.body["seq"][name] + 1))
    _folder_fsync_fails(monkeypatch, errno.EIO)
    with pytest.raises(OSError, match="Input/output"):
        table.folder.submit(text, table.moderator, source="o.txt", now=table.tick(), advance=True)
    monkeypatch.undo()
    assert table.save_bytes == before, "the barrier before the rename failed: the save is the old one"
    assert not list(table.folder.path.rglob(f"{TEMP_PREFIX}*"))
    assert not list(table.folder.orders_dir(save.turn).glob("*.txt")), "not accepted: no order copy"
    table.folder.submit(text, table.moderator, source="o.txt", now=table.tick(), advance=True)
    assert table.folder.read().revision == save.revision + 1, "the same file is taken once the disk works"
