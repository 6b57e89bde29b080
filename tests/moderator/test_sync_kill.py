"""The moderator killed (SIGKILL) at random times and started again, with what sync tools
and systems leave in the inboxes (twelfth session's sync review): their temporary files,
a conflict copy with other orders under the same Seq, one with the same orders, files a
system makes in every folder.  Every restarted run must end where an uninterrupted run
ends (tests/moderator/faultkit.py: the same saves, accepted order files, notices, reports
and inbox), and the sync tools' files must be where they were."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem.keys import Identity
from pbem.moderator import durable

from .faultkit import killed_after, load_keys, outcome, prepare, script
from .modkit import awaited, drop, order_block

LEFT_ALONE = (".syncthing.t1.txt.tmp", "~syncthing~t1.txt.tmp", "t1.txt.partial", "desktop.ini", "Thumbs.db")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sync-kill-base")
    keys = {name: Identity.generate(name) for name in ("moderator", "alice", "bob", "carol", "mallory")}
    root = folder / "root"
    os.environ.setdefault("PBEM_HOME", str(folder / "home"))
    prepare(root, keys, folder / "keys")
    game = root / "alpha"
    [name] = awaited(game)
    block = order_block(game, keys, name, sealed=False)
    for temp in LEFT_ALONE:
        drop(game, name, temp, block[: len(block) // 2], age=130)
    other = order_block(game, keys, name, sealed=False, lines=["draw", "# changed on the laptop"])
    drop(game, name, "t1.sync-conflict-20261124-101112-ABCDEFG.txt", other, age=115)
    drop(game, name, "t1 (alice's conflicted copy 2026-11-24).txt", block, age=112)
    return folder


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed process loses nothing the kernel has: fsync matters only when the machine
    itself goes down, which this test does not simulate."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: None])


def _copy(base: Path, dest: Path) -> tuple[Path, Path]:
    shutil.copytree(base / "root", dest / "root")
    return dest / "root", dest / "state"


@pytest.fixture(scope="module")
def expected(base: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    run = tmp_path_factory.mktemp("sync-kill-reference")
    root, state = _copy(base, run)
    script(root, state, load_keys(base / "keys"))
    return outcome(root)


def test_the_reference_run_files_the_conflict_copy_once_and_leaves_sync_files(
    base: Path, expected: dict[str, Any]
) -> None:
    alpha = expected["alpha"]
    assert isinstance(alpha, dict)
    inbox = alpha["inbox"]
    name = next(p.split("/")[1] for p in inbox)
    assert sorted(inbox) == sorted(f"inbox/{name}/{t}" for t in LEFT_ALONE), inbox
    results = [n.split("Result:", 1)[1].strip() for n in alpha["notices"] if " turn 0001: " in n]
    # t1.txt, then t1-better.txt (Seq 2) replaces it; the copies: the same orders (t1-copy,
    # the conflicted copy) and other orders under Seq 1 (the sync-conflict copy)
    assert results.count("ACCEPTED") == 1, results
    assert sum(r.startswith("ACCEPTED (replaces") for r in results) == 1, results
    assert results.count("NOT NEEDED: already accepted; nothing changed") == 2, results
    assert results.count("REJECTED: an old or replayed order file") == 1, results


def test_killed_at_random_times_with_sync_files_ends_the_same(
    base: Path, expected: dict[str, Any], tmp_path: Path
) -> None:
    keys = load_keys(base / "keys")
    rng = random.Random(12)
    for i in range(4):
        run = tmp_path / f"sigkill-{i}"
        root, state = _copy(base, run)
        killed_after(
            rng.uniform(0.4, 1.6), root, state, base / "keys"
        )  # a random instant: what a kill at any time means
        script(root, state, keys)
        assert outcome(root) == expected, f"restart after SIGKILL #{i} ended elsewhere"
