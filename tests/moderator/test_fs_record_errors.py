"""A disk error reading a game's moderator record keeps the record (twelfth session, found
by the file-system faults review and fixed by the lead).

``moderator/record.json`` holds the turn clock, the reminders sent, the missed turns and the
inbox files already answered.  A read that the disk failed for a moment (``EIO``, a network
share that dropped out) was taken for a damaged record: the pass rebuilt it from the save
and wrote the fresh one over it, so the turn clock restarted and the missed turns and the
answered files were forgotten.  Now the pass leaves that game for the next pass (its result
says why) with the record as it was; the other games go on.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import pbem.moderator.record
from pbem.keys import Identity
from pbem.moderator.config import RootConfig
from pbem.moderator.core import Moderator
from pbem.moderator.journal import read_entries
from pbem.moderator.overview import game_line
from pbem.moderator.record import load_record, record_path
from pbem.timing import FixedClock

from .modkit import new_game


@pytest.mark.parametrize("code", [errno.EIO, errno.ESTALE, errno.ETIMEDOUT])
def test_a_disk_error_on_the_record_keeps_it(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    game = new_game(root, keys, "g1")
    other = new_game(root, keys, "g2")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    before = record_path(game).read_bytes()
    started = load_record(game).clock
    assert started is not None
    clock.advance(3600)
    real = pbem.moderator.record.read_untrusted

    def failing(path: Path, limit: int, follow_links: bool = False) -> tuple[bytes, int]:
        if Path(path) == record_path(game):
            raise OSError(code, os.strerror(code), str(path))
        return real(path, limit, follow_links)

    monkeypatch.setattr(pbem.moderator.record, "read_untrusted", failing)
    results = {r.game: r for r in moderator.run_pass(force=True).games}
    assert "cannot read the moderator's record" in (results["g1"].error or ""), results["g1"]
    assert results["g2"].error is None, results["g2"]
    line = game_line(game, clock.now(), RootConfig.load(root), None)
    assert line.problem is not None and "cannot read the moderator's record" in line.problem
    monkeypatch.setattr(pbem.moderator.record, "read_untrusted", real)
    assert record_path(game).read_bytes() == before, "the record was rebuilt over"
    moderator.run_pass(force=True)  # the disk works again
    assert load_record(game).clock == started, "the turn clock restarted"
    kinds = [e.kind for e in read_entries(load_record(game).log)]
    assert "repaired" not in kinds and kinds.count("turn-started") == 1, kinds
    assert other.exists()
