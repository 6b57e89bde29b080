"""The recipient's side of press (``pbem press read``): open a relayed copy and check it.

A relayed copy is believed only when every check holds: the moderator's relay block is
signed by the game's moderator (the key pinned when the player first read a report of the
game, or the card given), the letter inside is the one the relay block names (its hash), the
letter's ``Game``, ``From``, ``To`` and the relay's agree, the reader is among its recipients,
and, unless it is grey press, the letter is signed by the sending player's key the moderator
vouches for.  Grey press says "someone" and must carry no signature.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import FormatError, SignatureError, UsageError
from pbem.inputs import visible
from pbem.keys import Identity, PublicCard, key_id_of
from pbem.press import text as block
from pbem.press.rules import ALL
from pbem.press.say import SOMEONE
from pbem.press.sealed import open_block

_PRESS_FILE = re.compile(r"(?:press-)?[0-9]{6}\.txt")


@dataclass(frozen=True)
class Letter:
    """A message as its recipient reads it, every check done."""

    game_id: str
    number: int
    turn: int
    sender: str
    """The sender's name, or ``someone`` (grey press)."""
    sender_key: str | None
    """The sender's key id (None for grey press)."""
    to: tuple[str, ...]
    text: tuple[str, ...]
    letter_id: str

    @property
    def grey(self) -> bool:
        return self.sender_key is None

    def render(self) -> str:
        """The message for a person to read."""
        if self.grey:
            who = f"From: {SOMEONE} (grey press: the moderator relayed it without saying who wrote it)"
        else:
            who = f"From: {self.sender} (signature checked: key {self.sender_key})"
        to = "all players" if self.to == (ALL,) else ", ".join(self.to)
        head = [
            f"Press message {self.number}, game {self.game_id}, relayed in turn {self.turn}",
            who,
            f"To: {to}",
        ]
        return "\n".join([*head, "", *self.text]).rstrip() + "\n"


def _moderator(game_id: str, given: PublicCard | None, home: Path | None) -> PublicCard:
    """The card the relay block must be signed by: ``given`` (pinned by :func:`read_letter`
    once a relay block it signed verifies), else the key pinned for the game.  Raises
    UsageError when none is known, SignatureError when ``given`` is not the pinned key."""
    from pbem.folder import default_home
    from pbem.player import KnownModerators

    pins = KnownModerators(home or default_home())
    if given is not None:
        # checked against a pin here, pinned by the caller once the relay block verifies
        pins.check(game_id, given, "the moderator card given", pin=False)
        return given
    known = pins.card_of(game_id)
    if known is None:
        raise UsageError(
            f"no moderator key is known here for game {game_id}",
            "read a report of the game first (pbem read REPORT --key YOUR.key), or pass --moderator MOD.pub",
        )
    return known


def read_letter(
    text: str, source: str, identity: Identity, moderator: PublicCard | None = None, home: Path | None = None
) -> Letter | None:
    """The message in a relayed copy, every check done; None when the copy is not encrypted
    to ``identity`` (a message for other players).

    Raises FormatError (damaged, not a relayed copy, the parts disagree) and SignatureError
    (not signed by the game's moderator, or a letter not signed by its sender).
    """
    if block.AGE_BEGIN not in text:
        raise FormatError(
            f"{source} is not a press message (it has no encrypted part)",
            "pass a relayed copy: players/NAME/press-NNNNNN.txt, the game's press/NNNNNN.txt or the mail",
        )
    opened = open_block(text, identity, source, "press message")
    if opened is None:
        return None
    plain = opened[0]
    label = f"{source}, encrypted part"
    relay = block.parse(plain, block.RELAY, label)
    game_id = relay.header("Game").upper()
    card = _moderator(game_id, moderator, home)
    try:
        relay.verify(card, block.RELAY_DOMAIN)
    except SignatureError:
        raise SignatureError(
            f"{source}: the relay block is not signed by the moderator of game {game_id} ({card.key_id}): "
            "a forged press message",
            "do not believe it; tell your moderator",
        ) from None
    if moderator is not None:  # a card given: pinned only once a relay block it signed verified
        from pbem.folder import default_home
        from pbem.player import KnownModerators

        KnownModerators(home or default_home()).check(game_id, moderator, source)
    letters = block.age_blocks(plain.split(block.end(block.RELAY), 1)[1])
    if len(letters) != 1 or block.armour_digest(letters[0][1]) != relay.header("Letter").lower():
        raise FormatError(f"{source}: the letter is not the one the moderator relayed")
    inner = open_block(letters[0][1], identity, f"{label}, letter", "letter")
    if inner is None:
        raise FormatError(f"{source}: the letter is not encrypted to your key, though the relay names you")
    letter = block.parse(inner[0], block.LETTER, f"{label}, letter")
    for name in ("Game", "From", "To"):
        if letter.header(name).lower() != relay.header(name).lower():
            raise FormatError(f"{source}: the letter's {name}: and the moderator's disagree")
    to = block.names_list(relay.header("To"))
    if to != (ALL,) and identity.name.lower() not in (n.lower() for n in to):
        raise FormatError(f"{source}: this message is not addressed to {identity.name}")
    sender = relay.header("From")
    key_id = None
    if sender.lower() == SOMEONE:
        if letter.signature is not None or relay.has("Key"):
            raise FormatError(f"{source}: grey press that carries a signature or a key")
    else:
        try:
            raw = base64.b64decode(relay.header("Key"), validate=True)
            letter.verify(PublicCard(sender, raw, ""), block.LETTER_DOMAIN)
        except (ValueError, SignatureError):
            raise SignatureError(f"{source}: the letter is not signed by {sender}'s key") from None
        key_id = key_id_of(raw).hex().upper()
    try:
        number, turn = int(relay.header("Number")), int(relay.header("Turn"))
    except ValueError:
        raise FormatError(f"{source}: the relay block's Number or Turn is not a number") from None
    shown = tuple(visible(line) for line in letter.text)  # whatever the sender signed
    return Letter(game_id, number, turn, sender, key_id, to, shown, letter.header("Id"))


def read_many(
    paths: list[Path], identity: Identity, moderator: PublicCard | None = None, home: Path | None = None
) -> tuple[list[Letter], list[str]]:
    """Every message among ``paths`` (files, or folders whose press files are read: the
    ``press-NNNNNN.txt`` a player gets, the ``NNNNNN.txt`` the game keeps) that
    is for ``identity``, by game and number, and the files passed over because they are not.
    Raises as :func:`read_letter` for a file that is for ``identity`` but does not check out."""
    from pbem.inputs import read_text

    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if _PRESS_FILE.fullmatch(p.name) and p.is_file())
        else:
            files.append(path)
    found: dict[tuple[str, int], Letter] = {}
    skipped: list[str] = []
    for path in files:
        text = read_text(path, "press message", 2_000_000)
        letter = read_letter(text, str(path), identity, moderator, home)
        if letter is None:
            skipped.append(str(path))
        else:
            found[(letter.game_id, letter.number)] = letter
    return [found[k] for k in sorted(found)], skipped
