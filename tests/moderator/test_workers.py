"""pbem moderate --workers N: games handled by several processes, each under its own lock,
with the same result as one process."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.integrity import FolderLock
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.moderator.record import load_record
from pbem.moderator.workers import can_fork
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block, read

pytestmark = pytest.mark.skipif(not can_fork(), reason="worker processes are forked")


def _ready_root(root: Path, keys: dict[str, Identity], games: int) -> list[Path]:
    """``games`` games under ``root``, each with its awaited orders in the inbox."""
    made = []
    for i in range(games):
        game = new_game(root, keys, f"g{i}")
        for name in awaited(game):
            drop(game, name, "orders.txt", order_block(game, keys, name))
        made.append(game)
    return made


def _public(game: Path) -> dict[str, object]:
    """What a pass decides, without what differs between runs (encryption is random)."""
    body = dict(read(game).body)
    body.pop("secret"), body.pop("prev")  # ciphertext, and the digest of one
    texts = [e["text"] for e in load_record(game).log if isinstance(e, dict)]
    return {"body": body, "journal": texts, "players": sorted(p.name for p in (game / "players").rglob("*"))}


def test_workers_resolve_every_game_as_one_process_does(root: Path, keys, clock: FixedClock) -> None:
    games = _ready_root(root, keys, 4)
    serial_root = root.parent / "serial"
    shutil.copytree(root, serial_root, symlinks=True)
    result = Moderator(root, keys["moderator"], clock=clock, settle=0).run_pass(workers=3)
    serial = Moderator(serial_root, keys["moderator"], clock=clock, settle=0, state_dir=root.parent / "s2")
    alone = serial.run_pass()
    assert [g.game for g in result.games] == ["g0", "g1", "g2", "g3"], "results in the order of the games"
    assert [(g.advanced, g.notices, g.error) for g in result.games] == [
        (g.advanced, g.notices, g.error) for g in alone.games
    ]
    assert result.advanced == 4
    for game in games:
        assert _public(game) == _public(serial_root / game.name)
    # The parent kept the index: once settled, a pass finds nothing to do.
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0, real_ns=lambda: 10**20)
    mod.run_pass(workers=3)
    assert [g.skipped for g in mod.run_pass(workers=3).games] == ["unchanged"] * 4


def test_a_game_another_process_holds_is_skipped_and_looked_at_later(root: Path, keys, clock) -> None:
    games = _ready_root(root, keys, 3)
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0)
    lock = FolderLock(games[1])
    with lock.hold(0) as mine:
        assert mine
        first = mod.run_pass(workers=2)
    assert [g.skipped for g in first.games] == [None, "locked", None]
    assert [g.advanced for g in first.games] == [1, 0, 1]
    second = mod.run_pass(workers=2)
    assert second.games[1].advanced == 1 and read(games[1]).turn == 2


def test_a_dying_worker_costs_only_this_pass(root: Path, keys, clock, monkeypatch) -> None:
    games = _ready_root(root, keys, 3)
    real_work = Moderator.work

    def dies_on_g1(self: Moderator, game_dir: Path, now: int):
        if game_dir.name == "g1":
            os._exit(9)  # as a kill would (the worker is a forked child)
        return real_work(self, game_dir, now)

    monkeypatch.setattr(Moderator, "work", dies_on_g1)
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0)
    result = mod.run_pass(workers=2)  # never raises
    assert "worker process died" in (result.games[1].error or "")
    monkeypatch.setattr(Moderator, "work", real_work)
    mod.run_pass(workers=2)
    assert [read(g).turn for g in games] == [2, 2, 2], "every game resolved on the next pass"


def test_cli_workers_option(root: Path, keys, tmp_path: Path) -> None:
    _ready_root(root, keys, 2)
    keyfile = tmp_path / "mod.key"
    keys["moderator"].save(keyfile)
    runner = CliRunner()
    done = runner.invoke(
        main, ["moderate", str(root), "--key", str(keyfile), "--settle", "0", "--workers", "2"]
    )
    assert done.exit_code == 0, done.output
    assert [read(root / g).turn for g in ("g0", "g1")] == [2, 2]
    bad = runner.invoke(main, ["moderate", str(root), "--key", str(keyfile), "--workers", "0"])
    assert bad.exit_code == 2 and "--workers" in bad.output


def test_cli_workers_auto_and_refusals(root: Path, keys, tmp_path: Path) -> None:
    from pbem.moderator.workers import AUTO_CAP, auto_workers

    assert [auto_workers(c) for c in (None, 1, 2, 3, 4, 64)] == [2, 2, 4, 6, AUTO_CAP, AUTO_CAP]
    _ready_root(root, keys, 2)
    keyfile = tmp_path / "mod.key"
    keys["moderator"].save(keyfile)
    runner = CliRunner()
    done = runner.invoke(
        main, ["moderate", str(root), "--key", str(keyfile), "--settle", "0", "--workers", "AUTO"]
    )
    assert done.exit_code == 0, done.output
    assert [read(root / g).turn for g in ("g0", "g1")] == [2, 2]
    for value, said in (("65", "1 to 64"), ("two", "'two' is not a number"), ("9" * 5000, "is not a number")):
        bad = runner.invoke(main, ["moderate", str(root), "--key", str(keyfile), "--workers", value])
        assert bad.exit_code == 2 and said in bad.output and len(bad.output) < 2000, bad.output
