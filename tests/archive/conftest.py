"""Fixtures for the archive tests: real games played by the games' own bots through the
real pipeline (keys, signed and sealed orders, encrypted reports), finished or stopped
part-way, each made once per test session and copied for a test that changes it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import Report, parse_report
from pbem.rng import Rng, seeded_entropy

NOW = datetime(2026, 5, 1, tzinfo=UTC)
GAMES = ("symbiote", "jovian-syzygy", "symbioz")


@dataclass(frozen=True)
class Table:
    """A new 3-player Symbiote game (alice, bob, carol), its moderator, and the seat awaited
    at turn 1 with that player's report."""

    folder: GameFolder
    moderator: Identity
    seats: tuple[Identity, ...]
    player: Identity
    report: Report


def new_table(root: Path, label: str) -> Table:
    """:class:`Table` of a game made in ``root / "game"`` from the seed ``label``."""
    moderator = Identity.generate("moderator")
    seats = tuple(Identity.generate(name) for name in ("alice", "bob", "carol"))
    folder = GameFolder.create(
        root / "game",
        "symbiote",
        moderator,
        [s.public() for s in seats],
        {},
        now=NOW,
        entropy=seeded_entropy(label),
        home=root / "home",
    )
    save = folder.read()
    [seat] = save.awaiting
    path = folder.reports_dir(save.turn) / f"{seats[seat].name}.txt"
    report = parse_report(path.read_text(encoding="utf-8"), str(path), seats[seat])
    return Table(folder, moderator, seats, seats[seat], report)


@dataclass(frozen=True)
class Played:
    """A game folder and the keys of everyone in it."""

    folder: Path
    moderator: Identity
    seats: tuple[Identity, ...]

    def key_file(self, who: str) -> Path:
        return self.folder.parent / "keys" / f"{who}.key"


def play(root: Path, game: str, turns: int, players: int = 3, seed: int = 1) -> Played:
    """``game`` played by greedy bots for ``turns`` turns (or to its end) in ``root/game``."""
    keys = root / "keys"
    keys.mkdir(parents=True)
    moderator = Identity.generate("moderator")
    moderator.save(keys / "moderator.key")
    seats = tuple(Identity.generate(n) for n in ("alice", "bob", "carol", "dave")[:players])
    for identity in seats:
        identity.save(keys / f"{identity.name}.key")
    folder = GameFolder.create(
        root / "game",
        game,
        moderator,
        [s.public() for s in seats],
        {},
        now=NOW,
        entropy=seeded_entropy(f"archive-test/{game}/{seed}"),
        home=root / "home",
    )
    clock = NOW
    for _ in range(turns):
        save = folder.read()
        if save.body["outcome"] is not None:
            break
        for seat in save.awaiting:
            path = folder.reports_dir(save.turn) / f"{seats[seat].name}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), seats[seat])
            lines = bot_orders(report, "greedy", Rng(f"{seed}/{save.turn}/{seat}".encode()))
            block = seal(sign(seats[seat], form_header(report), lines), [report.moderator])
            folder.submit(block, moderator, source=f"{seats[seat].name}.txt", now=clock)
        clock += timedelta(hours=1)
        folder.advance(moderator, now=clock)
    return Played(root / "game", moderator, seats)


@pytest.fixture(scope="session")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished 3-player demo game of every game, by name (the folder holds game/ and keys/)."""
    out = {}
    for game in GAMES:
        root = tmp_path_factory.mktemp(f"done-{game}")
        run_demo(game, 3, 5, root / "demo", ("greedy",), {})
        out[game] = root / "demo" / "game"
    return out


@pytest.fixture(scope="session")
def midgame(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A Symbiote game (hidden hands) stopped after 9 turns."""
    return play(tmp_path_factory.mktemp("mid"), "symbiote", 9)


@pytest.fixture
def copy_game(tmp_path: Path) -> Callable[[Path], Path]:
    """Copy a game folder (with its keys/ beside it) into this test's own folder."""

    def copy(folder: Path) -> Path:
        target = tmp_path / "copy"
        shutil.copytree(folder.parent, target, symlinks=True)
        return target / folder.name

    return copy
