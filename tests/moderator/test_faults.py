"""Fault tests: kill the moderator at many points and restart it; run two at once.

A run is killed at its N-th durable step (every atomic write and removal of the moderator
and of the engine counts; see pbem.moderator.durable), in a forked child so that the kill
is a real end of a process without Python's start-up cost; then a fresh moderator in this
process restarts the same script.  Every restarted run must end exactly where an
uninterrupted run ends: no order lost or applied twice (same save revision, same accepted
order files, same notices), every game valid.  PBEM_FAULT_POINTS sets how many points
(default 100); a few more runs kill a real ``python`` process with SIGKILL at random times.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.keys import Identity
from pbem.moderator import durable

from .faultkit import killed_after, load_keys, outcome, prepare, script

POINTS = int(os.environ.get("PBEM_FAULT_POINTS", "100"))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fault-base")
    keys = {name: Identity.generate(name) for name in ("moderator", "alice", "bob", "carol", "mallory")}
    prepare(folder / "root", keys, folder / "keys")
    return folder


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed process loses nothing the kernel already has: fsync matters only when the
    machine itself goes down, which these tests do not simulate; skipping it saves time."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: None])


def _copy(base: Path, dest: Path) -> tuple[Path, Path]:
    shutil.copytree(base / "root", dest / "root")
    return dest / "root", dest / "state"


def _forked(
    root: Path,
    state: Path,
    keys: dict[str, Identity],
    crash_at: int,
    counter: Path,
    start_round: int = 0,
    snapshots: Path | None = None,
) -> int:
    """Run the script in a child that dies at its ``crash_at``-th step; its exit status.

    With ``snapshots``, the child copies the root and its local state after every round
    (with the steps taken so far), so later runs can start from any round."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            durable.arm(crash_at)

            def keep(round_number: int) -> None:
                assert snapshots is not None
                dest = snapshots / str(round_number)
                shutil.copytree(root, dest / "root")
                shutil.copytree(state, dest / "state")
                (dest / "steps").write_text(str(durable.steps_taken()))

            script(root, state, keys, start_round=start_round, on_round=keep if snapshots else None)
            counter.write_text(str(durable.steps_taken()))
        except BaseException:
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.fixture(scope="module")
def reference(
    base: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], int, list[tuple[int, Path]]]:
    """The uninterrupted run's outcome, its step count, and (steps before, copy) per round."""
    keys = load_keys(base / "keys")
    run = tmp_path_factory.mktemp("reference")
    root, state = _copy(base, run)
    snapshots = run / "snapshots"
    shutil.copytree(root, snapshots / "0" / "root")
    (snapshots / "0" / "state").mkdir()
    (snapshots / "0" / "steps").write_text("0")
    counter = run / "steps"
    assert _forked(root, state, keys, 10**9, counter, snapshots=snapshots) == 0
    rounds = sorted(
        ((int((p / "steps").read_text()), p) for p in snapshots.iterdir()), key=lambda item: item[0]
    )
    return outcome(root), int(counter.read_text()), rounds


def test_reference_run_is_what_the_script_means(
    reference: tuple[dict[str, Any], int, list[tuple[int, Path]]],
) -> None:
    result, steps, rounds = reference
    alpha, beta = result["alpha"], result["beta"]
    assert alpha["save"]["turn"] >= 6 and beta["save"]["turn"] >= 6
    assert beta["stand_ins"] >= 2, "alice is played once on her deadline, then at once when abandoned"
    kinds = " ".join(alpha["notices"])
    assert "NOT NEEDED" in kinds and "signature does not match" in kinds and "cannot be read" in kinds
    assert "replaces your earlier orders" in kinds
    assert beta["seats"]["alice"]["abandoned"]
    assert beta["save"]["status"] == ["abandoned", "active", "active"]
    assert not alpha["inbox"] and not alpha["temp"] and not beta["temp"]
    assert steps > 100 and len(rounds) > 5


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_killed_at_any_step_and_restarted_ends_the_same(
    reference: tuple[dict[str, Any], int, list[tuple[int, Path]]], base: Path, tmp_path: Path
) -> None:
    """Kill at POINTS steps spread over the whole script, restart, compare.  Each run starts
    from the copy taken after the last round that ended before its crash step (the same
    state an uninterrupted run had there), so a point costs about one round plus the rest."""
    expected, steps, rounds = reference
    keys = load_keys(base / "keys")
    points = sorted(random.Random(20260301).sample(range(1, steps + 1), min(POINTS, steps)))
    for n in points:
        before, snapshot = max((item for item in rounds if item[0] < n), key=lambda item: item[0])
        run = tmp_path / f"kill-{n}"
        shutil.copytree(snapshot / "root", run / "root")
        shutil.copytree(snapshot / "state", run / "state")
        start = int(snapshot.name)
        code = _forked(run / "root", run / "state", keys, n - before, run / "steps", start_round=start)
        assert code == durable.CRASH_EXIT, f"step {n}: the child should have died there (exit {code})"
        script(run / "root", run / "state", keys, start_round=start)
        assert outcome(run / "root") == expected, (
            f"restart after a kill at step {n} of {steps} ended elsewhere"
        )
        shutil.rmtree(run)


def test_real_process_killed_with_sigkill_at_random_times(
    base: Path, reference: tuple[dict[str, Any], int, list[tuple[int, Path]]], tmp_path: Path
) -> None:
    expected, _, _ = reference
    keys = load_keys(base / "keys")
    rng = random.Random(7)
    for i in range(3):
        run = tmp_path / f"sigkill-{i}"
        root, state = _copy(base, run)
        killed_after(rng.uniform(0.6, 1.6), root, state, base / "keys")
        script(root, state, keys)
        assert outcome(root) == expected, f"restart after SIGKILL #{i} ended elsewhere"


def test_two_moderators_at_once_never_both_advance(base: Path, tmp_path: Path) -> None:
    """Two real processes on the same root and machine: every game advances exactly once."""
    from .modkit import awaited, drop, new_game, order_block, read

    keys = load_keys(base / "keys")
    root = tmp_path / "root"
    games = [new_game(root, keys, f"g{i:02d}", home=tmp_path / "create-home") for i in range(24)]
    for game in games:
        [name] = awaited(game)
        drop(game, name, "orders.txt", order_block(game, keys, name))
    code = (
        "import sys; from pathlib import Path; from pbem.keys import Identity;"
        "from pbem.moderator.core import Moderator;"
        "m = Moderator(Path(sys.argv[1]), Identity.load(sys.argv[2]), state_dir=Path(sys.argv[3]), settle=0);"
        "r = [m.run_pass() for _ in range(3)];"
        "games = [g for p in r for g in p.games];"
        "print(sum(g.advanced for g in games), sum(g.skipped == 'locked' for g in games))"
    )
    key = str(base / "keys" / "moderator.key")
    # Each with its own local state folder: the locks do not depend on it.
    commands = [[sys.executable, "-c", code, str(root), key, str(tmp_path / f"state-{i}")] for i in range(2)]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for command in commands]
    outputs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    advanced = sum(int(out[0]) for out in outputs)
    assert advanced == len(games), f"{advanced} advances for {len(games)} games: {outputs}"
    for game in games:
        save = read(game)
        assert save.turn == 2 and save.revision == 1, "the file filed and its turn resolved once, in one save"
        assert len(list((game / "orders").rglob("*.txt"))) == 1
        texts = [p.read_text() for p in (game / "players").rglob("notice-*")]
        assert len(texts) == 1 and "ACCEPTED" in texts[0]
