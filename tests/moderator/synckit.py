"""Helpers for the sync tests (tests/moderator/test_sync_*.py): a root of real games with
every key on disk, and ``pbem`` run as a real process, as a moderator or a sync tool's
machine would run it."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from pbem.keys import Identity

from .modkit import awaited, drop, new_game, order_block, read


@dataclass(frozen=True)
class Table:
    """A root of games, the keys' folder, and the environment the processes run in."""

    base: Path
    keys: dict[str, Identity]

    @property
    def root(self) -> Path:
        return self.base / "root"

    @property
    def key(self) -> str:
        return str(self.base / "keys" / "moderator.key")

    def env(self, machine: str = "one") -> dict[str, str]:
        """The environment of a process on ``machine`` (its own local state and home)."""
        env = dict(os.environ)
        env["PBEM_STATE_DIR"] = str(self.base / f"state-{machine}")
        env["PBEM_HOME"] = str(self.base / f"home-{machine}")
        env.pop("PBEM_DEBUG", None)
        return env

    def pbem(
        self, *args: str, machine: str = "one", timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run ``pbem ARGS`` as a real process on ``machine``."""
        return subprocess.run(
            [sys.executable, "-m", "pbem", *args],
            env=self.env(machine),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def moderate(self, *args: str, machine: str = "one") -> subprocess.CompletedProcess[str]:
        """One ``pbem moderate`` pass over the root (files settle at once)."""
        return self.pbem("moderate", str(self.root), "--key", self.key, *args, machine=machine)


def table(base: Path, keys: dict[str, Identity], games: int = 1, toml: str | None = None) -> Table:
    """``games`` Symbiote games (``g1``, ``g2``, ...) under ``base/root``, with every key saved
    in ``base/keys`` and a root ``moderator.toml`` that lets files settle at once."""
    out = Table(base, keys)
    out.root.mkdir(parents=True)
    (out.root / "moderator.toml").write_text("[moderator]\nsettle = 0\n", encoding="utf-8")
    for i in range(1, games + 1):
        new_game(out.root, keys, f"g{i}", toml=toml, home=base / "create-home")
    (base / "keys").mkdir()
    for who, identity in keys.items():
        identity.save(base / "keys" / f"{who}.key")
    return out


def backdate(folder: Path, seconds: int = 600) -> None:
    """Set the modification time of ``folder`` and everything under it ``seconds`` back, as
    a game looks when nothing happened in it for a while."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 1_000_000_000))


def play(out: Table, game: str, turns: int) -> None:
    """Play ``turns`` turns of ``game``: the awaited player drops their orders (written by a
    bot from their report) and a real ``pbem moderate`` pass files them and resolves the turn."""
    game_dir = out.root / game
    for _ in range(turns):
        turn = read(game_dir).turn
        for name in awaited(game_dir):
            drop(game_dir, name, f"turn-{turn}.txt", order_block(game_dir, out.keys, name))
        done = out.moderate()
        assert done.returncode == 0 and f"turn {turn} resolved" in done.stdout, done.stdout + done.stderr


def started(base: Path, keys: dict[str, Identity]) -> tuple[Table, Path, str]:
    """A one-game table in ``base`` after its first ``pbem moderate`` pass: the table, the
    game's folder and the name of the player it awaits."""
    out = table(base, keys)
    first = out.moderate()
    assert first.returncode == 0, first.stderr
    game_dir = out.root / "g1"
    [name] = awaited(game_dir)
    return out, game_dir, name


def notices(game_dir: Path, name: str) -> list[str]:
    """The texts of the notices in ``name``'s folder, oldest name first."""
    return [p.read_text(encoding="utf-8") for p in sorted((game_dir / "players" / name).glob("notice-*"))]
