"""A file written in place, in pieces, by a copy or sync tool that pauses longer than the
settle time (twelfth session's sync review): first empty, or cut off before its END line,
while a real ``pbem moderate`` process passes.  Before, the pass refused it ('no signed
order block found', 'no END line ... send it as an attachment') and moved it to the
quarantine, where the writer's next pieces then went: the orders were never filed.  Now a
file that looks unfinished is left to its writer for a minute after its last change.

The writer is a real process holding the file open; each step waits for the other's
word on a pipe (no sleeps)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

from .modkit import T0, awaited, drop, order_block, read
from .synckit import Table, notices, started

WRITER = """
import sys
path, cut, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = sys.stdin.buffer.readline()  # the whole file, on one line (hex)
data = bytes.fromhex(data.decode().strip())
with open(path, mode) as f:       # opened once, as a copy program does
    f.write(data[:cut]); f.flush()
    print("part", flush=True)
    sys.stdin.readline()          # the moderator's pass is done
    f.write(data[cut:]); f.flush()
print("done", flush=True)
"""


@pytest.fixture
def game(tmp_path: Path, keys: dict[str, Identity]) -> tuple[Table, Path, str]:
    return started(tmp_path / "sync", keys)


@pytest.mark.parametrize("where", ["empty", "half", "before the end line", "nuls"])
def test_a_file_written_in_pieces_is_filed_once_it_is_whole(
    game: tuple[Table, Path, str], where: str
) -> None:
    out, game_dir, name = game
    block = order_block(game_dir, out.keys, name).encode()  # sealed, as pbem sign writes it
    cut = {"empty": 0, "half": len(block) // 2, "before the end line": block.rindex(b"-----END"), "nuls": 0}[
        where
    ]
    path = game_dir / "inbox" / name / "orders.txt"
    if where == "nuls":  # a writer that sets the file's whole size aside first (NULs)
        path.write_bytes(b"\0" * len(block))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(cut), "r+b" if where == "nuls" else "wb"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdin is not None and writer.stdout is not None
    writer.stdin.write(block.hex() + "\n")
    writer.stdin.flush()
    assert writer.stdout.readline().strip() == "part"

    during = out.moderate()

    writer.stdin.write("go\n")
    writer.stdin.flush()
    assert writer.stdout.readline().strip() == "done"
    writer.wait(timeout=30)
    assert during.returncode == 0 and "Traceback" not in during.stderr, during.stderr
    assert path.read_bytes() == block, "the file was taken away while it was written"
    assert notices(game_dir, name) == [], "a file still being written was answered"

    after = out.moderate()

    assert f"inbox/{name}/orders.txt: accepted ({name})" in after.stdout, after.stdout + after.stderr
    assert read(game_dir).turn == 2
    [notice] = notices(game_dir, name)
    assert "Result:   ACCEPTED" in notice


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("", "the file is empty (0 bytes)"),
        ("half", "The file ends before the block's END line: it was cut off."),
    ],
)
def test_a_file_unfinished_for_a_minute_is_answered_saying_what_it_looks_like(
    root: Path, keys: dict[str, Identity], content: str, said: str
) -> None:
    """The writer stopped for good: once the file has not changed for a minute, it is
    answered, saying it is empty or cut off and to drop the whole file again (not the
    mail advice the reader gives a mailed block)."""
    from .modkit import new_game

    game_dir = new_game(root, keys, "g1")
    later = [0]
    moderator = Moderator(
        root,
        keys["moderator"],
        clock=FixedClock(T0 + 60),
        settle=0,
        real_ns=lambda: time.time_ns() + later[0],
    )
    moderator.run_pass()
    [name] = awaited(game_dir)
    block = order_block(game_dir, keys, name)
    drop(game_dir, name, "orders.txt", block[: len(block) // 2] if content else "")
    assert moderator.run_pass().games[0].notices == ()

    later[0] = 61 * 1_000_000_000
    result = moderator.run_pass().games[0]

    assert result.notices == ("malformed",)
    [notice] = notices(game_dir, name)
    flat = " ".join(notice.split())
    assert " ".join(said.split()) in flat, notice
    assert "drop the whole signed file again" in flat and "attachment" not in flat, notice
    assert not (game_dir / "inbox" / name / "orders.txt").exists()
