"""All of pbem's benchmarks in one run: ``python benchmarks/run.py`` (``--quick`` for a smoke run).

Every number is paired with a reference measured in the same run on the same machine, so
ratios stay meaningful on a noisy machine:

1. a 4-player Symbiote turn through the real pipeline (submit: unseal, verify, validate,
   save; advance: resolve, save, render and encrypt five reports, sign) against the raw cost
   of the crypto that turn needs (the same age and Ed25519 operations on data of the same
   size, nothing else);
2. engine-only games per second for every installed game (setup, random bots, validate,
   resolve; no files, no crypto);
3. a whole ``pbem demo`` game's wall time;
4. ``pbem --help`` start-up against bare ``python -c "import click"``.
5. ``pbem archive`` of a large finished game (Symbiote 100+ steps, Jovian Syzygy 100 rounds).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from pbem import canonical
from pbem.demo import run_demo
from pbem.engine import GameFolder
from pbem.game import OrderLine
from pbem.keys import ORDERS_DOMAIN, REPORT_DOMAIN, SAVE_DOMAIN, Identity, encrypt
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.registry import game_names, get_game
from pbem.reports import parse_report
from pbem.rng import Rng

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def turn_cost(turns: int, where: str | None, label: str) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-", dir=where))
    try:
        moderator = Identity.generate("moderator")
        seats = [Identity.generate(n) for n in ("alice", "bob", "carol", "dave")]
        folder = GameFolder.create(
            tmp / "game", "symbiote", moderator, [s.public() for s in seats], {}, now=NOW, home=tmp / "home"
        )
        submit_t, advance_t, sizes = [], [], []
        for turn in range(turns):
            save = folder.read()
            if save.body["outcome"] is not None:
                break
            blocks = []
            for seat in save.awaiting:
                path = folder.reports_dir(save.turn) / f"{seats[seat].name}.txt"
                report = parse_report(path.read_text(), str(path), seats[seat])
                lines = bot_orders(report, "greedy", Rng(f"b{turn}{seat}".encode()))
                blocks.append(seal(sign(seats[seat], form_header(report), lines), [report.moderator]))
            start = time.perf_counter()
            for block in blocks:
                folder.submit(block, moderator, source="orders.txt", now=NOW)
            middle = time.perf_counter()
            folder.advance(moderator, now=NOW)
            end = time.perf_counter()
            submit_t.append((middle - start) / max(1, len(blocks)))
            advance_t.append(end - middle)
            sizes.append((len(save.body["secret"]), len(blocks)))
        full = statistics.median(s + a for s, a in zip(submit_t, advance_t, strict=True))

        # The crypto floor of one such turn, on data of the same sizes.
        loaded = folder.load(moderator)
        secret_plain = canonical.dumps(loaded.secret.to_json(loaded.save.game_id, loaded.save.revision))
        body_bytes = canonical.dumps(loaded.save.body)
        order_text = b"x" * 200
        order_sig = seats[0].sign(ORDERS_DOMAIN, order_text)
        sealed_order = encrypt(order_text, [moderator.public()])
        private_plain = b"y" * 900
        card, mod_card = seats[0].public(), moderator.public()
        sealed_secret = encrypt(secret_plain, [mod_card])

        def floor() -> None:
            # submit: open the sealed order, verify it, load the save (verify + decrypt), write it.
            moderator.decrypt(sealed_order)
            card.verify(ORDERS_DOMAIN, order_text, order_sig)
            mod_card.verify(SAVE_DOMAIN, body_bytes, moderator.sign(SAVE_DOMAIN, body_bytes))
            moderator.decrypt(sealed_secret)
            encrypt(secret_plain, [mod_card])
            moderator.sign(SAVE_DOMAIN, body_bytes)
            # advance: load and write the save again, four private parts, five report signatures.
            moderator.decrypt(sealed_secret)
            encrypt(secret_plain, [mod_card])
            moderator.sign(SAVE_DOMAIN, body_bytes)
            for _ in range(4):
                encrypt(private_plain, [card, mod_card])
            for _ in range(5):
                moderator.sign(REPORT_DOMAIN, body_bytes[:2000])

        crypto = best_of(floor, 200)
        print(f"1. A 4-player Symbiote turn (one order file, as the rules have it), {label}")
        print(f"   submit one order file      {statistics.median(submit_t) * 1e3:7.2f} ms")
        print(f"   advance + 5 reports        {statistics.median(advance_t) * 1e3:7.2f} ms")
        print(f"   full turn                  {full * 1e3:7.2f} ms over {len(submit_t)} turns")
        print(f"   crypto floor of that turn  {crypto * 1e3:7.2f} ms (age + Ed25519 only)")
        print(f"   ratio full / floor         {full / crypto:7.2f} x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def engine_games(seconds: float) -> None:
    print("2. Engine-only games (setup, random bots, validate, resolve; no crypto, no files)")
    for name in game_names():
        game = get_game(name)
        players = game.info.max_players
        options = {v.name: v.default for v in game.info.variants}
        bot = game.bots["random"]
        count, steps = 0, 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.setup(players, options, Rng(f"s{count}".encode()))
            rng = Rng(f"g{count}".encode())
            while game.outcome(state) is None:
                orders = {}
                for seat in game.to_act(state):
                    view = game.observe(state, seat)
                    texts = bot(game, view, rng)
                    lines = [OrderLine(i, t.split("#")[0].strip()) for i, t in enumerate(texts, 1)]
                    orders[seat] = game.validate(view, [line for line in lines if line.text])
                state = game.resolve(state, orders, rng).state
                steps += 1
            count += 1
        elapsed = time.perf_counter() - start
        rate = count / elapsed
        print(f"   {name:14s} {rate:9.1f} games/s  ({steps / count:.0f} steps a game, {players} players)")


def demo_time() -> None:
    print("3. Whole demo games (keys, signed + sealed orders, encrypted reports, real folder)")
    for name in game_names():
        tmp = Path(tempfile.mkdtemp(prefix="pbem-demo-"))
        try:
            result = run_demo(name, None, 7, tmp / "demo", ["greedy", "random"], {})
            print(f"   {name:14s} {result.seconds:6.2f} s for {result.turns} turns")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def startup(repeat: int) -> None:
    pbem = shutil.which("pbem")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        'python -c "import click"': [sys.executable, "-c", "import click"],
        "pbem --help": [pbem, "--help"] if pbem else [sys.executable, "-m", "pbem", "--help"],
    }
    results = {}
    for label, cmd in commands.items():
        subprocess.run(cmd, capture_output=True, check=True)
        results[label] = best_of(lambda cmd=cmd: subprocess.run(cmd, capture_output=True, check=True), repeat)
    print("4. Start-up (median of", repeat, "runs)")
    for label, value in results.items():
        print(f"   {label:26s} {value * 1e3:7.1f} ms")
    ratio = results["pbem --help"] / results['python -c "import click"']
    print(f"   pbem --help / import click {ratio:7.2f} x")


def archive_time(quick: bool) -> None:
    from bench_archive import archive_rows  # benchmarks/bench_archive.py, beside this file

    print("5. pbem archive of a large finished game (verify every save, re-play, render, write)")
    for line in archive_rows(quick):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    args = parser.parse_args()
    turns = 8 if args.quick else 60
    turn_cost(turns, None, "game folder on disk (fsync)")
    if Path("/dev/shm").is_dir():
        turn_cost(turns, "/dev/shm", "game folder in memory (tmpfs)")
    engine_games(0.5 if args.quick else 3.0)
    demo_time()
    startup(3 if args.quick else 15)
    archive_time(args.quick)


if __name__ == "__main__":
    main()
