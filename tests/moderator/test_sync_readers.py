"""A command that only reads a game (``pbem status``, ``pbem log``, a player's program)
while the moderator writes it (twelfth session's sync review).  Readers take no lock: one
that read ``save.json`` just before a writer replaced it, and looked at ``history/`` just
after, found the new revision there and said "an old save was put back ... restore the
newest save", exit 1, about a game nothing was wrong with.

The reader is a real ``pbem status`` process stopped (on a pipe) right after it read the
save; the writer a real ``pbem submit --advance`` that resolves the turn meanwhile."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pbem.keys import Identity

from .modkit import awaited, order_block, read
from .synckit import table

READER = """
import sys
from pbem import engine

real = engine.read_input
paused = []


def read_input(path, what):
    data = real(path, what)
    if what == "save file" and not paused:
        paused.append(path)
        print("read", flush=True)
        sys.stdin.readline()  # the writer's turn
    return data


engine.read_input = read_input
sys.argv = ["pbem", "status", sys.argv[1]]
from pbem.cli import main

main()
"""


def test_status_while_a_turn_is_written_reads_the_new_save(tmp_path: Path, keys: dict[str, Identity]) -> None:
    out = table(tmp_path / "sync", keys)
    game = out.root / "g1"
    [name] = awaited(game)
    orders = tmp_path / "orders.txt"
    orders.write_text(order_block(game, keys, name), encoding="utf-8")
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(game)],
        env=out.env("two"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert reader.stdin is not None and reader.stdout is not None
    assert reader.stdout.readline().strip() == "read"

    writer = out.pbem("submit", str(game), str(orders), "--key", out.key, "--advance")
    assert writer.returncode == 0, writer.stderr
    assert read(game).turn == 2

    said, errors = reader.communicate("go\n", timeout=60)
    assert "an old save was put back" not in errors, errors
    assert reader.returncode == 0, errors
    assert "turn 2" in said, said
