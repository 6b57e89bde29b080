"""What padding costs: bytes per report and per game folder, and time per turn.

Plays the same demo games (same seeds, so the same moves) twice through the real pipeline,
once as shipped and once with padding switched off (``pbem.keys.pad`` replaced by the
identity), and prints for each registered game: the mean size of a player's report, of a
sealed order file and of a save, the whole game folder, and the CPU time per turn (median;
a turn here is the demo's whole cycle: reports read, orders signed and sealed, filed,
resolved, reports written).

    python benchmarks/bench_padding.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pbem.keys
from pbem.demo import run_demo
from pbem.registry import game_names


@contextmanager
def padding_off() -> Iterator[None]:
    """Encrypt without padding (only for this measurement)."""
    saved = pbem.keys.pad
    pbem.keys.pad = lambda data, size: data
    try:
        yield
    finally:
        pbem.keys.pad = saved


def measure(game: str, seeds: range) -> dict[str, float]:
    """Mean sizes (bytes) and median CPU time per turn (ms) over demo games with ``seeds``."""
    reports: list[int] = []
    orders: list[int] = []
    saves: list[int] = []
    folders: list[int] = []
    per_turn: list[float] = []
    for seed in seeds:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "demo"
            start = time.process_time()  # CPU time: the machine may be shared
            result = run_demo(game, None, seed, out, ["greedy", "random"], {}, max_turns=400)
            per_turn.append((time.process_time() - start) / result.turns * 1000)
            folder = out / "game"
            files = [p for p in folder.rglob("*") if p.is_file()]
            folders.append(sum(p.stat().st_size for p in files))
            reports += [
                p.stat().st_size for p in folder.glob("reports/turn-*/*.txt") if p.name != "public.txt"
            ]
            orders += [p.stat().st_size for p in folder.glob("orders/turn-*/*.txt")]
            saves += [p.stat().st_size for p in folder.glob("history/*.json")]
    return {
        "report": statistics.mean(reports),
        "orders": statistics.mean(orders),
        "save": statistics.mean(saves),
        "folder": statistics.mean(folders),
        "ms/turn": statistics.median(per_turn),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="demo games per game and setting")
    args = parser.parse_args()
    seeds = range(1, args.games + 1)
    print(f"{'game':15} {'what':9} {'unpadded':>10} {'padded':>10} {'ratio':>6}")
    for game in game_names():
        with padding_off():
            plain = measure(game, seeds)
        padded = measure(game, seeds)
        for key in plain:
            ratio = padded[key] / plain[key]
            print(f"{game:15} {key:9} {plain[key]:10.1f} {padded[key]:10.1f} {ratio:6.2f}")


if __name__ == "__main__":
    main()
