"""Shared fixtures for the press tests: a real game (Symbiote, four players) with real keys,
press rules signed into its folder, and the sender's, moderator's and recipient's code run
exactly as the commands run it."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.player import fill_orders, read_report
from pbem.press.read import Letter, read_letter
from pbem.press.relay import Relayed, open_press, relay
from pbem.press.rules import PressRules, write_rules
from pbem.press.say import Said, compose
from pbem.rng import seeded_entropy
from pbem.timing import FixedClock

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
PLAYERS = ("alice", "bob", "carol", "dave")
T0 = 1_800_000_000
"""The moderated tables' clock (:func:`mailed_grey_table`)."""
FUZZ = settings(max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "40")), deadline=None)


@pytest.fixture(scope="session")
def keys() -> dict[str, Identity]:
    return {n: Identity.generate(n) for n in ("moderator", *PLAYERS, "mallory")}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))


@dataclass
class PressTable:
    """A game with press rules, and everyone's keys."""

    folder: GameFolder
    keys: dict[str, Identity]
    home: Path

    @property
    def moderator(self) -> Identity:
        return self.keys["moderator"]

    def report_text(self, name: str) -> tuple[str, str]:
        turn = self.folder.read().turn
        path = self.folder.reports_dir(turn) / f"{name}.txt"
        return path.read_text(encoding="utf-8"), str(path)

    def data(self, name: str) -> dict[str, Any]:
        text, source = self.report_text(name)
        return dict(read_report(text, source, self.keys[name], home=self.home).data)

    def say(
        self,
        name: str,
        to: tuple[str, ...],
        text: str = "Shall we leave Dave's cards alone this round?",
        *,
        grey: bool = False,
        patch: Callable[[dict[str, Any]], None] | None = None,
        identity: Identity | None = None,
    ) -> Said:
        """What ``pbem say`` writes for ``name``; ``patch`` edits the report data first (a
        sender whose own program skipped the checks)."""
        data = self.data(name)
        if patch is not None:
            data = {**data, "press": _deep(data["press"])}
            patch(data)
        return compose(identity or self.keys[name], data, "report", to, text, "message", grey=grey)

    def relay(self, sealed: str, source: str = "inbox/p.txt") -> Relayed:
        plain = open_press(sealed, self.moderator, source)
        assert plain is not None
        return self.folder.exclusive(
            lambda: relay(self.folder, self.moderator, plain, source, "2026-05-01T12:00:00+00:00")
        )

    def read(self, relayed: Relayed | str, name: str) -> Letter | None:
        text = relayed if isinstance(relayed, str) else relayed.text
        return read_letter(text, "press.txt", self.keys[name], home=self.home)

    def advance(self) -> None:
        loaded = self.folder.load(self.moderator)
        self.folder.advance(self.moderator, now=NOW, fill=fill_orders(loaded, "default"))

    def press_files(self) -> list[str]:
        return sorted(p.name for p in (self.folder.path / "press").iterdir())


def _deep(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


def new_table(
    tmp_path: Path,
    keys: dict[str, Identity],
    rules: PressRules | None,
    label: str = "t",
    game: str = "symbiote",
    options: Mapping[str, Any] | None = None,
    players: Sequence[str] = PLAYERS,
) -> PressTable:
    """A game of ``players`` (Symbiote unless ``game`` says) in ``tmp_path`` with ``rules``
    (None: no press)."""
    home = tmp_path / "home"
    folder = GameFolder.create(
        tmp_path / f"game-{label}",
        game,
        keys["moderator"],
        [keys[n].public() for n in players],
        dict(options or {}),
        now=NOW,
        entropy=seeded_entropy(f"press-test/{label}"),
        home=home,
    )
    save = folder.read()
    if rules is not None:
        write_rules(folder.path, rules, save.game_id, keys["moderator"])
        folder.republish(keys["moderator"])
    return PressTable(folder, keys, home)


@pytest.fixture
def table(tmp_path: Path, keys: dict[str, Identity]) -> PressTable:
    """Full press, grey allowed."""
    return new_table(tmp_path, keys, PressRules(mode="full", grey=True))


def mailed_grey_table(root: Path, keys: dict[str, Identity], state_dir: Path) -> tuple[PressTable, Moderator]:
    """A grey-press table (full press, grey allowed) in the moderated root ``root`` (settle 0),
    every player with an address (mail on), its first pass run and its mails marked sent."""
    root.mkdir(exist_ok=True)
    (root / "moderator.toml").write_text("[moderator]\nsettle = 0\n")
    table = new_table(root, keys, PressRules(mode="full", grey=True), "g")
    emails = "\n".join(f'[players.{n}]\nemail = "{n}@example.org"\n' for n in PLAYERS)
    (table.folder.path / "moderator.toml").write_text(emails)
    moderator = Moderator(
        root, keys["moderator"], clock=FixedClock(T0), state_dir=state_dir, mail=True, settle=0
    )
    moderator.run_pass(force=True)
    outbox = moderator.outbox
    assert outbox is not None
    for path, _ in outbox.pending():
        outbox.mark_sent(path)
    return table, moderator
