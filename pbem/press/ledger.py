"""What the moderator relayed: one entry per message, sealed to the moderator.

``press/ledger.txt`` in the game folder is an age block to the moderator (padded, so its
size says only roughly how much press there was, never who wrote to whom) holding JSON: for
each relayed message its number, the turn it was relayed in, sender, recipients, whether it
was grey or went to all, its letter's ``Id`` and hash, and whether the moderator can read it.
The ledger is what reports list, what refuses a replayed message and what the archive reads;
the relayed copies themselves are ``press/NNNNNN.txt`` (encrypted to their recipients).

Sealing to the moderator hides the ledger but proves nothing: the moderator's age recipient
is public, so anyone who can write the folder could seal a ledger of their own (press lines
the moderator would then sign into reports, a replayed message relayed again).  So the JSON
also carries the moderator's signature (domain :data:`LEDGER_DOMAIN`) of its format, game id
and entries, and a ledger that is missing, or lists fewer messages than ``press/`` keeps
copies of, is refused.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem import canonical
from pbem.errors import FormatError, SignatureError, UsageError
from pbem.keys import Identity, encrypt
from pbem.press.rules import PRESS_DIR
from pbem.press.sealed import open_block

LEDGER_NAME = "ledger.txt"
LEDGER_FORMAT = "pbem-press-ledger/v2"
"""v2: signed by the moderator (v1, unsigned, was written for one day by issue 14's pbem)."""
LEDGER_DOMAIN = "pbem-press-ledger/v2"
LEDGER_SIZE = 4096
MAX_LEDGER = 8_000_000
_ID = re.compile(r"[0-9A-F]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_KEPT = re.compile(r"[0-9]{6}\.txt")
"""A relayed copy's name in ``press/`` (:attr:`Entry.filename`)."""


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


_RESTORE = "restore press/ledger.txt from the moderator's backup of the game folder"


LEGACY_FORMAT = "pbem-press-ledger/v1"
"""The unsigned ledger of the first day of press: read only by :func:`sign_legacy`."""


def _opened(game_dir: Path, identity: Identity) -> tuple[Path, dict[str, Any]] | None:
    """The ledger's path and its JSON object, opened with ``identity``; None when there is
    none.  Raises FormatError when it is not sealed to ``identity``, damaged or no ledger."""
    from pbem.inputs import read_text

    path = ledger_path(game_dir)
    if not path.exists() and not path.is_symlink():
        return None
    text = read_text(path, "press ledger", MAX_LEDGER)
    opened = open_block(text, identity, str(path), "press ledger")
    if opened is None:
        raise FormatError(f"{path}: the press ledger is not sealed to this moderator's key")
    try:
        doc = canonical.loads(opened[0].rstrip().encode("utf-8"), str(path))
    except FormatError:
        raise FormatError(f"{path}: the press ledger is damaged (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") not in (LEDGER_FORMAT, LEGACY_FORMAT):
        raise FormatError(f"{path}: not a pbem press ledger")
    return path, doc


def load(game_dir: Path, game_id: str, identity: Identity) -> tuple[Entry, ...]:
    """The game's relayed messages, oldest first (none when nothing was relayed).

    Raises FormatError when the ledger is damaged, another game's, not signed by the
    moderator (``identity``; an unsigned ledger of the first day of press says how the
    moderator signs it: :func:`sign_legacy`), or missing or older than the relayed copies
    ``press/`` keeps."""
    found = _opened(game_dir, identity)
    if found is None:
        _check_kept(game_dir, ledger_path(game_dir), ())
        return ()
    path, doc = found
    if doc.get("format") == LEGACY_FORMAT:
        raise FormatError(
            f"{path}: the press ledger was written by the pbem of the first day of press, which did "
            "not sign it: pbem cannot tell it from a ledger anybody sealed to the moderator's key",
            f"if it is the one your moderator wrote, sign it: pbem press sign-ledger {Path(game_dir)} "
            "--key MODERATOR.key (it lists the messages to check first)",
        )
    body = {k: v for k, v in doc.items() if k != "signature"}
    try:
        signature = base64.b64decode(str(doc.get("signature")), validate=True)
        identity.public().verify(LEDGER_DOMAIN, canonical.dumps(body), signature)
    except (ValueError, FormatError, SignatureError):
        raise FormatError(
            f"{path}: the press ledger is not signed by this game's moderator: anyone can seal a file "
            "to the moderator's key, so it is not believed",
            _RESTORE,
        ) from None
    return _entries(game_dir, game_id, path, body)


def _entries(game_dir: Path, game_id: str, path: Path, body: dict[str, Any]) -> tuple[Entry, ...]:
    """The messages of a ledger's ``body`` (its object without a signature).  Raises
    FormatError when it is another game's, not a ledger, or older than the relayed copies
    ``press/`` keeps (:func:`_check_kept`)."""
    if body.get("game_id") != game_id:
        raise FormatError(f"{path}: the press ledger of another game")
    if set(body) != {"format", "game_id", "entries"} or not isinstance(body["entries"], list):
        raise FormatError(f"{path}: not a pbem press ledger")
    entries = tuple(Entry.from_json(e, str(path)) for e in body["entries"])
    _check_kept(game_dir, path, entries)
    return entries


def _check_kept(game_dir: Path, path: Path, entries: Sequence[Entry]) -> None:
    """Raise FormatError when ``press/`` keeps a relayed copy the ledger does not list, beyond
    the next number (a relay stopped between its copy and its ledger entry leaves that one):
    the ledger was deleted or an older one put back, which would relay a message again."""
    known = {e.number for e in entries}
    after = max(known, default=0) + 1
    try:
        names = os.listdir(Path(game_dir) / PRESS_DIR)
    except OSError:
        return
    unlisted = sorted(int(n[:6]) for n in names if _KEPT.fullmatch(n) and int(n[:6]) not in known | {after})
    if unlisted:
        raise FormatError(
            f"{path}: the press ledger lists {len(entries)} message(s), but press/ keeps the relayed "
            f"copy of message {unlisted[0]}: the ledger was deleted, or an older one put back",
            _RESTORE,
        )


def sign_legacy(game_dir: Path, game_id: str, identity: Identity) -> tuple[Entry, ...]:
    """Sign the unsigned ledger of the first day of press (:data:`LEGACY_FORMAT`) with the
    moderator's ``identity``, who vouches for it by running the command, and return its
    messages; a signed ledger is returned as it is (nothing written).

    Raises FormatError when there is no ledger, or it is damaged, another game's, or older
    than the relayed copies ``press/`` keeps."""
    found = _opened(game_dir, identity)
    if found is None:
        raise FormatError(f"{ledger_path(game_dir)}: the game has no press ledger (nothing was relayed)")
    path, doc = found
    if doc.get("format") != LEGACY_FORMAT:
        return load(game_dir, game_id, identity)
    entries = _entries(game_dir, game_id, path, doc)
    for entry in entries:
        _vouched(game_dir, game_id, identity, entry)
    store(game_dir, game_id, identity, entries)
    return entries


def _vouched(game_dir: Path, game_id: str, identity: Identity, entry: Entry) -> None:
    """Check ``entry`` of an unsigned ledger against its relayed copy ``press/NNNNNN.txt``,
    whose relay block the moderator signed when it relayed the message: number, turn, sender
    (``someone`` for grey press, whose sender only the ledger names), recipients and letter
    must be the copy's.  Raises FormatError for an entry no signed copy stands for (written by
    someone else than the relay)."""
    from pbem.inputs import read_text
    from pbem.press import text as block
    from pbem.press.rules import ALL
    from pbem.press.say import SOMEONE

    path = Path(game_dir) / PRESS_DIR / entry.filename
    refused = FormatError(
        f"{ledger_path(game_dir)}: message {entry.number} of the unsigned ledger is not the one the "
        f"moderator's signed copy {path} relayed (or that copy is missing): the ledger was not "
        "written by the relay alone",
        _RESTORE,
    )
    try:
        text = read_text(path, "relayed press copy", 1_000_000)
        opened = open_block(text, identity, str(path), "press copy")
        if opened is None:
            raise refused
        relay = block.parse(opened[0], block.RELAY, str(path))
        relay.verify(identity.public(), block.RELAY_DOMAIN)
        to = (ALL,) if entry.broadcast else entry.to
        same = (
            relay.header("Game").upper() == game_id.upper()
            and relay.header("Number") == str(entry.number)
            and relay.header("Turn") == str(entry.turn)
            and relay.header("From").lower() == (SOMEONE if entry.grey else entry.sender).lower()
            and tuple(n.lower() for n in block.names_list(relay.header("To"))) == tuple(n.lower() for n in to)
            and relay.header("Letter").lower() == entry.letter.lower()
        )
    except (FormatError, SignatureError, UsageError):
        raise refused from None
    if not same:
        raise refused


def store(game_dir: Path, game_id: str, moderator: Identity, entries: Sequence[Entry]) -> None:
    """Replace the ledger (atomically and durably), signed by and sealed to ``moderator``."""
    from pbem.folder import atomic_write

    body = {"format": LEDGER_FORMAT, "game_id": game_id, "entries": [e.to_json() for e in entries]}
    signature = base64.b64encode(moderator.sign(LEDGER_DOMAIN, canonical.dumps(body))).decode()
    raw = canonical.dumps({**body, "signature": signature})
    path = ledger_path(game_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, encrypt(raw, [moderator.public()], pad_to=LEDGER_SIZE))


def sent_in(entries: Sequence[Entry], sender: str, turn: int) -> int:
    """How many messages ``sender`` had relayed in ``turn``."""
    return sum(1 for e in entries if e.turn == turn and e.sender.lower() == sender.lower())


def received_in(entries: Sequence[Entry], name: str, turn: int) -> list[Entry]:
    """The messages relayed to ``name`` in ``turn``."""
    return [e for e in entries if e.turn == turn and name.lower() in (n.lower() for n in e.to)]
