"""The shared folder and the moderator's state on a really full disk, for a whole pass
(twelfth session, file-system faults).

The root and the state folder sit on a small tmpfs, filled up to leave 0, 1, 2 ... pages
free before a pass over two games whose inboxes hold the awaited orders and a junk file, so
the kernel answers ``ENOSPC`` wherever the pass's writes stop fitting: its intent record,
the engine's save, a notice, a report link, the end record, the local index.  The pass must
return (no exception; a game that could not be finished carries the error), and once space is
freed the next passes must carry on by themselves: every order counted exactly once, every
junk file answered once and gone from the inbox, both games at turn 2, each save loading and
verifying.  Skipped, with the reason, where mounting a tmpfs is not permitted; the mount is
always undone.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from pbem.engine import GameFolder
from pbem.errors import PbemError
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.moderator.results import GameResult, PassResult
from pbem.timing import FixedClock

from .modkit import T0, awaited, drop, new_game, order_block, read

GAMES = ("alpha", "beta")


def _template(tmp_path: Path, keys: dict[str, Identity]) -> Path:
    """Two games at turn 1 (their reports handed out by a first pass), each inbox holding
    the awaited seat's orders and a junk file."""
    base = tmp_path / "template"
    root = base / "root"
    root.mkdir(parents=True)
    for label in GAMES:
        new_game(root, keys, label, home=base / "create-home")
    Moderator(
        root, keys["moderator"], clock=FixedClock(T0 + 60), settle=0, state_dir=base / "state"
    ).run_pass()
    for label in GAMES:
        game = root / label
        [name] = awaited(game)
        drop(game, name, "orders.txt", order_block(game, keys, name))
        drop(game, "bob" if name != "bob" else "carol", "junk.txt", "take the seven, please\n")
    return base


def _answers(game: Path) -> list[str]:
    """The notices in the players' folders (not the reports)."""
    return sorted(
        str(p.relative_to(game))
        for p in (game / "players").rglob("*")
        if p.is_file() and not p.name.startswith("report-")
    )


def test_a_pass_on_a_full_disk_then_passes_after_it(
    small_disk: Path, fill_disk: Callable[[Path, int], Path], tmp_path: Path, keys: dict[str, Identity]
) -> None:
    template = _template(tmp_path, keys)
    clean: dict[str, list[str]] = {}
    errors = 0
    for leave in [None, *range(0, 60)]:  # None: the disk not filled (what a pass answers)
        base = small_disk / "w"
        shutil.copytree(template, base)
        root, state = base / "root", base / "state"
        filler = None if leave is None else fill_disk(small_disk, leave)
        clock = FixedClock(T0 + 120)
        try:
            full = Moderator(root, keys["moderator"], clock=clock, settle=0, state_dir=state).run_pass()
        except PbemError as exc:  # its local index, say: pbem moderate --watch says so, goes on
            assert filler is not None, exc
            assert "No space left on device" in exc.message, exc
            full = PassResult((GameResult("index", error=exc.message),), 0.0)
        if filler is not None:
            errors += sum(1 for g in full.games if g.error)
            filler.unlink()  # the disk works again
        for _ in range(3):
            clock.advance(60)
            Moderator(root, keys["moderator"], clock=clock, settle=0, state_dir=state).run_pass()
        for label in GAMES:
            game = root / label
            said = f"{leave} pages free, game {label}"
            save = GameFolder(game, base / "home").read()  # loads and verifies
            assert save.turn == 2, said
            assert not [p for p in (game / "inbox").rglob("*") if p.is_file()], said
            orders = [p.name for p in (game / "orders").rglob("*.txt")]
            assert len(orders) == 1, f"{said}: {orders}"
            answers = _answers(game)
            if label not in clean:
                clean[label] = answers
            assert [a.rsplit("/", 1)[0] for a in answers] == [a.rsplit("/", 1)[0] for a in clean[label]], (
                f"{said}: answered {answers}, a pass with room answers {clean[label]}"
            )
            assert read(game).revision >= 1, said
        shutil.rmtree(base)
        if leave is not None and leave > 10 and not any(g.error for g in full.games):
            break  # room for the whole pass: every later run is the same
    assert errors, "no pass was stopped by the full disk"
