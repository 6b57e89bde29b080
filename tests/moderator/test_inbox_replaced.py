"""An inbox file saved again under the same name while the moderator handles it is kept.

The pass reads an entry, answers it, and removes it by name only after its barrier; a player
who saves corrected orders under the same name in between (a new file, or the old one
rewritten in place) used to lose them: the new file was deleted unread, with no notice and
no copy.  Now the removal checks that the name still holds the entry that was read (same
file, size and modification time); a changed one stays in the inbox and the next pass reads
and answers it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block, read


def _replace_during_submit(monkeypatch: pytest.MonkeyPatch, path: Path, text: str, in_place: bool) -> None:
    real = GameFolder.submit

    def submit(self: GameFolder, *args: Any, **kwargs: Any) -> Any:
        receipt = real(self, *args, **kwargs)
        if in_place:
            with open(path, "w", encoding="utf-8") as handle:  # the same file, rewritten
                handle.write(text)
        else:  # a new file renamed over the name, as most editors and sync tools save
            path.with_name("new.tmp").write_text(text, encoding="utf-8")
            os.replace(path.with_name("new.tmp"), path)
        return receipt

    monkeypatch.setattr(GameFolder, "submit", submit)


def _orders_dropped(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, Moderator, Path]:
    """A game whose turn-1 reports were handed out, with the awaited seat's orders dropped."""
    game = new_game(root, keys, "g1")
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    name = awaited(game)[0]
    return game, moderator, drop(game, name, "orders.txt", order_block(game, keys, name))


@pytest.mark.parametrize("in_place", [False, True])
def test_a_file_saved_again_while_handled_stays_for_the_next_pass(
    root: Path, keys: dict[str, Identity], clock: FixedClock, monkeypatch: pytest.MonkeyPatch, in_place: bool
) -> None:
    game, moderator, path = _orders_dropped(root, keys, clock)
    corrected = "corrected orders, saved while the moderator worked\n"
    _replace_during_submit(monkeypatch, path, corrected, in_place)
    before = read(game).revision
    moderator.run_pass()
    monkeypatch.undo()
    assert read(game).revision == before + 1, "the file that was read is filed"
    assert path.read_text(encoding="utf-8") == corrected, "the file saved meanwhile is not deleted unread"
    moderator.run_pass()
    assert not path.exists(), "the next pass reads it, answers it and takes it out of the inbox"
    kept = [p for p in moderator.state_dir.rglob("*") if p.is_file() and p.read_bytes() == corrected.encode()]
    assert kept, "a refused file is kept in the quarantine"


def test_an_unchanged_file_is_removed_after_its_answer(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    _, moderator, path = _orders_dropped(root, keys, clock)
    moderator.run_pass()
    assert not path.exists()
