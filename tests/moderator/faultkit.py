"""The fault tests' workload: two games under a root, played by a deterministic script
that any number of moderators, killed and restarted at any point, must finish alike.

Game ``alpha`` has no deadline; its first turn's inbox holds the awaited orders, a copy of
them, a forged file, an unreadable one and a replacement.  Game ``beta`` has a one-hour
deadline with default orders, and its player ``alice`` never sends any (she is abandoned
after one missed turn, then played at once).  Run as a program (``python faultkit.py ROOT
STATE KEYS``) it plays the script in a fresh process, for the tests that kill a real process.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from modkit import NAMES, T0, awaited, drop, new_game, order_block, read
else:
    from .modkit import NAMES, T0, awaited, drop, new_game, order_block, read

TARGET_TURN = 6
SILENT = {"beta": ("alice",)}
BETA_TIMING = """
[timing]
deadline = "1h"
grace = "1h"
on_missing = "default"
abandon_after = 1
"""
HOUR = 3600


def prepare(root: Path, keys: dict[str, Identity], keydir: Path) -> None:
    """Create both games and the first turn's files, and save every key to ``keydir``."""
    root.mkdir(parents=True, exist_ok=True)
    alpha = new_game(root, keys, "alpha", home=root.parent / "create-home")
    new_game(root, keys, "beta", toml=BETA_TIMING, home=root.parent / "create-home")
    [name] = awaited(alpha)
    block = order_block(alpha, keys, name, sealed=False)
    drop(alpha, name, "t1.txt", block, age=120)
    drop(alpha, name, "t1-copy.txt", block, age=110)
    drop(alpha, name, "forged.txt", order_block(alpha, keys, name, signer="mallory", sealed=False), age=100)
    drop(alpha, name, "garbage.txt", "my orders are: take the 7\n", age=90)
    better = order_block(alpha, keys, name, sealed=False, seq=2, bot="random", seed=5)
    drop(alpha, name, "t1-better.txt", better, age=80)  # replaces t1.txt
    keydir.mkdir(parents=True, exist_ok=True)
    for who, identity in keys.items():
        identity.save(keydir / f"{who}.key")


def load_keys(keydir: Path) -> dict[str, Identity]:
    return {p.stem: Identity.load(p) for p in keydir.glob("*.key")}


def script(
    root: Path,
    state: Path,
    keys: dict[str, Identity],
    max_rounds: int = 80,
    start_round: int = 0,
    on_round: Callable[[int], None] | None = None,
) -> None:
    """Drop each awaited player's orders (unless silent or already there), let ten hours go
    by, run a pass; until both games reach TARGET_TURN.  Idempotent: safe to restart.

    ``start_round`` resumes at that round's time (from a copy taken after it by
    ``on_round``, which is called with each round's number once its pass is done)."""
    clock = FixedClock(T0 + 60 + start_round * 10 * HOUR)
    moderator = Moderator(root, keys["moderator"], clock=clock, state_dir=state, settle=0)
    for round_number in range(start_round, max_rounds):
        busy = False
        for game in (root / "alpha", root / "beta"):
            save = read(game)
            if save.turn >= TARGET_TURN or save.body["outcome"] is not None:
                continue
            busy = True
            for name in awaited(game):
                # A player sends orders for the turn their report shows, whatever the inbox
                # still holds of an earlier turn (a file a killed pass answered stays there
                # until the next pass removes it); the file is named by its turn, so a
                # restarted round drops it only once.
                if (
                    name in SILENT.get(game.name, ())
                    or (game / "inbox" / name / f"t{save.turn}.txt").exists()
                ):
                    continue
                if not (game / "reports" / f"turn-{save.turn:04d}" / f"{name}.txt").is_file():
                    continue  # a killed advance left it unwritten: the next pass writes it
                drop(game, name, f"t{save.turn}.txt", order_block(game, keys, name, sealed=False))
        if not busy:
            # One more pass at the same time as the last: it finishes whatever a killed
            # moderator left undone, and lets no new deadline fall due.
            moderator.run_pass()
            return
        clock.advance(10 * HOUR)
        moderator.run_pass()
        if on_round is not None:
            on_round(round_number + 1)
    raise AssertionError("the script did not reach its target")


def outcome(root: Path) -> dict[str, object]:
    """Everything a correct run must agree on (times and encryption nonces left out)."""
    out: dict[str, object] = {}
    for game in sorted(p for p in root.iterdir() if p.is_dir()):
        save = read(game)
        body = {
            k: save.body[k] for k in ("turn", "revision", "public", "awaiting", "submitted", "seq", "outcome")
        }
        body["status"] = [p["status"] for p in save.body["players"]]
        record = json.loads((game / "moderator" / "record.json").read_text())
        notices = []
        for path in sorted((game / "players").rglob("notice-*")):
            result = next(line for line in path.read_text().splitlines() if line.startswith("Result:"))
            turn = path.name.split("-")[2]
            notices.append(f"{path.parent.name} turn {turn}: {result}")
        out[game.name] = {
            "save": body,
            "orders": sorted(str(p.relative_to(game)) for p in (game / "orders").rglob("*") if p.is_file()),
            "history": len(list((game / "history").iterdir())),
            "seats": record["seats"],
            "stand_ins": sum("filled in" in (e if isinstance(e, str) else e["text"]) for e in record["log"]),
            "notices": sorted(notices),
            "reports": sorted(str(p.relative_to(game)) for p in (game / "players").rglob("report-*")),
            "inbox": sorted(str(p.relative_to(game)) for p in (game / "inbox").rglob("*") if p.is_file()),
            "temp": sorted(str(p) for p in game.rglob(".pbem-tmp-*")),
        }
    return out


def killed_after(seconds: float, root: Path, state: Path, keydir: Path) -> None:
    """Run this script (:func:`script`: the moderator's passes) on ``root`` in a real process,
    and kill it with SIGKILL after ``seconds``: a kill at a random instant, for the caller to
    start the moderator again and compare the :func:`outcome` with an uninterrupted run's."""
    import signal
    import subprocess
    import time

    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), str(root), str(state), str(keydir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(seconds)
    child.send_signal(signal.SIGKILL)
    child.wait()


if __name__ == "__main__":
    root_arg, state_arg, keys_arg = (Path(a) for a in sys.argv[1:4])
    script(root_arg, state_arg, load_keys(keys_arg))
    print(json.dumps(sorted(NAMES)))
