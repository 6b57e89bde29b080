"""The moderator's own journal (``moderator/record.json``) brought back by a sync tool as an
older copy (twelfth session's sync review): a copy taken while a pass was resolving a
turn holds that pass's unfinished advance (the stand-in played a silent seat: its missed
turn, the new turn's clock).  Put back turns later, it was finished again: the missed turn
counted twice (the seat marked abandoned), the current turn's clock set back to the old
time, so its deadline had passed and the stand-in played it at once, an hour into a
48-hour turn.

In-process (the game's clock must be moved by hours); the copy is taken from the pass's
own write of the record."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import T0, awaited, drop, new_game, order_block, read
from .test_moderator import H, timing


def _intent_copy(monkeypatch: pytest.MonkeyPatch, copies: list[bytes]) -> None:
    """Keep a copy of the first record written with an unfinished advance (what a sync
    tool copying the folder at that moment carries to another machine)."""
    real = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        real(src, dst)
        if Path(dst).name == "record.json" and not copies:
            data = Path(dst).read_bytes()
            if json.loads(data).get("advancing"):
                copies.append(data)

    monkeypatch.setattr(os, "replace", replace)


def test_an_old_record_with_an_unfinished_advance_changes_nothing_turns_later(
    root: Path, keys: dict[str, Identity], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(root, keys, "g1", toml=timing("default", abandon=2))
    clock = FixedClock(T0 + 60)
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    [silent] = awaited(game)
    copies: list[bytes] = []
    _intent_copy(monkeypatch, copies)
    clock.advance(55 * H)  # past the deadline and the grace: the stand-in plays the seat
    moderator.run_pass()
    monkeypatch.undo()
    assert read(game).turn == 2 and len(copies) == 1
    for _ in range(3):  # three turns played on time, 20 hours apart
        clock.advance(20 * H)
        for name in awaited(game):
            drop(game, name, f"t{read(game).turn}.txt", order_block(game, keys, name))
        moderator.run_pass()
    turn = read(game).turn
    before = load_record(game)
    assert turn == 5 and before.clock is not None and before.clock.turn == turn
    assert before.seat(silent).missed_total == 1

    path = game / "moderator" / "record.json"
    path.write_bytes(copies[0])  # the sync tool brings the old copy back, with its old time
    os.utime(path, (T0, T0))
    clock.advance(H)
    moderator.run_pass()

    after = load_record(game)
    assert read(game).turn == turn, "the turn was resolved an hour into its 48 hours"
    # not counted again (the old copy's counts, from before that miss, may be what is left)
    assert after.seat(silent).missed_total <= 1 and not after.seat(silent).abandoned, after.seat(silent)
    assert after.clock is not None and after.clock.started >= before.clock.started, (
        "the deadline came earlier"
    )
    assert any("an older copy of the record" in line for line in after.lines), after.lines[-4:]
