"""Shared fixtures for the engine tests: real keys, real Symbiote games in real tmp folders.

Nothing here hard-codes cards or results: orders come from Symbiote's own bots and default
orders, read from the player's decrypted report, exactly as a player's program would.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem.engine import GameFolder, Receipt
from pbem.game import Game
from pbem.keys import Identity
from pbem.orders import OrderHeader, seal, sign
from pbem.player import bot_orders, form_header
from pbem.registry import get_game
from pbem.reports import Report, parse_report
from pbem.rng import Rng, seeded_entropy

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLAYERS = ("alice", "bob", "carol")


def entropy(label: str) -> Callable[[int], bytes]:
    """A deterministic os.urandom stand-in: the same label plays the same game."""
    return seeded_entropy(f"pbem-test/{label}")


@pytest.fixture(scope="session")
def keys() -> dict[str, Identity]:
    """Real identities: a moderator, a second moderator, three players and an outsider."""
    names = ("moderator", "moderator2", *PLAYERS, "mallory")
    return {name: Identity.generate(name) for name in names}


@pytest.fixture(scope="session")
def symbiote() -> Game:
    return get_game("symbiote")


@pytest.fixture(autouse=True)
def _pbem_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every rollback record (seen/<game id>.json) out of the real home folder."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path_factory.mktemp("pbem-home")))


@dataclass
class Table:
    """A Symbiote game in a tmp folder, with the keys of everyone at the table."""

    folder: GameFolder
    keys: dict[str, Identity]
    home: Path
    clock: datetime = NOW

    @property
    def moderator(self) -> Identity:
        return self.keys["moderator"]

    @property
    def save_bytes(self) -> bytes:
        return self.folder.save_path.read_bytes()

    def tick(self) -> datetime:
        self.clock += timedelta(minutes=1)
        return self.clock

    def awaited(self) -> str:
        """The name of the (one) seat Symbiote awaits now."""
        save = self.folder.read()
        return save.names[save.awaiting[0]]

    def idle(self) -> str:
        """A seat that is not awaited now."""
        save = self.folder.read()
        return next(n for i, n in enumerate(save.names) if i not in save.awaiting)

    def report(self, name: str) -> Report:
        """``name``'s own report for the current turn, verified and decrypted with their key."""
        save = self.folder.read()
        path = self.folder.reports_dir(save.turn) / f"{name}.txt"
        return parse_report(
            path.read_text(encoding="utf-8"), str(path), self.keys[name], self.moderator.public()
        )

    def report_text(self, name: str) -> tuple[str, str]:
        save = self.folder.read()
        path = self.folder.reports_dir(save.turn) / f"{name}.txt"
        return path.read_text(encoding="utf-8"), str(path)

    def bot_lines(self, name: str, bot: str = "greedy", seed: int = 0) -> list[str]:
        report = self.report(name)
        return bot_orders(report, bot, Rng(f"engine-test/{report.data['turn']}/{name}/{seed}".encode()))

    def full_turn(self, name: str) -> list[str]:
        """Legal orders that end with a discard line: a bot's when one writes such a turn,
        else the game's own default orders."""
        for seed in range(20):
            for bot in ("greedy", "random"):
                lines = self.bot_lines(name, bot, seed)
                if any(line.startswith("discard") for line in lines):
                    return lines
        lines = self.symbiote_default(name)
        assert any(line.startswith("discard") for line in lines), lines
        return lines

    def symbiote_default(self, name: str) -> list[str]:
        """The game's own default (civil disorder) orders for ``name`` now."""
        report = self.report(name)
        return get_game(report.data["game"]).default_orders(report.view())

    def header(self, name: str, **changes: object) -> OrderHeader:
        base = form_header(self.report(name))
        fields = {"game": base.game, "turn": base.turn, "player": base.player, "seq": base.seq}
        fields.update(changes)
        return OrderHeader(**fields)  # type: ignore[arg-type]

    def signed(
        self, name: str, lines: list[str] | None = None, *, signer: str | None = None, **changes: object
    ) -> str:
        """A signed order block of ``name`` for the current turn (a bot's orders by default)."""
        if lines is None:
            lines = self.bot_lines(name)
        return sign(self.keys[signer or name], self.header(name, **changes), lines)

    def sealed(self, block: str) -> str:
        return seal(block, [self.moderator.public()])

    def submit(self, text: str, source: str = "orders.txt") -> Receipt:
        return self.folder.submit(text, self.moderator, source=source, now=self.tick())

    def play_step(self, bot: str = "greedy") -> None:
        """The awaited seat submits a bot's orders and the moderator advances."""
        name = self.awaited()
        seq = self.folder.read().body["seq"][name] + 1
        self.submit(self.sealed(self.signed(name, self.bot_lines(name, bot), seq=seq)), f"{name}.txt")
        self.folder.advance(self.moderator, now=self.tick())

    def copy_to(self, path: Path, home: Path | None = None) -> GameFolder:
        """A copy of the game folder, moderated with this table's rollback record or ``home``'s."""
        shutil.copytree(self.folder.path, path)
        return GameFolder(path, home or self.home)


def new_table(
    root: Path, keys: dict[str, Identity], label: str = "game", options: dict[str, str] | None = None
) -> Table:
    home = root / "moderator-home"
    folder = GameFolder.create(
        root / label,
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in PLAYERS],
        {"dealer": "last-seat"} if options is None else options,
        now=NOW,
        entropy=entropy(label),
        home=home,
    )
    return Table(folder, keys, home)


@pytest.fixture
def table(tmp_path: Path, keys: dict[str, Identity]) -> Table:
    """A fresh three-player Symbiote game at turn 1."""
    return new_table(tmp_path, keys)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Identity]) -> Iterator[Table]:
    """A whole Symbiote game played to the end by bots (read only: copy before changing it)."""
    table = new_table(tmp_path_factory.mktemp("finished"), keys, "finished")
    for _ in range(500):
        if table.folder.read().body["outcome"] is not None:
            break
        table.play_step("greedy")
    assert table.folder.read().body["outcome"] is not None, "the bots did not finish a game in 500 steps"
    yield table
