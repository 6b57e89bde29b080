"""How long ``pbem archive`` takes on large finished games, and how big its files are.

Issue 11 asks that a Symbiote game of 100+ steps and a Jovian Syzygy game of 100 rounds
archive in under 2 s with the HTML under a few MB.  The games are played through the real
pipeline (keys, signed and sealed orders, encrypted reports, a real folder): Symbiote by
four greedy bots with the double deck, Jovian Syzygy by four players who always ``pass``
(so nobody reaches 16 Psi and the round cap of 100 ends it).  The time is the whole
archive: read and verify every signed save, re-play, compare, render HTML and text, write.

    python benchmarks/bench_archive.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem.archive.write import archive_game
from pbem.demo import run_demo
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import form_header
from pbem.reports import parse_report
from pbem.rng import seeded_entropy

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def passing_jovian(root: Path, rounds: int) -> Path:
    """A 4-player Jovian Syzygy game where everyone passes until the round cap ends it."""
    moderator = Identity.generate("moderator")
    seats = [Identity.generate(n) for n in ("alice", "bob", "carol", "dave")]
    folder = GameFolder.create(
        root / "jovian",
        "jovian-syzygy",
        moderator,
        [s.public() for s in seats],
        {"max-rounds": str(rounds), "at-cap": "highest"},
        now=NOW,
        entropy=seeded_entropy("bench-archive"),
        home=root / "home",
    )
    clock = NOW
    while (save := folder.read()).body["outcome"] is None:
        for seat in save.awaiting:
            path = folder.reports_dir(save.turn) / f"{seats[seat].name}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), seats[seat])
            block = seal(sign(seats[seat], form_header(report), ["pass"]), [report.moderator])
            folder.submit(block, moderator, source="orders.txt", now=clock)
        clock += timedelta(hours=1)
        folder.advance(moderator, now=clock)
    return folder.path


def measure(folder: Path, out: Path, repeat: int) -> tuple[float, int, int, int]:
    """Median seconds of ``repeat`` whole archives; HTML bytes, text bytes, turns."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        written = archive_game(folder, out)
        times.append(time.perf_counter() - start)
    assert written.html is not None and written.text is not None
    turns = GameFolder(folder).read().turn
    return statistics.median(times), written.html.stat().st_size, written.text.stat().st_size, turns


def archive_rows(quick: bool = False) -> list[str]:
    """The benchmark's lines (also printed by benchmarks/run.py)."""
    rounds = 20 if quick else 100
    repeat = 1 if quick else 3
    lines = []
    with tempfile.TemporaryDirectory(prefix="pbem-bench-archive-") as tmp:
        root = Path(tmp)
        symbiote = run_demo("symbiote", 4, 11, root / "symbiote", ("greedy",), {"all-night-lab": True}).folder
        jovian = passing_jovian(root, rounds)
        for label, folder in (("Symbiote, 4 players, double deck", symbiote), ("Jovian Syzygy", jovian)):
            seconds, html, text, turns = measure(folder, root / "out", repeat)
            lines.append(
                f"   {label:34s} {turns - 1:4d} turns: {seconds:5.2f} s, HTML {html / 1e6:4.2f} MB, "
                f"text {text / 1e6:4.2f} MB"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short Jovian game (a smoke run)")
    args = parser.parse_args()
    print("pbem archive of a finished game (verify every save, re-play, render, write; median)")
    for line in archive_rows(args.quick):
        print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
