"""The moderator's idle pass at scale: how long a pass takes when nothing changed, and how
big its index is, for 10,000 or 100,000 games.

    python benchmarks/bench_idle_scale.py [--games 10000,100000] [--dir DIR]

Real games cost about 25 ms each to create, so this builds *stand-in* game folders: the files
and folders an idle pass looks at (``save.json``, ``moderator/record.json``, three players'
inbox folders), empty, and fills the moderator's index as a settled pass would.  An idle
pass opens no game file, so this is what such a pass costs on a real root of that size: a
``scandir`` of the root, a few ``stat`` calls per game, and the index read and kept.
Prints one JSON object per size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

NAMES = ("alice", "bob", "carol")


def stand_ins(root: Path, games: int) -> None:
    """``games`` folders with what an idle pass looks at, nothing else."""
    for i in range(games):
        game = root / f"game-{i:06d}"
        for name in NAMES:
            (game / "inbox" / name).mkdir(parents=True)
        (game / "moderator").mkdir()
        (game / "save.json").write_bytes(b"")
        (game / "moderator" / "record.json").write_bytes(b"")


def measure(games: int, workdir: Path) -> dict[str, object]:
    root = workdir / "root"
    root.mkdir(parents=True)
    start = time.perf_counter()
    stand_ins(root, games)
    built = time.perf_counter() - start
    moderator = Moderator(
        root, Identity.generate("moderator"), clock=FixedClock(1_800_000_000), state_dir=workdir / "state"
    )
    moderator.real_ns = lambda: time.time_ns() + 10**12
    for game in moderator.games():  # as a settled pass leaves the index
        sig, _, _ = moderator.look(game, force=True)
        moderator.index.record(game.name, sig, None, settling=False)
    moderator.index.save()
    fresh = Moderator(root, moderator.identity, clock=moderator.clock, state_dir=workdir / "state")
    start = time.perf_counter()
    loaded_index = Moderator(
        root, moderator.identity, clock=moderator.clock, state_dir=workdir / "state"
    ).index
    load = time.perf_counter() - start
    times = []
    for _ in range(3):
        result = fresh.run_pass()
        assert result.looked_at == 0, "an idle pass looks at no game"
        times.append(result.seconds)
    return {
        "games": games,
        "stand_ins_built_seconds": round(built, 1),
        "idle_pass_seconds": round(min(times), 3),
        "idle_pass_us_per_game": round(min(times) / games * 1e6, 1),
        "index_bytes": fresh.index.path.stat().st_size,
        "index_bytes_per_game": round(fresh.index.path.stat().st_size / games),
        "index_load_seconds": round(load, 3),
        "index_entries": len(loaded_index.entries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10000,100000")
    parser.add_argument(
        "--dir", type=Path, default=None, help="Where to build (default: a temporary folder)."
    )
    args = parser.parse_args()
    for count in (int(x) for x in args.games.split(",")):
        work = Path(tempfile.mkdtemp(prefix="pbem-scale-", dir=args.dir))
        try:
            print(json.dumps(measure(count, work)))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        os.sync()


if __name__ == "__main__":
    main()
