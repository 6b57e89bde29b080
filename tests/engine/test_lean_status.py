"""`pbem status` on a game the moderator never ran imports neither the moderator nor the order
reader (issue 13's start-up target), and says the same as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pbem.cli import STATUS_RECORD
from pbem.keys import Identity
from pbem.moderator.record import record_path

from .conftest import new_table

_RUN = (
    "import sys\n"
    "from pbem.cli import main\n"
    "try:\n"
    "    main(['status', sys.argv[1]])\n"
    "except SystemExit as exc:\n"
    "    assert not exc.code, exc.code\n"
    "print(sorted(m for m in ('pbem.moderator.actions', 'pbem.orders', 'tomllib') if m in sys.modules))\n"
)


def _status(folder: Path, home: Path) -> list[str]:
    env = dict(os.environ, PBEM_HOME=str(home))
    out = subprocess.run(
        [sys.executable, "-c", _RUN, str(folder)], capture_output=True, text=True, check=True, env=env
    )
    return out.stdout.splitlines()


def test_the_record_path_status_looks_for_is_the_moderators(tmp_path: Path) -> None:
    assert tmp_path.joinpath(*STATUS_RECORD) == record_path(tmp_path)


def test_status_of_an_unmoderated_game_loads_no_moderator_module(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    table = new_table(tmp_path, keys)
    lines = _status(table.folder.path, tmp_path / "home")
    assert lines[0].startswith("symbiote game ") and ", turn 1 " in lines[0]
    assert lines[-1] == "[]", lines
    assert not any(line.startswith(("deadline", "when orders are missing")) for line in lines)


def test_status_of_a_moderated_game_still_shows_the_moderator_lines(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    from pbem.moderator.record import Record, save_record
    from pbem.timing import TurnClock

    table = new_table(tmp_path, keys)
    save_record(table.folder.path, Record(clock=TurnClock(turn=1, started=0)))
    lines = _status(table.folder.path, tmp_path / "home")
    assert "when orders are missing: wait" in lines, lines
    assert "pbem.moderator.actions" in lines[-1]
