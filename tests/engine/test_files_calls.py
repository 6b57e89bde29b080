"""Issue 13, fewer system calls and less path work around the same writes of a turn.

* A game without press is told by one ``lstat`` of its rules file (was ``stat`` then
  ``lstat``, through three Path objects), with the same answer for what can be in its place.
* A regular file read by :func:`pbem.inputs.read_bytes` whose first read comes back short
  is not read again to find its end; one that grows, or reports no size, is read whole.
* A save file changed between the turn's read and its commit is still refused.
* The commit does not look up the history file of the save it replaces when the turn's
  ``check_history`` just read it; the gap a stopped writer leaves is still filled.
* The order file's source kept in the save is ``Path(source).name`` (fuzzed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import inputs, integrity
from pbem.errors import ConflictError, FormatError
from pbem.inputs import file_name, read_bytes
from pbem.press import listing
from pbem.press.rules import rules_path

from .conftest import Table

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "200"))


# ---- the press rules look-up ------------------------------------------------------------------
def _plain_has_rules(game: Path) -> bool:
    path = rules_path(game)
    return path.exists() or path.is_symlink()


def _places(tmp_path: Path) -> dict[str, Path]:
    """Game folders with each kind of thing (or nothing) where the rules file goes."""
    made: dict[str, Path] = {}
    for kind in ("absent", "no press folder", "file", "folder", "dangling link", "link loop", "press a file"):
        game = tmp_path / kind.replace(" ", "-")
        game.mkdir()
        made[kind] = game
        if kind in ("absent", "press a file"):
            (game / "press").write_text("not a folder") if kind == "press a file" else None
            continue
        if kind == "no press folder":
            continue
        press = game / "press"
        press.mkdir()
        rules = press / "rules.json"
        if kind == "file":
            rules.write_text("{}")
        elif kind == "folder":
            rules.mkdir()
        elif kind == "dangling link":
            rules.symlink_to(press / "nowhere.json")
        else:
            rules.symlink_to(rules)
    return made


def test_has_rules_answers_as_exists_or_is_symlink(tmp_path: Path) -> None:
    places = _places(tmp_path)
    answers = {kind: listing.has_rules(game) for kind, game in places.items()}
    assert answers == {kind: _plain_has_rules(game) for kind, game in places.items()}
    assert answers["file"] and answers["dangling link"] and answers["link loop"] and answers["folder"]
    assert not answers["absent"] and not answers["press a file"] and not answers["no press folder"]


def test_a_game_without_press_costs_one_lstat_a_turn(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[tuple[str, str]] = []
    real_stat, real_lstat = os.stat, os.lstat

    def stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        looked.append(("stat", os.fspath(path)))
        return real_stat(path, *args, **kwargs)

    def lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        looked.append(("lstat", os.fspath(path)))
        return real_lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "lstat", lstat)
    table.play_step()
    rules = os.fspath(rules_path(table.folder.path))
    assert [call for call, path in looked if path == rules] == ["lstat"]


# ---- reading a regular file -------------------------------------------------------------------
def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    real = os.read

    def read(fd: int, n: int) -> bytes:
        got = real(fd, n)
        reads.append(len(got))
        return got

    monkeypatch.setattr(inputs.os, "read", read)
    return reads


def test_a_small_file_is_read_with_one_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "save.json"
    path.write_bytes(b"x" * 10_000)
    reads = _count_reads(monkeypatch)
    assert read_bytes(path) == b"x" * 10_000
    assert reads == [10_000]


def test_a_read_cut_short_mid_file_is_read_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A network or FUSE folder may return fewer bytes than asked before the end: not taken
    for the end (the file would look damaged, or another writer's)."""
    path = tmp_path / "save.json"
    content = os.urandom(10_000)
    path.write_bytes(content)
    real = os.read

    def short(fd: int, n: int) -> bytes:
        return real(fd, max(1, n // 3))

    monkeypatch.setattr(inputs.os, "read", short)
    assert read_bytes(path) == content


@settings(max_examples=max(EXAMPLES // 8, 20), deadline=None)
@given(
    size=st.integers(0, 3 << 20) | st.sampled_from([0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1]),
    lie=st.sampled_from([None, 0, -1, 1]),
    limit=st.sampled_from([inputs.MAX_INPUT, 1 << 20, 5000, 0]),
)
def test_read_bytes_reads_what_is_there_whatever_fstat_says(
    tmp_path_factory: pytest.TempPathFactory, size: int, lie: int | None, limit: int
) -> None:
    """Whatever the size ``fstat`` reports (``lie``: none, 0 as /proc does, one short, one
    long), the bytes are the file's, and a file over ``limit`` is refused."""
    path = tmp_path_factory.mktemp("r") / "f"
    content = os.urandom(64) * (size // 64) + os.urandom(size % 64)
    path.write_bytes(content)
    real = os.fstat

    def fstat(fd: int) -> Any:
        st_ = real(fd)
        if lie is None:
            return st_
        fake = list(st_)
        fake[6] = 0 if lie == 0 else max(0, st_.st_size + lie)
        return os.stat_result(fake)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(inputs.os, "fstat", fstat)
        if size > limit:
            with pytest.raises(FormatError):
                read_bytes(path, limit=limit)
        else:
            assert read_bytes(path, limit=limit) == content


# ---- the compare-and-swap ---------------------------------------------------------------------
def test_a_save_changed_after_the_read_is_still_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.play_step()
    folder, moderator = table.folder, table.moderator
    loaded = folder.load(moderator)
    assert integrity._last_read[0] == loaded.save.file_digest
    other = table.save_bytes.replace(b'"written"', b'"written" ', 1)  # another writer's bytes
    (folder.path / "save.json").write_bytes(other)
    data, written = folder._prepare(
        moderator, loaded.save, loaded.game, loaded.secret, now=table.tick(), base=loaded.save.body
    )
    with pytest.raises(ConflictError, match="changed while this command worked"):
        folder._commit(loaded.save, data, written)
    assert (folder.path / "save.json").read_bytes() == other


# ---- the history file of the save replaced ------------------------------------------------------
def test_the_commit_does_not_look_up_the_history_file_just_read(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.play_step()
    revision = table.folder.read().revision
    kept = integrity._history_file(table.folder.path, revision)
    looked: list[str] = []
    real = os.lstat

    def lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        looked.append(os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", lstat)
    table.play_step()
    assert kept not in looked
    assert Path(kept).read_bytes() and table.folder.read().revision > revision


def test_history_lacking_the_save_read_is_still_completed(table: Table) -> None:
    table.play_step()
    save = table.folder.read()
    kept = Path(integrity._history_file(table.folder.path, save.revision))
    data = kept.read_bytes()
    kept.unlink()  # a writer stopped between its save and its history file
    table.play_step()
    assert kept.read_bytes() == data
    assert table.folder.read().revision > save.revision


# ---- the source's name --------------------------------------------------------------------------
@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.text(st.sampled_from("ab./\\ ~\x00é"), max_size=12)
    | st.sampled_from(["", ".", "..", "/", "a/", "//a"])
)
def test_file_name_is_path_name(source: str) -> None:
    assert file_name(source) == Path(source).name


# ---- the lock's block ---------------------------------------------------------------------------
def test_the_lock_block_holds_nests_and_releases(tmp_path: Path) -> None:
    """FolderLock.hold as a class does what the generator did: holds, counts nested holds,
    releases on an error, and another holder gets False while it is held."""
    from pbem.integrity import FolderLock

    first, second = FolderLock(tmp_path), FolderLock(tmp_path)
    with first.hold(0) as mine:
        assert mine and first.held
        with first.hold(0) as again:
            assert again and first._depth == 2
        assert first._depth == 1
        with second.hold(0) as theirs:
            assert theirs is False and not second.held
    assert not first.held
    with pytest.raises(KeyError), first.hold(0) as mine:
        assert mine
        raise KeyError("inside")
    assert not first.held
    with second.hold(0) as theirs:  # released: the other holder gets it
        assert theirs and second.held
