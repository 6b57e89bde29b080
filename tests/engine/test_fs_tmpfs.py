"""A real full disk: the game on a small tmpfs, filled up to leave 0, 1, 2 ... pages free, so
that the kernel itself answers ``ENOSPC`` at whichever write of the turn no longer fits
(twelfth session).  Needs ``mount`` (root, or a user namespace that allows it): skipped, with
the reason, where mounting is not permitted; the mount is always undone.

Each run must end without the bug message, naming the reason; once space is freed, the same
command (nothing was saved) or ``pbem publish`` (the save was written, and said so) completes
the turn, the awaited player's orders counted, and ``pbem status`` misses nothing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.engine import GameFolder

from .conftest import Table


def _cli(args: list[str], where: Path) -> Result:
    env = {"PBEM_HOME": str(where / "home"), "PBEM_STATE_DIR": str(where / "state")}
    old = os.getcwd()
    os.chdir(where)
    try:
        return CliRunner().invoke(main, args, env=env)
    finally:
        os.chdir(old)


def test_submit_advance_on_a_really_full_disk(
    table: Table, small_disk: Path, fill_disk: Callable[[Path, int], Path], tmp_path: Path
) -> None:
    name = table.awaited()
    turn = table.folder.read().turn
    seq = table.folder.read().body["seq"][name] + 1
    orders = table.sealed(table.signed(name, seq=seq))
    args = ["submit", "game", "orders.txt", "--key", "mod.key", "--advance"]
    outcomes = set()
    for leave in range(0, 40):
        where = small_disk / "w"
        shutil.copytree(table.folder.path, where / "game")
        shutil.copytree(table.home, where / "home")
        table.moderator.save(where / "mod.key")
        (where / "orders.txt").write_text(orders, encoding="utf-8")
        before = (where / "game" / "save.json").read_bytes()
        filler = fill_disk(small_disk, leave)
        result = _cli(args, where)
        said = f"{leave} pages free: exit {result.exit_code}\n{result.output}"
        assert result.exit_code in (0, 2), said
        assert "this is a bug" not in result.output and "Traceback" not in result.output, said
        filler.unlink()  # the disk works again
        saved = (where / "game" / "save.json").read_bytes() != before
        if result.exit_code == 2:
            assert "No space left on device" in result.output, said
            if saved:
                assert "do not run the command again" in result.output, said
                assert _cli(["publish", "game", "--key", "mod.key"], where).exit_code == 0, said
            else:
                again = _cli(args, where)
                assert again.exit_code == 0, f"{said}\nrun again:\n{again.output}"
        outcomes.add((result.exit_code, saved))
        status = _cli(["status", "game"], where)
        assert status.exit_code == 0 and "missing" not in status.output, f"{said}\n{status.output}"
        folder = GameFolder(where / "game", where / "home")
        assert folder.read().turn == turn + 1, said
        assert len(list(folder.orders_dir(turn).glob(f"{name}.seq*.txt"))) == 1, said
        shutil.rmtree(where)
        if (0, True) in outcomes and leave > 4:
            break  # enough room for the whole turn: every later run is the same
    assert (2, False) in outcomes, "no run was stopped before its save: the disk was never full"
    assert (2, True) in outcomes, "no run was stopped after its save (the new turn's reports)"
    assert (0, True) in outcomes, "no run had room for the whole turn"
