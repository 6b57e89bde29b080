"""The moderator's side of press: open what a player sealed, check it, record it, and make the
one relayed copy every recipient gets.

The moderator opens the seal and reads the *envelope* (who to whom, grey or not, the hash of
the letter), checks the sender's signature, the game's rules and that the letter is what the
envelope says: one age file of exactly :data:`~pbem.press.sealed.LETTER_SIZE` bytes (so an
over-long message is refused without reading it) encrypted to exactly as many keys as it has
recipients, plus the moderator's when the rules say the moderator reads it.  Only then does it
read the letter itself, and only when it was encrypted to it: a message to all players (it
goes into the archive), or any message when the rules say the moderator reads all press.

The relayed copy is the moderator's signed ``PBEM PRESS RELAY`` block (game, number, the turn
it was relayed in, ``From`` the sender or ``someone``, ``To``, the letter's hash and, unless
grey, the sender's signing key) followed by the letter, encrypted to the recipients and the
moderator and padded to :data:`~pbem.press.sealed.RELAY_SIZE`.  It is the same for every
recipient and is kept in ``press/NNNNNN.txt``; nothing of the sender's seal, signature, key,
time or file name reaches the recipients of grey press.

Every refusal is a :class:`~pbem.errors.PbemError` raised before anything is written.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.errors import ForeignError, FormatError, RejectedError, ReplayError, SignatureError
from pbem.keys import Identity, PublicCard, encrypt
from pbem.press import ledger
from pbem.press import text as block
from pbem.press.ledger import Entry
from pbem.press.rules import (
    ALL,
    PRESS_DIR,
    Message,
    check_message,
    game_out,
    game_phase,
    load_rules,
    out_players,
    recipients_of,
)
from pbem.press.say import SOMEONE, text_chars
from pbem.press.sealed import (
    LETTER_SIZE,
    RELAY_SIZE,
    armour_lines,
    normal_armour,
    open_block,
    stanzas,
)
from pbem.transit import age_plaintext_length

if TYPE_CHECKING:
    from pbem.engine import GameFolder
    from pbem.save import Save

_ID = re.compile(r"[0-9A-F]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"


def open_press(text: str, identity: Identity, source: str) -> str | None:
    """The plaintext of a sealed press file (what ``pbem say`` writes) when ``text`` is one
    sealed to ``identity``, else None (an order file, or anything else: its own reader says
    what is wrong with it).  The block's opening is kept for the order reader that reads
    it next when it is not press (:meth:`Identity.decrypt`'s ``keep``)."""
    if AGE_BEGIN not in text:
        return None
    try:
        opened = open_block(text, identity, source, "press file", keep=True)
    except FormatError:
        return None
    if opened is None or block.begin(block.ENVELOPE) not in opened[0]:
        return None
    return opened[0]


@dataclass(frozen=True)
class Relayed:
    """One message relayed: its ledger entry and the copy each recipient gets."""

    entry: Entry
    text: str
    """The relayed copy (the same for every recipient)."""

    @property
    def recipients(self) -> tuple[str, ...]:
        return self.entry.to

    @property
    def filename(self) -> str:
        return f"press-{self.entry.number:06d}.txt"

    @property
    def subject(self) -> str:
        return f"press message {self.entry.number}"


def _sender(save: Save, envelope: block.Block, label: str) -> tuple[str, PublicCard]:
    """The player who signed the envelope.  Raises ForeignError, SignatureError."""
    claimed = envelope.header("From")
    seat = save.seat_of(claimed)
    if seat is None:
        raise ForeignError(f"{label}: From: {claimed[:40]!r} is no player of game {save.game_id}")
    card = save.players[seat]
    try:
        envelope.verify(card, block.ENVELOPE_DOMAIN)
    except SignatureError:
        for other in save.players:
            try:
                envelope.verify(other, block.ENVELOPE_DOMAIN)
            except SignatureError:
                continue
            raise SignatureError(
                f"{label}: this press says From: {save.names[seat]} but was signed with {other.name}'s key",
                f"each player sends press under their own name (pbem say --key {other.name}.key)",
            ) from None
        raise SignatureError(
            f"{label}: the signature does not match {save.names[seat]}'s key {card.key_id}: the press "
            "was changed after signing, or signed with another key",
            "write it again with pbem say and your own key",
        ) from None
    return save.names[seat], card


def _number(value: str, what: str, label: str) -> int:
    if not (value.isascii() and value.isdigit() and len(value) <= 9):
        raise FormatError(f"{label}: {what} must be a whole number, got {value[:20]!r}")
    return int(value)


def _check_letter(
    letter_text: str,
    label: str,
    save: Save,
    sender: str,
    card: PublicCard,
    grey: bool,
    to_header: str,
    letter_id: str,
) -> int:
    """Check a letter the moderator could open against its envelope; its text's length."""
    letter = block.parse(letter_text, block.LETTER, f"{label}, letter")
    expected = {"Game": save.game_id, "From": SOMEONE if grey else sender, "To": to_header, "Id": letter_id}
    for name, value in expected.items():
        if letter.header(name).lower() != value.lower():
            raise FormatError(
                f"{label}: the letter's {name}: {letter.header(name)[:40]!r} differs from the envelope's "
                f"{value[:40]!r}",
                "write the message again with pbem say",
            )
    if grey and letter.signature is not None:
        raise RejectedError(
            f"{label}: grey press must not be signed: the signature would tell the recipients who wrote it",
            "write it again with pbem say --grey",
        )
    if not grey:
        try:
            letter.verify(card, block.LETTER_DOMAIN)
        except SignatureError:
            raise SignatureError(f"{label}: the letter is not signed by {sender}'s key") from None
    return text_chars(letter.text)


def relay(folder: GameFolder, identity: Identity, plain: str, label: str, received: str) -> Relayed:
    """Check one sealed press file's plaintext (from :func:`open_press`) and relay it: write
    the kept copy and the ledger entry.  The caller holds the game's lock and delivers.

    Raises ForeignError (another game, not a player), SignatureError (forged), ReplayError
    (relayed before), FormatError (damaged, the letter not the envelope's) or RejectedError
    (the game's rules refuse it: no press, public only, grey, an unknown or excluded recipient,
    too long, too many this turn, the game is over).  Nothing is written then.
    """
    from pbem.moderator.durable import write_once

    save = folder.read(identity.public())
    envelope = block.parse(plain, block.ENVELOPE, label)
    game_id = envelope.header("Game").upper()
    if game_id != save.game_id:
        raise ForeignError(f"{label}: this press is for game {game_id[:20]!r}; this is game {save.game_id}")
    sender, card = _sender(save, envelope, label)
    turn = _number(envelope.header("Turn"), "Turn", label)
    if turn > save.turn:
        raise RejectedError(f"{label}: written for turn {turn}, but the game is at turn {save.turn}")
    grey_text = envelope.header("Grey").lower()
    if grey_text not in ("yes", "no"):
        raise FormatError(f"{label}: Grey must be yes or no, got {grey_text[:20]!r}")
    grey = grey_text == "yes"
    to = block.names_list(envelope.header("To"))
    to = (ALL,) if [n.lower() for n in to] == [ALL] else to
    letter_id = envelope.header("Id").upper()
    if not _ID.fullmatch(letter_id):
        raise FormatError(f"{label}: Id must be 32 hexadecimal digits, got {letter_id[:40]!r}")
    digest = envelope.header("Letter").lower()
    after = plain.split(block.end(block.ENVELOPE), 1)[1]
    letters = block.age_blocks(after)
    if len(letters) != 1:
        raise FormatError(f"{label}: the press holds {len(letters)} letters; it must hold one")
    armour = letters[0][1]
    if block.armour_digest(armour) != digest:
        raise FormatError(
            f"{label}: the letter is not the one the envelope was signed for", "write it again with pbem say"
        )
    lines = armour_lines(armour)
    length = None if lines is None else age_plaintext_length(lines)
    if lines is None or length is None:
        raise FormatError(f"{label}: the letter is not a readable age file")
    if length != LETTER_SIZE:
        raise RejectedError(
            f"{label}: the letter holds {length:,} bytes; every letter holds exactly {LETTER_SIZE:,} "
            "(an over-long message, or not written by pbem say)",
            "shorten the message and write it again with pbem say",
        )
    if save.body["outcome"] is not None:
        raise RejectedError(f"{label}: game {save.game_id} is over: press is closed")
    entries = ledger.load(folder.path, save.game_id, identity)
    for entry in entries:
        if entry.letter_id == letter_id or entry.letter == digest:
            raise ReplayError(
                f"{label}: this message was relayed already, as message {entry.number} (turn {entry.turn})",
                "nothing to do: it was delivered; to say more, write a new message with pbem say",
            )
    loaded = folder.load(identity)
    public_view = loaded.game.observe(loaded.secret.state, None)
    rules = load_rules(folder.path, save.game_id, save.moderator)
    out = out_players(save.body["players"], save.names, game_out(loaded.game, public_view))
    phase = game_phase(loaded.game, public_view)
    shape = Message(sender, to, grey, 0)
    # The rules first on the shape alone (no recipient lookups on unknown names below).
    check_message(rules, shape, save.names, out, phase, ledger.sent_in(entries, sender, save.turn), label)
    recipients = recipients_of(shape, save.names)
    to_header = ALL if shape.broadcast else ", ".join(recipients)
    readable = shape.broadcast or rules.moderator_reads
    keys = [s for s in stanzas(lines) if s == "X25519"]
    if len(keys) != len(recipients) + readable:
        raise RejectedError(
            f"{label}: the letter is encrypted to {len(keys)} key(s), but it goes to {len(recipients)} "
            f"player(s){' and the moderator' if readable else ''}",
            "write it again with pbem say (it encrypts to exactly the recipients)",
        )
    chars = 0
    if readable:
        opened = open_block(armour, identity, f"{label}, letter", "letter")
        if opened is None:
            raise RejectedError(
                f"{label}: the rules say the moderator can read this message, but it is not encrypted "
                "to the moderator's key",
                "write it again with pbem say, from your latest report",
            )
        chars = _check_letter(opened[0], label, save, sender, card, grey, to_header, letter_id)
    check_message(
        rules,
        Message(sender, to, grey, chars),
        save.names,
        out,
        phase,
        ledger.sent_in(entries, sender, save.turn),
        label,
    )
    number = max((e.number for e in entries), default=0) + 1
    entry = Entry(
        number,
        save.turn,
        sender,
        tuple(recipients),
        shape.broadcast,
        grey,
        letter_id,
        digest,
        readable,
        received,
    )
    headers = [
        ("Game", save.game_id),
        ("Number", str(number)),
        ("Turn", str(save.turn)),
        ("From", SOMEONE if grey else sender),
        ("To", to_header),
        ("Letter", digest),
    ]
    if not grey:
        headers.append(("Key", base64.b64encode(card.verify_key).decode()))
    relay_block = block.write(block.RELAY, headers, sign=lambda raw: identity.sign(block.RELAY_DOMAIN, raw))
    by_name = dict(zip(save.names, save.players, strict=True))
    cards = [by_name[n] for n in recipients]
    sealed = encrypt(
        (relay_block + normal_armour(lines)).encode("utf-8"), [*cards, save.moderator], pad_to=RELAY_SIZE
    )
    text = relayed_text(save.game_id, number, save.turn, sealed)
    write_once(folder.path / PRESS_DIR / entry.filename, text)
    ledger.store(folder.path, save.game_id, identity, (*entries, entry))
    return Relayed(entry, text)


def relayed_text(game_id: str, number: int, turn: int, sealed: str) -> str:
    """A relayed copy: a few clear lines (nothing about sender, recipients or text), then
    the encrypted part."""
    return (
        f"pbem press: game {game_id}, message {number}, relayed in turn {turn}.\n"
        "Encrypted to its recipients; read it with:\n"
        "  pbem press read THIS-FILE --key YOUR.key\n\n" + sealed
    )


def receipt(relayed: Relayed) -> str:
    """What the sender is told when the message was relayed."""
    entry = relayed.entry
    to = "all players" if entry.broadcast else ", ".join(entry.to)
    how = "as grey press (the recipients see 'someone')" if entry.grey else "under your name"
    return (
        f"Your press message (Id {entry.letter_id[:8]}...) was relayed as message {entry.number} "
        f"to {to}, {how}.\nIt is listed in their next report."
    )


def press_game_id(text: str, identity: Identity, source: str) -> str | None:
    """The game a sealed press file names (for the mail judge, which files each block in its
    game's inbox), or None when ``text`` is not press or its envelope cannot be read (the
    relay then says what is wrong)."""
    plain = open_press(text, identity, source)
    if plain is None:
        return None
    try:
        return block.parse(plain, block.ENVELOPE, source).header("Game")
    except FormatError:
        return None
