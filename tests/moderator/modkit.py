"""Helpers for the moderator tests: real keys, real Symbiote games under a root, real
signed (and sealed) order files written from each player's decrypted report by a bot."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import OrderHeader, seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import Report, parse_report
from pbem.rng import Rng, seeded_entropy
from pbem.save import Save

T0 = 1_800_000_000
NAMES = ("alice", "bob", "carol")


def entropy(label: str) -> Callable[[int], bytes]:
    """A deterministic os.urandom stand-in: the same label plays the same game."""
    return seeded_entropy(f"pbem-moderator-test/{label}")


def make_keys(names: Sequence[str] = NAMES) -> dict[str, Identity]:
    return {name: Identity.generate(name) for name in ("moderator", *names, "mallory")}


def new_game(
    root: Path,
    keys: dict[str, Identity],
    label: str = "game",
    names: Sequence[str] = NAMES,
    *,
    toml: str | None = None,
    home: Path | None = None,
) -> Path:
    """A Symbiote game in ``root/label`` at turn 1 (dealer: last seat), with an optional
    ``moderator.toml``."""
    GameFolder.create(
        root / label,
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in names],
        {"dealer": "last-seat"},
        now=datetime.fromtimestamp(T0, UTC),
        entropy=entropy(label),
        home=home or root.parent / f"{root.name}-create-home",
    )
    if toml is not None:
        (root / label / "moderator.toml").write_text(toml, encoding="utf-8")
    return root / label


def read(game_dir: Path) -> Save:
    return GameFolder(game_dir).read()


def awaited(game_dir: Path) -> list[str]:
    """Seats that owe orders and have sent none."""
    save = read(game_dir)
    return [save.names[s] for s in save.awaiting if s not in save.body["submitted"]]


def report_of(game_dir: Path, keys: dict[str, Identity], name: str) -> Report:
    save = read(game_dir)
    path = game_dir / "reports" / f"turn-{save.turn:04d}" / f"{name}.txt"
    return parse_report(path.read_text(encoding="utf-8"), str(path), keys[name], keys["moderator"].public())


def order_block(
    game_dir: Path,
    keys: dict[str, Identity],
    name: str,
    *,
    bot: str = "greedy",
    seed: int = 0,
    lines: list[str] | None = None,
    signer: str | None = None,
    sealed: bool = True,
    **header: object,
) -> str:
    """A signed order file of ``name`` for the current turn, written by a bot from the
    player's own report (or ``lines``); header fields may be overridden."""
    report = report_of(game_dir, keys, name)
    if lines is None:
        lines = bot_orders(report, bot, Rng(f"modtest/{report.data['turn']}/{name}/{seed}".encode()))
    base = form_header(report)
    fields: dict[str, object] = {"game": base.game, "turn": base.turn, "player": base.player, "seq": base.seq}
    fields.update(header)
    block = sign(keys[signer or name], OrderHeader(**fields), lines)  # type: ignore[arg-type]
    return seal(block, [keys["moderator"].public()]) if sealed else block


def drop(game_dir: Path, folder: str, filename: str, text: str | bytes, age: int = 60) -> Path:
    """Put a file into ``inbox/<folder>/`` as a player would, ``age`` seconds old."""
    path = game_dir / "inbox" / folder / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    past = path.stat().st_mtime - age
    os.utime(path, (past, past))
    return path


def snapshot(game_dir: Path) -> dict[str, object]:
    """What must not change when a file is refused: the save and the accepted orders."""
    orders = sorted(str(p.relative_to(game_dir)) for p in (game_dir / "orders").rglob("*") if p.is_file())
    return {"save": (game_dir / "save.json").read_bytes(), "orders": orders}


Event = tuple[str, str]


def watch_writes(
    monkeypatch: pytest.MonkeyPatch,
    label: Callable[[Path], str] = lambda path: "",
    on_rename: Callable[[Path], None] | None = None,
) -> list[Event]:
    """Log, in the order they are made, renames (by the target's folder and name), links,
    inbox removals (by name) and ``syncfs`` barriers (``durable`` made to use it); each name
    after ``label(path)`` (a game's name and a colon, say).  ``on_rename`` sees each rename
    after it is made."""
    from pbem.moderator import durable

    events: list[Event] = []
    real_replace, real_link, real_unlink = os.replace, os.link, os.unlink

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        real_replace(src, dst, **kwargs)
        path = Path(dst)
        events.append(("rename", f"{label(path)}{path.parent.name}/{path.name}"))
        if on_rename is not None:
            on_rename(path)

    def link(src: Any, dst: Any, **kwargs: Any) -> None:
        real_link(src, dst, **kwargs)
        events.append(("link", f"{label(Path(dst))}{Path(dst).name}"))

    def unlink(path: Any, **kwargs: Any) -> None:
        real_unlink(path, **kwargs)
        if "inbox" in Path(path).parts:
            events.append(("remove", f"{label(Path(path))}{Path(path).name}"))

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(durable, "_syncfs", [lambda fd: events.append(("sync", ""))])
    monkeypatch.setattr(durable, "USE_SYNCFS", True)
    return events
