"""Benchmark of the shared-folder moderator: a root of many games with every order in.

    python benchmarks/bench_moderator.py [--games 1000] [--keep DIR] [--workers 1,2,4,8]

Creates N three-player Symbiote games (real keys, real signed and sealed order files from
each awaited player's decrypted report), then measures:

* one pass that files every order and resolves every game's turn (games per second);
* a pass when nothing changed (after the index has settled): its time, and how many files
  it opens and stats (it must not read every game);
* a pass after one game's inbox changed.

With ``--workers``, instead: one pass with all orders in for each number of worker
processes (``pbem moderate --workers N``), each on its own copy of the same games.

Prints one JSON object.  Everything runs in a temporary folder (or ``--keep DIR``).
"""

from __future__ import annotations

import argparse
import builtins
import io
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import parse_report
from pbem.rng import Rng, seeded_entropy
from pbem.timing import FixedClock

T0 = 1_800_000_000


def _entropy(label: str) -> Callable[[int], bytes]:
    """A deterministic os.urandom stand-in: the same label plays the same game."""
    return seeded_entropy(f"bench/{label}")


@contextmanager
def counting() -> Iterator[dict[str, int]]:
    """Count file opens and stats made inside the block (Python-level calls)."""
    counts = {"open": 0, "stat": 0, "scandir": 0}
    real_open, real_io_open, real_os_open = builtins.open, io.open, os.open
    real_stat, real_scandir = os.stat, os.scandir

    def wrap(fn: Callable[..., Any], key: str) -> Callable[..., Any]:
        def inner(*args: Any, **kwargs: Any) -> Any:
            counts[key] += 1
            return fn(*args, **kwargs)

        return inner

    builtins.open = wrap(real_open, "open")
    io.open = wrap(real_io_open, "open")
    os.open = wrap(real_os_open, "open")
    os.stat = wrap(real_stat, "stat")
    os.scandir = wrap(real_scandir, "scandir")
    try:
        yield counts
    finally:
        builtins.open, io.open, os.open = real_open, real_io_open, real_os_open
        os.stat, os.scandir = real_stat, real_scandir


def build(root: Path, games: int, keys: dict[str, Identity]) -> float:
    """Create the games and drop each awaited player's orders; returns seconds taken."""
    start = time.perf_counter()
    names = ("alice", "bob", "carol")
    for i in range(games):
        label = f"game-{i:05d}"
        folder = GameFolder.create(
            root / label,
            "symbiote",
            keys["moderator"],
            [keys[n].public() for n in names],
            {"dealer": "last-seat"},
            now=datetime.fromtimestamp(T0, UTC),
            entropy=_entropy(label),
            home=root.parent / "create-home",
        )
        save = folder.read()
        for seat in save.awaiting:
            name = save.names[seat]
            path = folder.reports_dir(save.turn) / f"{name}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), keys[name])
            lines = bot_orders(report, "greedy", Rng(f"bench/{label}/{name}".encode()))
            block = seal(sign(keys[name], form_header(report), lines), [keys["moderator"].public()])
            inbox = root / label / "inbox" / name
            inbox.mkdir(parents=True, exist_ok=True)
            (inbox / "orders.txt").write_text(block, encoding="utf-8")
            past = time.time() - 600
            os.utime(inbox / "orders.txt", (past, past))
    return time.perf_counter() - start


