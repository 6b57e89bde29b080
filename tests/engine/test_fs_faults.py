"""A write the file system refuses, at every write-side call of a command (twelfth session).

Each command runs through the real command line (in process) on a real game, once to count
its write-side system calls, then once per call with that call failing (a full disk, a
failing device, a quota, a read-only folder or an immutable file: ``tests/engine/fskit``).
Every run must end with a message, never the bug message (exit 3), naming the system's
reason; the save must still load and verify; and what happens next must be plain:

* nothing saved yet: the folder's save is the old one, the message does not say otherwise,
  and the same command run again once the disk works does the whole job;
* the save written, a later step refused (its history name, the seen record, the new turn's
  reports): the message says the save was written and not to run the command again, and
  ``pbem publish`` writes what is missing; ``pbem status`` then misses nothing.

Before this review an ``EACCES`` or ``EPERM`` anywhere (a game folder the moderator may not
write, an immutable file) was exit 3, "this is a bug", and a refusal after the save was
written said "run the command again (... what it had written before is unchanged)": run
again, ``submit`` refused the orders as an old file and ``new`` as a folder that "already
holds a game".
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.engine import GameFolder

from .conftest import Table
from .fskit import Faults, injected

CODES = [errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS]


def _cli(args: list[str], where: Path, faults: Faults | None = None) -> Result:
    """``pbem ARGS`` run in ``where`` (the game is ``where/game``, its home ``where/home``)."""
    env = {"PBEM_HOME": str(where / "home"), "PBEM_STATE_DIR": str(where / "state")}
    old = os.getcwd()
    os.chdir(where)
    try:
        if faults is None:
            return CliRunner().invoke(main, args, env=env)
        with injected(faults):
            return CliRunner().invoke(main, args, env=env)
    finally:
        os.chdir(old)


def _base(table: Table, tmp_path: Path) -> Path:
    """A folder holding the table's game as ``game``, its home and the moderator's key."""
    base = tmp_path / "base"
    base.mkdir()
    shutil.copytree(table.folder.path, base / "game")
    shutil.copytree(table.home, base / "home")
    table.moderator.save(base / "mod.key")
    return base


def _orders(table: Table, base: Path) -> None:
    """The awaited seat's sealed orders, as ``orders.txt``."""
    name = table.awaited()
    seq = table.folder.read().body["seq"][name] + 1
    (base / "orders.txt").write_text(table.sealed(table.signed(name, seq=seq)), encoding="utf-8")


def _sweep(base: Path, tmp_path: Path, args: list[str], code: int, done: Callable[[GameFolder], bool]) -> int:
    """Run ``args`` with each of its write-side calls failing with ``code`` in a fresh copy of
    ``base``; check each run as the module's docstring says, and that once the disk works the
    command's work is done (``done``).  Returns how many calls were tried."""
    count = Faults(None)
    clean = _cli(args, _copy(base, tmp_path / "count"), count)
    assert clean.exit_code == 0, clean.output
    assert len(count.calls) > 5, count.calls
    for at in range(len(count.calls)):
        where = _copy(base, tmp_path / f"run-{at}")
        before = _save_bytes(where)
        faults = Faults(at, code)
        result = _cli(args, where, faults)
        said = f"call {at} ({faults.fired}) failed: exit {result.exit_code}\n{result.output}"
        assert result.exit_code != 3 and "this is a bug" not in result.output, said
        assert result.exception is None or isinstance(result.exception, SystemExit), said
        if result.exit_code == 0:  # a fallback took over (a folder made another way, say)
            assert done(GameFolder(where / "game", where / "home")), said
            shutil.rmtree(where)
            continue
        assert os.strerror(code) in result.output, said
        after = _save_bytes(where)
        if after == before:
            assert "what happened" not in result.output and "do not run" not in result.output, said
            again = _cli(args, where)
            assert again.exit_code == 0, f"{said}\nrun again:\n{again.output}"
        else:
            assert "do not run the command again" in result.output, said
            assert "rejected" not in result.output, said
            assert (
                "what happened: game/save.json was written before this" in result.output
                or "the game was saved (revision" in result.output  # its seen record refused
            ), said
            GameFolder(where / "game", where / "home").read()  # loads and verifies
            publish = _cli(["publish", "game", "--key", "mod.key"], where)
            assert publish.exit_code == 0, f"{said}\npublish:\n{publish.output}"
        status = _cli(["status", "game"], where)
        assert status.exit_code == 0 and "missing" not in status.output, f"{said}\n{status.output}"
        assert done(GameFolder(where / "game", where / "home")), said
        shutil.rmtree(where)
    return len(count.calls)


