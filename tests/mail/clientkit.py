"""A judged game and a player's real signed (clear and sealed) order blocks, for the mail
client reviews (tests/mail/test_clients_*.py): every mail is put through the judge's real
intake (an in-memory mailbox) and a moderator pass, and the outcome is read from the game."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from pbem.engine import GameFolder
from pbem.errors import FormatError
from pbem.keys import Identity
from pbem.moderator.notices import open_text
from pbem.player import bot_orders, order_form, sign_orders
from pbem.reports import parse_report
from pbem.rng import Rng

from .fakebox import FakeBox, make_judge, make_keys, make_root

COMMENT = "I think this is my best move so far, \u00e9tonnant, don't you think so? it is a good one"
"""A comment long enough that pbem sign wraps it onto two lines near 70 columns."""


@dataclass(frozen=True)
class World:
    """A game whose turn-1 reports are out, and the awaited player's signed blocks."""

    root: Path
    keys: dict[str, Identity]
    player: Identity
    clear: str
    sealed: str


@dataclass(frozen=True)
class Outcome:
    """What one mail came to."""

    accepted: bool
    quarantined: int
    notices: tuple[str, ...]
    """The game's notices about the mail's blocks, opened (the moderator's private part too)."""
    log: tuple[str, ...]
    answers: tuple[str, ...]
    """Bodies of the judge's answers to a mail it set aside."""


def make_world(tmp: Path) -> World:
    """A game and the awaited player's order block for it, with a long comment, clear and sealed."""
    keys = make_keys()
    root = make_root(tmp, keys)
    make_judge(root, keys, tmp / "state0", FakeBox()).moderator.run_pass()
    save = GameFolder(root / "game").read()
    player = keys[save.names[save.awaiting[0]]]
    [path] = sorted((root / "game" / "players" / player.name).glob("report-turn-*.txt"))[-1:]
    text = path.read_text(encoding="utf-8")
    report = parse_report(text, path.name, player)
    orders = [f"{line}  # {COMMENT}" for line in bot_orders(report, "greedy", Rng(b"clients"))]
    form = order_form(text, path.name, player).splitlines()
    head = form[: next(i for i, line in enumerate(form) if line.startswith("Seal-To:")) + 1]
    filled = "\n".join([*head, "", *orders]) + "\n"
    clear = sign_orders(filled, path.name, player, seal_orders=False)
    sealed = sign_orders(filled, path.name, player)
    return World(root, keys, player, clear, sealed)


def headers(msg: EmailMessage, world: World, subject: str = "my orders") -> EmailMessage:
    """``msg`` with the player's From, the judge's To, a Subject and a Date."""
    msg["From"] = f"{world.player.name}@example.org"
    msg["To"] = "judge@example.org"
    msg["Subject"] = subject
    msg["Date"] = "Tue, 24 Nov 2026 06:00:00 +0000"
    return msg


def text_mail(world: World, body: str, subject: str = "my orders") -> bytes:
    """A plain-text mail of ``body`` as Python's mail package writes one."""
    msg = headers(EmailMessage(), world, subject)
    msg.set_content(body)
    return msg.as_bytes()


def raw_mail(world: World, body: bytes, content_type: str, encoding: str = "8bit") -> bytes:
    """A one-part mail with ``body`` as it stands, under the given Content-Type and encoding."""
    head = (
        f"From: {world.player.name}@example.org\r\nTo: judge@example.org\r\nSubject: my orders\r\n"
        "Date: Tue, 24 Nov 2026 06:00:00 +0000\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n"
    )
    return head.encode("ascii") + body


def _opened(text: str, world: World) -> str:
    """A notice on one line, its private part opened with the player's or the moderator's key."""
    for key in (world.player, world.keys["moderator"]):
        try:
            return " ".join(open_text(text, key).split())
        except FormatError:
            continue
    return " ".join(text.split())


def judge_mail(world: World, raw: bytes, tmp: Path) -> Outcome:
    """Put ``raw`` through a fresh copy of the world's judge: intake, then a forced pass."""
    root = tmp / "root"
    shutil.copytree(world.root, root)
    box = FakeBox()
    judge = make_judge(root, world.keys, tmp / "state", box)
    box.add(raw)
    result = judge.intake()
    judge.moderator.settle_ns = 0
    judge.moderator.run_pass(force=True)
    game = root / "game"
    accepted = any((game / "orders").rglob("*.txt")) if (game / "orders").exists() else False
    notices = tuple(_opened(p.read_text(encoding="utf-8"), world) for p in sorted(game.rglob("notice-*.txt")))
    outbox = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp / "state").rglob("outbox/*.json")]
    answers = tuple(
        " ".join(q["body"].split()) for q in outbox if str(q.get("key", "")).startswith("intake/")
    )
    return Outcome(accepted, result.quarantined, notices, result.log, answers)