def run(games: int, workdir: Path) -> dict[str, Any]:
    keys = {n: Identity.generate(n) for n in ("moderator", "alice", "bob", "carol")}
    root = workdir / "root"
    root.mkdir(parents=True)
    setup = build(root, games, keys)
    clock = FixedClock(T0 + 60)
    moderator = Moderator(root, keys["moderator"], clock=clock, state_dir=workdir / "state", settle=0)
    full = moderator.run_pass()
    assert full.advanced == games, f"only {full.advanced} of {games} games advanced"
    # Let the index settle: the first pass records signatures taken before its own writes,
    # and files touched within the settle horizon are looked at once more.
    moderator.real_ns = lambda: time.time_ns() + 10**12
    settle = moderator.run_pass()
    moderator.run_pass()
    with counting() as counts:
        idle = moderator.run_pass()
    looked = idle.looked_at
    first = sorted(root.iterdir())[games // 2]
    (first / "inbox" / "alice" / "hello.txt").write_text("not an order\n")
    os.utime(first / "inbox" / "alice" / "hello.txt", (time.time() - 600,) * 2)
    one = moderator.run_pass()
    return {
        "games": games,
        "setup_seconds": round(setup, 2),
        "full_pass_seconds": round(full.seconds, 3),
        "games_per_second": round(games / full.seconds, 1),
        "ms_per_game": round(1000 * full.seconds / games, 2),
        "settling_pass_seconds": round(settle.seconds, 3),
        "unchanged_pass_seconds": round(idle.seconds, 4),
        "unchanged_pass_games_looked_at": looked,
        "unchanged_pass_opens": counts["open"],
        "unchanged_pass_stats": counts["stat"],
        "unchanged_pass_scandirs": counts["scandir"],
        "one_changed_game_pass_seconds": round(one.seconds, 4),
        "one_changed_game_looked_at": one.looked_at,
    }


def scaling(games: int, workers: list[int], workdir: Path) -> dict[str, Any]:
    """One full pass (all orders in) per worker count, each on a fresh copy of the same
    ``games`` games; then, on the last copy, a pass when nothing changed.

    The copies are removed only after the last pass: on ext4 without a journal every file
    created passes over the inodes freed in the last minutes, so a copy removed between two
    passes slowed the later ones (docs/scaling.md)."""
    keys = {n: Identity.generate(n) for n in ("moderator", "alice", "bob", "carol")}
    template = workdir / "template"
    template.mkdir(parents=True)
    setup = build(template, games, keys)
    rows = []
    idle: dict[str, Any] = {}
    copies = [workdir / f"pass-{number}-workers-{count}" for number, count in enumerate(workers)]
    for count, copy in zip(workers, copies, strict=True):
        shutil.copytree(template, copy / "root", symlinks=True)
        os.sync()  # the copy's writes are not charged to the pass
        moderator = Moderator(
            copy / "root", keys["moderator"], clock=FixedClock(T0 + 60), state_dir=copy / "state", settle=0
        )
        result = moderator.run_pass(workers=count)
        assert result.advanced == games, f"only {result.advanced} of {games} games advanced"
        rows.append(
            {
                "workers": count,
                "seconds": round(result.seconds, 3),
                "games_per_second": round(games / result.seconds, 1),
            }
        )
        if count == workers[-1]:
            moderator.real_ns = lambda: time.time_ns() + 10**12
            moderator.run_pass()
            moderator.run_pass()
            times = [moderator.run_pass().seconds for _ in range(3)]
            idle = {"unchanged_pass_seconds": round(min(times), 4)}
    for copy in copies:
        shutil.rmtree(copy, ignore_errors=True)
    base = rows[0]["seconds"]
    for row in rows:
        row["speed_up"] = round(base / row["seconds"], 2)
    return {"games": games, "setup_seconds": round(setup, 1), "passes": rows, **idle}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--keep", type=Path, default=None, help="Work in this (new) folder and keep it.")
    parser.add_argument(
        "--workers", default=None, help="Worker counts to compare, e.g. 1,2,4,8 (a full pass each)."
    )
    parser.add_argument(
        "--no-fsync",
        action="store_true",
        help="Skip fsync (shows the CPU cost; a real moderator always syncs).",
    )
    parser.add_argument(
        "--barrier",
        choices=("syncfs", "fsync"),
        default="syncfs",
        help="How the moderator's group commit syncs: one syncfs (default) or an fsync a file.",
    )
    args = parser.parse_args(argv)
    if args.no_fsync:
        os.fsync = lambda fd: None
    try:
        from pbem.moderator import durable

        durable.USE_SYNCFS = args.barrier == "syncfs"
    except (ImportError, AttributeError):
        pass  # a moderator before the group commit
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    os.environ.setdefault("PBEM_HOME", str(workdir / "home"))
    try:
        if args.workers:
            counts = [int(x) for x in args.workers.split(",")]
            result = scaling(args.games, counts, workdir)
        else:
            result = run(args.games, workdir)
        result["fsync"] = not args.no_fsync
        result["barrier"] = args.barrier
        print(json.dumps(result, indent=2))
    finally:
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
