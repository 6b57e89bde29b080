"""An inbox file whose read fails with a disk error is the disk's fault, not the file's
(twelfth session, file-system faults).

A failing disk or a network share that drops out (``EIO``, ``ESTALE``, ``ETIMEDOUT``, no file
descriptor left) used to make the moderator take a player's good orders for an unreadable
file: moved to the quarantine, and the player told "it cannot be read (Input/output error)",
so they were not counted.  Now the pass leaves the file where it is, the game's result
carries the error, and the next pass, the disk working again, counts the orders.  A file the
moderator may not open (mode 000: ``EACCES``) is still the file's own fault, set aside with a
notice (tests/moderator/test_hostile.py).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import pbem.moderator.quarantine
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block, read


def _notices(game: Path) -> list[str]:
    return [
        p.read_text(encoding="utf-8")
        for p in (game / "players").rglob("*")
        if p.is_file() and not p.name.startswith("report-")
    ]


@pytest.mark.parametrize("code", [errno.EIO, errno.ESTALE, errno.ETIMEDOUT, errno.EMFILE])
@pytest.mark.parametrize("where", ["open", "read"])
def test_a_disk_error_reading_orders_leaves_them_for_the_next_pass(
    root: Path,
    keys: dict[str, Identity],
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    code: int,
    where: str,
) -> None:
    game = new_game(root, keys, "g1")
    other = new_game(root, keys, "g2")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()  # the first reports handed out
    [name] = awaited(game)
    orders = drop(game, name, "orders.txt", order_block(game, keys, name))
    [name2] = awaited(other)
    drop(other, name2, "orders.txt", order_block(other, keys, name2))
    turn = read(game).turn
    real_open, real_read = os.open, pbem.moderator.quarantine.read_fd

    def failing_open(path: object, *args: object, **kwargs: object) -> int:
        if where == "open" and str(path) == str(orders):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    def failing_read(fd: int, limit: int) -> bytes:
        if where == "read" and os.path.samestat(os.fstat(fd), orders.stat()):
            raise OSError(code, os.strerror(code))
        return real_read(fd, limit)

    monkeypatch.setattr(os, "open", failing_open)
    monkeypatch.setattr(pbem.moderator.quarantine, "read_fd", failing_read)
    clock.advance(60)
    failed = {g.game: g for g in moderator.run_pass().games}
    assert orders.exists(), "the orders stay in the inbox"
    assert not _notices(game), "no answer: the file was not read"
    assert failed["g1"].error and os.strerror(code) in failed["g1"].error, failed["g1"]
    assert read(other).turn == read(other).turn and failed["g2"].error is None, "the other game went on"
    monkeypatch.undo()
    clock.advance(60)
    moderator.run_pass()
    assert not orders.exists()
    assert read(game).turn == turn + 1, "counted once the disk works"
    assert not any("cannot be read" in text or "cannot be opened" in text for text in _notices(game))
