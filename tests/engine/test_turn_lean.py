"""Issue 13, a turn with less work: each shortcut gives exactly what the plain way gives.

* Folding text whose lines all fit (what pbem renders) trims the lines with ``map`` in C
  instead of the walk line by line: the same string as the walk, for any text.
* A turn's new report folder is staged beside its place and renamed into it at once (one
  rename for every file, where each file had its own temporary name and rename): the same
  files and bytes; a folder that exists is written file by file as before; a kill leaves
  no report folder and no staging folder, and a staging folder left by a killed process is
  removed by the next writer and by ``sweep_temp``.
* A file created once under a new name (a history file, an accepted order file) is written
  unnamed (``O_TMPFILE``), fsynced and linked to its name where Linux offers it, with the
  staging name as the portable way: the same file, the same refusal of a taken name, the
  same crash points, and nothing left behind by a kill.
* A sealed order file in standard armour (as ``pbem sign`` writes it) is opened without
  walking its lines for damage again: the shape check that found it standard checked the
  same (``tests/engine/test_turn_cpu.py`` fuzzes the quick way against the general one).
* The save, its history file and the seen record are read with plain system calls
  (``read_file``): the bytes ``Path.read_bytes`` gives, the same errors, and a FIFO put in
  their place does not block.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import folder as folder_module
from pbem import orders, wording
from pbem.errors import FormatError
from pbem.folder import TEMP_PREFIX, create_file, read_file, set_crash_hook, sweep_temp, write_folder
from pbem.keys import Identity

from .conftest import Table

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "100"))


# ---- folding ----------------------------------------------------------------------------------
def _plain_wrap(text: str, width: int) -> str:
    """What :func:`pbem.wording.wrap_text` wrote before the shortcut: the walk line by line."""
    return "\n".join(wording.wrap_lines(text.split("\n"), width))


_LINE = st.text(
    st.sampled_from(list("ab #-*1.) \t\r\x0b\x0c\x1c\x1f\u00a0\u2028\u3000é")), max_size=90
) | st.sampled_from(["", " ", "x" * 70, "x" * 70 + " ", "x" * 71, "- " + "word " * 20, "# " + "y" * 80])


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(_LINE, max_size=8), st.sampled_from([70, 20, 72]), st.booleans())
def test_folding_is_the_walk_line_by_line(lines: list[str], width: int, final_newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if final_newline else "")
    assert wording.wrap_text(text, width) == _plain_wrap(text, width)


def test_text_that_fits_is_not_walked(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    report = table.folder.reports_dir(1) / "public.txt"
    text = report.read_text()
    expected = _plain_wrap(text, wording.WIDTH)

    def walked(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("a text whose lines fit went the walk line by line")

    monkeypatch.setattr(wording, "wrap_lines", walked)
    assert wording.wrap_text(text) == expected == text
    with pytest.raises(AssertionError):  # a line too long still goes the general way
        wording.wrap_text(text + "z " * 40)


# ---- a turn's report folder at once -------------------------------------------------------------
FILES: dict[str, bytes | str] = {
    "alice.txt": "a report\n",
    "public.txt": b"the public one\n",
    "board.svg": "<svg/>",
}


def _read(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def _expected() -> dict[str, bytes]:
    return {k: v if isinstance(v, bytes) else v.encode() for k, v in sorted(FILES.items())}


def test_a_new_folder_appears_with_all_its_files_in_one_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renames: list[tuple[str, str]] = []
    real_rename, real_replace = os.rename, os.replace

    def rename(src: str, dst: str) -> None:
        renames.append((os.path.basename(src), os.path.basename(dst)))
        real_rename(src, dst)

    def replace(src: str, dst: str) -> None:
        renames.append((os.path.basename(src), os.path.basename(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(folder_module.os, "rename", rename)
    monkeypatch.setattr(folder_module.os, "replace", replace)
    target = tmp_path / "reports" / "turn-0001"
    write_folder(target, FILES)
    assert _read(target) == _expected()
    assert renames == [(f"{TEMP_PREFIX}turn-0001", "turn-0001")]
    assert os.listdir(tmp_path / "reports") == ["turn-0001"]
    # Into a folder that exists, each file is replaced on its own (republish after a crash):
    # the folder's rename is refused (no look-up of the target before it), the stage dropped.
    renames.clear()
    write_folder(target, {"alice.txt": "again\n"})
    assert (target / "alice.txt").read_text() == "again\n"
    assert [dst for _, dst in renames] == ["turn-0001", "alice.txt"]
    assert sorted(os.listdir(target)) == sorted(FILES)
    assert os.listdir(tmp_path / "reports") == ["turn-0001"]


def test_a_new_folder_costs_no_look_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new turn's folder: one mkdir (the stage), the files, one rename; no lstat or stat of
    the target, the stage or their parent (each a system call a turn)."""
    (tmp_path / "reports").mkdir()
    looked: list[str] = []
    real_lstat, real_stat = os.lstat, os.stat

    def lstat(path: str, *args: object, **kwargs: object) -> os.stat_result:
        looked.append(os.path.basename(path))
        return real_lstat(path, *args, **kwargs)  # type: ignore[arg-type]

    def stat(path: str, *args: object, **kwargs: object) -> os.stat_result:
        looked.append(os.path.basename(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(folder_module.os, "lstat", lstat)
    monkeypatch.setattr(folder_module.os, "stat", stat)
    write_folder(tmp_path / "reports" / "turn-0004", FILES)
    assert looked == []
    assert _read(tmp_path / "reports" / "turn-0004") == _expected()


@pytest.mark.parametrize("kind", ["file", "symlink to a folder", "empty folder"])
def test_a_target_that_is_not_a_new_folder(tmp_path: Path, kind: str) -> None:
    """What the refused rename finds: a file stays refused (NotADirectoryError, as before), a
    link to a folder is written through, an empty folder is replaced by the full one."""
    reports = tmp_path / "reports"
    reports.mkdir()
    target = reports / "turn-0005"
    if kind == "file":
        target.write_text("not a folder")
        with pytest.raises(NotADirectoryError):
            write_folder(target, FILES)
        assert target.read_text() == "not a folder"
    elif kind == "symlink to a folder":
        (tmp_path / "elsewhere").mkdir()
        target.symlink_to(tmp_path / "elsewhere")
        write_folder(target, FILES)
        assert _read(tmp_path / "elsewhere") == _expected()
        assert target.is_symlink()
    else:
        target.mkdir()
        write_folder(target, FILES)
        assert _read(target) == _expected()
    assert sorted(os.listdir(reports)) == ["turn-0005"]


@pytest.mark.parametrize("kill_at", [1, 2, 3, 4])
def test_a_kill_while_staging_leaves_no_folder_and_no_stage(tmp_path: Path, kill_at: int) -> None:
    class Killed(Exception):
        pass

    steps: list[str] = []

    def hook(step: str) -> None:
        steps.append(step)
        if len(steps) == kill_at:
            raise Killed(step)

    target = tmp_path / "reports" / "turn-0002"
    set_crash_hook(hook)
    try:
        with pytest.raises(Killed):
            write_folder(target, FILES)
    finally:
        set_crash_hook(None)
    assert steps == ["written", "written", "written", "renamed"][:kill_at]
    if kill_at < 4:  # before the rename: nothing of the turn, and no staging folder
        assert os.listdir(tmp_path / "reports") == []
    else:  # after it: the whole folder
        assert _read(target) == _expected()
    write_folder(target, FILES)  # the writer's retry
    assert _read(target) == _expected()
    assert os.listdir(tmp_path / "reports") == ["turn-0002"]


def test_a_stage_left_by_a_killed_writer_is_removed(tmp_path: Path) -> None:
    stage = tmp_path / "reports" / f"{TEMP_PREFIX}turn-0003"
    stage.mkdir(parents=True)
    (stage / "alice.txt").write_text("half a report")
    target = tmp_path / "reports" / "turn-0003"
    write_folder(target, FILES)
    assert _read(target) == _expected()
    assert os.listdir(tmp_path / "reports") == ["turn-0003"]
    stage.mkdir()  # another one, for a turn never written again
    (stage / "bob.txt").write_text("half")
    assert sweep_temp(tmp_path) == 1
    assert os.listdir(tmp_path / "reports") == ["turn-0003"]


def test_a_turn_publishes_its_reports_in_one_rename(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    replaced: list[str] = []
    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        replaced.append(os.path.basename(dst))
        real_replace(src, dst)

    monkeypatch.setattr(folder_module.os, "replace", replace)
    table.play_step()
    save = table.folder.read()
    reports = table.folder.reports_dir(save.turn)
    assert sorted(p.name for p in reports.iterdir()) == sorted(p.name for p in table.folder.turn_files(save))
    assert not [name for name in replaced if name.endswith(".txt") and "seq" not in name]
    # Publishing the same turn again rewrites the files in place, the same bytes.
    before = _read(reports)
    table.folder.publish(table.moderator, table.folder.load(table.moderator))
    assert _read(reports).keys() == before.keys()
    assert not list(table.folder.path.rglob(f"{TEMP_PREFIX}*"))


# ---- files created once ---------------------------------------------------------------------------
@pytest.fixture(params=["unnamed", "staged"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "staged":
        monkeypatch.setattr(folder_module, "_UNNAMED", 0)
    elif not getattr(os, "O_TMPFILE", 0):  # pragma: no cover - not Linux
        pytest.skip("no O_TMPFILE here")
    return str(request.param)


def test_a_file_is_created_whole_and_a_taken_name_is_refused(tmp_path: Path, way: str) -> None:
    target = tmp_path / "history" / "rev-000001.json"
    create_file(target, b"first\n")
    assert target.read_bytes() == b"first\n"
    assert target.stat().st_mode & 0o777 == 0o644 & ~_umask()
    with pytest.raises(FileExistsError):
        create_file(target, b"second\n")
    assert target.read_bytes() == b"first\n"
    assert os.listdir(target.parent) == ["rev-000001.json"]


def test_linux_creates_the_file_unnamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not getattr(os, "O_TMPFILE", 0):  # pragma: no cover - not Linux
        pytest.skip("no O_TMPFILE here")
    opened: list[str] = []
    real_open = os.open

    def spy(path: str, flags: int, mode: int = 0o777, **kwargs: object) -> int:
        opened.append(os.path.basename(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(folder_module.os, "open", spy)
    create_file(tmp_path / "orders" / "alice.seq1.txt", b"sealed")
    assert (tmp_path / "orders" / "alice.seq1.txt").read_bytes() == b"sealed"
    assert not [name for name in opened if name.startswith(TEMP_PREFIX)]
    # The folder opened O_TMPFILE (refused: it is new), made and opened again, then it and its
    # parent opened to be synced; no descriptor of /proc is opened: the file is linked
    # through the path /proc/self/fd/N.
    assert opened == ["orders", "orders", "orders", tmp_path.name]


def test_a_forked_worker_names_its_own_file(tmp_path: Path) -> None:
    """/proc/self is looked up when the file is linked: a worker forked after the parent
    staged files (and found /proc) links its own file, not the parent's of the same number."""
    if not getattr(os, "O_TMPFILE", 0) or not hasattr(os, "fork"):  # pragma: no cover
        pytest.skip("no O_TMPFILE or fork here")
    parent = folder_module.stage_file(tmp_path / "parent.txt", b"the parent's")
    try:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child, which exits
            code = 1
            try:
                os.close(parent.fd)  # the child's next descriptor is likely the same number
                create_file(tmp_path / "child.txt", b"the child's")
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
    finally:
        parent.close()
    assert os.waitstatus_to_exitcode(status) == 0
    assert (tmp_path / "child.txt").read_bytes() == b"the child's"
    assert sorted(os.listdir(tmp_path)) == ["child.txt"]


def test_without_proc_the_staging_name_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[str] = []
    monkeypatch.setattr(folder_module, "_proc_links", lambda: False)
    create_file(tmp_path / "rev-000001.json", b"data", hook=steps.append)
    assert (tmp_path / "rev-000001.json").read_bytes() == b"data"
    assert steps == ["written", "synced", "renamed"]  # once: nothing was written before the fallback
    assert os.listdir(tmp_path) == ["rev-000001.json"]


@pytest.mark.parametrize("kill_at", [1, 2, 3])
def test_a_kill_while_creating_leaves_nothing_or_the_whole_file(
    tmp_path: Path, way: str, kill_at: int
) -> None:
    class Killed(Exception):
        pass

    steps: list[str] = []

    def hook(step: str) -> None:
        steps.append(step)
        if len(steps) == kill_at:
            raise Killed(step)

    target = tmp_path / "rev-000002.json"
    with pytest.raises(Killed):
        create_file(target, b"data", hook=hook)
    assert steps == ["written", "synced", "renamed"][:kill_at]
    assert os.listdir(tmp_path) == ([] if kill_at < 3 else ["rev-000002.json"])
    if kill_at == 3:
        assert target.read_bytes() == b"data"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---- reading ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [0, 1, 9533, (1 << 20) + 7])
def test_read_file_gives_the_bytes_read_bytes_gives(tmp_path: Path, size: int) -> None:
    path = tmp_path / "save.json"
    path.write_bytes(os.urandom(size))
    assert read_file(path) == path.read_bytes()
    assert read_file(str(path)) == path.read_bytes()


def test_read_file_errors_and_fifos(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_file(tmp_path / "missing.json")
    with pytest.raises(IsADirectoryError):
        read_file(tmp_path)
    fifo = tmp_path / "rev-000001.json"
    os.mkfifo(fifo)
    assert read_file(fifo) == b""  # returns at once instead of waiting for a writer


# ---- the write pattern of a turn -------------------------------------------------------------------
def test_a_one_save_turn_makes_six_fsyncs_in_three_batches_and_two_renames(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pattern docs/robustness.md states: one batch of file fsyncs (the order copy, the
    save's temporary file, its history file, none named yet), the order copy linked, the
    folder fsyncs (history/, for the previous commit's history file, and the order copy's
    folder), the save renamed, the game folder
    fsynced, the history file linked (its folder synced by the next commit); then the turn's
    report folder renamed.  The seen record is written in place: no rename (was 3 renames:
    save, seen record, reports)."""
    if not getattr(os, "O_TMPFILE", 0):  # pragma: no cover - not Linux
        pytest.skip("no O_TMPFILE here")
    calls: list[str] = []
    for name in ("fsync", "rename", "replace", "link", "unlink"):
        real = getattr(os, name)

        def spy(*args: object, _name: str = name, _real: object = real, **kwargs: object) -> object:
            calls.append(_name)
            return _real(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(os, name, spy)
    name = table.awaited()
    seq = table.folder.read().body["seq"][name] + 1
    text = table.sealed(table.signed(name, table.bot_lines(name), seq=seq))
    receipt = table.folder.submit(text, table.moderator, source="o.txt", now=table.tick(), advance=True)
    assert receipt.advanced is not None
    # folders: history/ and the order copy's (new) orders/turn-NNNN/
    assert calls == [*["fsync"] * 3, "link", *["fsync"] * 2, "replace", "fsync", "link", "rename"]


# ---- sealed order files ------------------------------------------------------------------------------
def test_standard_armour_is_not_walked_for_damage_again(monkeypatch: pytest.MonkeyPatch) -> None:
    moderator = Identity.generate("moderator")
    header = orders.OrderHeader("0123456789ABCDEF", 1, "alice", 1)
    text = orders.seal(orders.sign(Identity.generate("alice"), header, ["x"]), [moderator.public()])
    walked: list[int] = []
    real = orders.armour_damage

    def spy(body: list[tuple[int, str]]) -> object:
        walked.append(len(body))
        return real(body)

    monkeypatch.setattr(orders, "armour_damage", spy)
    opened = orders.open_sealed(text, moderator, "orders.txt")
    assert opened is not None and opened[1] == 1 and walked == []
    damaged = text.replace("\n", "\n> ", 3)  # quoted by a mail client: not standard any more
    assert orders.open_sealed(damaged, moderator, "orders.txt") == opened and walked
    cut = text[:-80] + "\n" + text[-60:]
    with pytest.raises(FormatError):
        orders.open_sealed(cut, moderator, "orders.txt")
