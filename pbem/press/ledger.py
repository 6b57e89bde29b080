"""What the moderator relayed: one entry per message, sealed to the moderator.

``press/ledger.txt`` in the game folder is an age block to the moderator (padded, so its
size says only roughly how much press there was, never who wrote to whom) holding JSON: for
each relayed message its number, the turn it was relayed in, sender, recipients, whether it
was grey or went to all, its letter's ``Id`` and hash, and whether the moderator can read it.
The ledger is what reports list, what refuses a replayed message and what the archive reads;
the relayed copies themselves are ``press/NNNNNN.txt`` (encrypted to their recipients).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import FormatError
from pbem.keys import Identity, PublicCard, encrypt
from pbem.press.rules import PRESS_DIR
from pbem.press.sealed import open_block

LEDGER_NAME = "ledger.txt"
LEDGER_FORMAT = "pbem-press-ledger/v1"
LEDGER_SIZE = 4096
MAX_LEDGER = 8_000_000
_ID = re.compile(r"[0-9A-F]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    """One relayed message."""

    number: int
    turn: int
    sender: str
    to: tuple[str, ...]
    """The recipients by name (every other player for a message to all)."""
    broadcast: bool
    grey: bool
    letter_id: str
    letter: str
    """SHA-256 of the letter's armour."""
    readable: bool
    """The letter is encrypted to the moderator too (to all, or the moderator reads all)."""
    received: str

    @property
    def filename(self) -> str:
        return f"{self.number:06d}.txt"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "turn": self.turn,
            "from": self.sender,
            "to": list(self.to),
            "broadcast": self.broadcast,
            "grey": self.grey,
            "id": self.letter_id,
            "letter": self.letter,
            "readable": self.readable,
            "received": self.received,
        }

    @classmethod
    def from_json(cls, data: Any, source: str) -> Entry:
        try:
            entry = cls(
                number=data["number"],
                turn=data["turn"],
                sender=data["from"],
                to=tuple(data["to"]),
                broadcast=data["broadcast"],
                grey=data["grey"],
                letter_id=data["id"],
                letter=data["letter"],
                readable=data["readable"],
                received=data["received"],
            )
        except (KeyError, TypeError):
            raise FormatError(f"{source}: the press ledger is damaged (an entry)") from None
        ok = (
            type(entry.number) is int
            and type(entry.turn) is int
            and all(isinstance(x, str) for x in (entry.sender, *entry.to, entry.received))
            and _ID.fullmatch(str(entry.letter_id)) is not None
            and _HEX64.fullmatch(str(entry.letter)) is not None
        )
        if not ok:
            raise FormatError(f"{source}: the press ledger is damaged (entry {data.get('number')!r})")
        return entry


def ledger_path(game_dir: Path) -> Path:
    return Path(game_dir) / PRESS_DIR / LEDGER_NAME


def load(game_dir: Path, game_id: str, identity: Identity) -> tuple[Entry, ...]:
    """The game's relayed messages, oldest first (none when nothing was relayed).

    Raises FormatError when the ledger is damaged, not the moderator's or another game's."""
    from pbem.inputs import read_text

    path = ledger_path(game_dir)
    if not path.exists() and not path.is_symlink():
        return ()
    text = read_text(path, "press ledger", MAX_LEDGER)
    opened = open_block(text, identity, str(path), "press ledger")
    if opened is None:
        raise FormatError(f"{path}: the press ledger is not sealed to this moderator's key")
    try:
        doc = json.loads(opened[0])
    except (ValueError, RecursionError):
        raise FormatError(f"{path}: the press ledger is damaged (not JSON)") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != LEDGER_FORMAT
        or not isinstance(doc.get("entries"), list)
    ):
        raise FormatError(f"{path}: not a pbem press ledger")
    if doc.get("game_id") != game_id:
        raise FormatError(f"{path}: the press ledger of another game")
    return tuple(Entry.from_json(e, str(path)) for e in doc["entries"])


def store(game_dir: Path, game_id: str, moderator: PublicCard, entries: Sequence[Entry]) -> None:
    """Replace the ledger (atomically and durably), sealed to ``moderator``."""
    from pbem.folder import atomic_write

    doc = {"format": LEDGER_FORMAT, "game_id": game_id, "entries": [e.to_json() for e in entries]}
    raw = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
    path = ledger_path(game_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, encrypt(raw, [moderator], pad_to=LEDGER_SIZE))


def sent_in(entries: Sequence[Entry], sender: str, turn: int) -> int:
    """How many messages ``sender`` had relayed in ``turn``."""
    return sum(1 for e in entries if e.turn == turn and e.sender.lower() == sender.lower())


def received_in(entries: Sequence[Entry], name: str, turn: int) -> list[Entry]:
    """The messages relayed to ``name`` in ``turn``."""
    return [e for e in entries if e.turn == turn and name.lower() in (n.lower() for n in e.to)]