def _save_bytes(where: Path) -> bytes:
    try:
        return (where / "game" / "save.json").read_bytes()
    except FileNotFoundError:
        return b""


def _copy(base: Path, where: Path) -> Path:
    shutil.copytree(base, where)
    return where


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_submit_advance_with_any_write_refused(table: Table, tmp_path: Path, code: int) -> None:
    base = _base(table, tmp_path)
    _orders(table, base)
    turn, name = table.folder.read().turn, table.awaited()

    def done(folder: GameFolder) -> bool:
        save = folder.read()
        copies = list(folder.orders_dir(turn).glob(f"{name}.seq*.txt"))
        return save.turn == turn + 1 and len(copies) == 1  # counted, its copy kept

    assert _sweep(
        base, tmp_path, ["submit", "game", "orders.txt", "--key", "mod.key", "--advance"], code, done
    )


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES], ids=errno.errorcode.get)
def test_advance_with_any_write_refused(table: Table, tmp_path: Path, code: int) -> None:
    base = _base(table, tmp_path)
    _orders(table, base)
    assert _cli(["submit", "game", "orders.txt", "--key", "mod.key"], base).exit_code == 0
    turn = table.folder.read().turn
    _sweep(base, tmp_path, ["advance", "game", "--key", "mod.key"], code, lambda f: f.read().turn == turn + 1)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EPERM], ids=errno.errorcode.get)
def test_new_with_any_write_refused(table: Table, tmp_path: Path, code: int) -> None:
    base = tmp_path / "base"
    base.mkdir()
    for name, identity in table.keys.items():
        identity.save(base / f"{name}.key")
        (base / f"{name}.pub").write_text(identity.public().to_text(), encoding="utf-8")
    table.moderator.save(base / "mod.key")
    args = ["new", "symbiote", "game", "--moderator-key", "mod.key"]
    args += [a for n in ("alice", "bob", "carol") for a in ("--player", f"{n}={n}.pub")]
    _sweep(base, tmp_path, args, code, lambda f: f.read().turn == 1)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO], ids=errno.errorcode.get)
def test_rollback_with_any_write_refused(table: Table, tmp_path: Path, code: int) -> None:
    table.play_step()
    table.play_step()
    base = _base(table, tmp_path)
    revision = table.folder.read().revision

    def done(folder: GameFolder) -> bool:
        save = folder.read()
        return save.turn == 2 and save.revision == revision + 1

    _sweep(base, tmp_path, ["rollback", "game", "2", "--key", "mod.key"], code, done)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES], ids=errno.errorcode.get)
def test_keygen_with_any_write_refused_leaves_no_key(tmp_path: Path, code: int) -> None:
    """A key written in part (an empty ``alice.key`` on a full disk), or a key without its
    card, was left behind, and ``pbem keygen alice`` again said "alice.key already exists";
    now both files are made, or neither."""
    count = Faults(None)
    (tmp_path / "count").mkdir()
    assert _cli(["keygen", "alice"], tmp_path / "count", count).exit_code == 0
    for at in range(len(count.calls)):
        where = tmp_path / f"run-{at}"
        where.mkdir()
        faults = Faults(at, code)
        result = _cli(["keygen", "alice"], where, faults)
        said = f"call {at} ({faults.fired}) failed: exit {result.exit_code}\n{result.output}"
        assert result.exit_code != 3 and "this is a bug" not in result.output, said
        made = sorted(p.name for p in where.glob("alice.*"))
        if result.exit_code == 0:
            assert made == ["alice.key", "alice.pub"], said
            continue
        assert os.strerror(code) in result.output, said
        assert made == [], said
        again = _cli(["keygen", "alice"], where)
        assert again.exit_code == 0, f"{said}\nrun again:\n{again.output}"


@pytest.mark.parametrize("command", ["replace", "resign"])
def test_seat_changes_with_any_write_refused(table: Table, tmp_path: Path, command: str) -> None:
    base = _base(table, tmp_path)
    (base / "dora.pub").write_text(table.keys["mallory"].public().to_text(), encoding="utf-8")
    revision = table.folder.read().revision
    args = ["replace", "game", "carol", "dora.pub"] if command == "replace" else ["resign", "game", "carol"]
    _sweep(
        base, tmp_path, [*args, "--key", "mod.key"], errno.ENOSPC, lambda f: f.read().revision == revision + 1
    )
