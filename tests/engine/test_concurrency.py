"""Concurrent writers, as real processes through the real command line.

* Several ``pbem submit`` of different players started at the same instant: every order a
  process reported as accepted is in the save (before the lock, three concurrent submits all
  said "accepted" and the save kept fewer).
* Two ``pbem moderate`` started with different environments (runtime, temporary, state and
  home folders all different, as cron and a login shell would have them) racing on one root:
  no accepted order is lost, no valid order is deleted or refused, no game is refused.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import OrderHeader, seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import parse_report
from pbem.rng import Rng, seeded_entropy

NAMES = ("alice", "bob", "carol", "dave")
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ROUNDS = 1 + int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) // 50
"""Rounds of each race (more with PBEM_FUZZ_EXAMPLES, as the fuzz tests)."""


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Identity], Path]:
    """Keys for a moderator and four players, and the moderator's key file."""
    folder = tmp_path_factory.mktemp("keys")
    keys = {name: Identity.generate(name) for name in ("moderator", *NAMES)}
    keys["moderator"].save(folder / "moderator.key")
    return keys, folder / "moderator.key"


def new_game(path: Path, keys: dict[str, Identity], label: str) -> GameFolder:
    """A four-player Jovian Syzygy game: every seat owes orders at once (corners dealt: turn 1
    is round 1, not the setup step where the fourth player has no corner to choose)."""
    return GameFolder.create(
        path,
        "jovian-syzygy",
        keys["moderator"],
        [keys[n].public() for n in NAMES],
        {"corners": "dealt"},
        now=NOW,
        entropy=seeded_entropy(f"concurrency/{label}"),
        home=path.parent / "create-home",
    )


def orders_of(folder: GameFolder, keys: dict[str, Identity], name: str) -> str:
    """``name``'s sealed orders for the current turn, written by a bot from their own report."""
    save = folder.read()
    path = folder.reports_dir(save.turn) / f"{name}.txt"
    report = parse_report(path.read_text(encoding="utf-8"), str(path), keys[name], keys["moderator"].public())
    lines = bot_orders(report, "greedy", Rng(f"concurrency/{save.turn}/{name}".encode()))
    base = form_header(report)
    header = OrderHeader(base.game, base.turn, base.player, base.seq)
    return seal(sign(keys[name], header, lines), [keys["moderator"].public()])


def environment(tmp: Path, label: str) -> dict[str, str]:
    """A process environment whose runtime, temporary, state and home folders are its own."""
    env = dict(os.environ)
    for var in ("XDG_RUNTIME_DIR", "TMPDIR", "PBEM_STATE_DIR", "PBEM_HOME", "XDG_STATE_HOME"):
        path = tmp / label / var.lower()
        path.mkdir(parents=True, exist_ok=True)
        env[var] = str(path)
    return env


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pbem", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_concurrent_submits_keep_every_accepted_order(people, tmp_path: Path) -> None:
    keys, mod_key = people
    for round_ in range(ROUNDS):
        folder = new_game(tmp_path / f"game{round_}", keys, f"submit{round_}")
        files = []
        for name in NAMES:
            path = tmp_path / f"{name}-{round_}.txt"
            path.write_text(orders_of(folder, keys, name), encoding="utf-8")
            files.append(path)
        procs = [
            start(
                ["submit", str(folder.path), str(path), "--key", str(mod_key)],
                environment(tmp_path, path.stem),
            )
            for path in files
        ]
        outputs = [proc.communicate(timeout=120) for proc in procs]
        accepted = {
            line.split()[3] for out, _ in outputs for line in out.splitlines() if line.startswith("accepted")
        }
        save = folder.read()
        kept = {save.names[s] for s in save.body["submitted"]}
        assert accepted <= kept, f"accepted {sorted(accepted)} but the save holds {sorted(kept)}"
        # With the lock every submit waits its turn: none is refused, all four are kept.
        assert [proc.returncode for proc in procs] == [0, 0, 0, 0], [err for _, err in outputs]
        assert kept == set(NAMES)
        pending = folder.load(keys["moderator"]).secret.pending
        assert sorted(pending) == ["0", "1", "2", "3"]
        archived = sorted(p.name.split(".")[0] for p in folder.orders_dir(save.turn).iterdir())
        assert archived == sorted(NAMES)


def test_two_moderators_with_different_environments_lose_nothing(people, tmp_path: Path) -> None:
    keys, mod_key = people
    root = tmp_path / "root"
    games = [new_game(root / f"g{k}", keys, f"moderate{k}") for k in range(3)]
    args = ["moderate", str(root), "--key", str(mod_key), "--settle", "0"]
    warm = start(args, environment(tmp_path, "warm"))
    assert warm.wait(timeout=120) == 0  # inbox and player folders, turn 1 reports handed out
    for round_ in range(ROUNDS):
        turns = {g.path.name: g.read().turn for g in games}
        for game in games:
            for name in NAMES:
                inbox = game.path / "inbox" / name
                inbox.mkdir(parents=True, exist_ok=True)
                path = inbox / f"orders-{round_}.txt"
                path.write_text(orders_of(game, keys, name), encoding="utf-8")
                past = path.stat().st_mtime - 60
                os.utime(path, (past, past))
        # cron's moderator and a login shell's: every local folder differs.
        procs = [start(args, environment(tmp_path, f"{who}{round_}")) for who in ("cron", "shell")]
        outputs = [proc.communicate(timeout=180) for proc in procs]
        errors = [err for _, err in outputs if err.strip()]
        assert not errors, errors
        assert all(proc.returncode == 0 for proc in procs)
        # A game skipped as locked by one moderator is done by the other, or by a later pass.
        again = start(args, environment(tmp_path, f"after{round_}"))
        _, err = again.communicate(timeout=180)
        assert again.returncode == 0 and not err.strip(), err
        for game in games:
            save = game.read()  # no game refused
            assert save.turn == turns[game.path.name] + 1, f"{game.path.name} did not resolve the turn"
            assert not [p for p in (game.path / "inbox").rglob("*") if p.is_file()], "a file was left"
            results = []
            for name in NAMES:
                for notice in (game.path / "players" / name).glob(
                    f"notice-turn-{turns[game.path.name]:04d}-*"
                ):
                    results += [
                        line for line in notice.read_text().splitlines() if line.startswith("Result:")
                    ]
            assert len(results) == len(NAMES) and all("ACCEPTED" in line for line in results), results
            # every accepted order went into the turn that was resolved
            archived = sorted(p.name.split(".")[0] for p in game.orders_dir(turns[game.path.name]).iterdir())
            assert archived == sorted(NAMES)
