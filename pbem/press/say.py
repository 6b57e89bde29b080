"""The sender's side of press (``pbem say``): check a message against the game's rules,
sign it, encrypt it to its recipients only, and seal it to the moderator for relaying.

What the sender writes is two layers:

- the *letter*: the message text with ``Game``, ``From``, ``To``, a random ``Id`` and (not in
  grey press) ``Turn``, signed by the sender (grey letters are not signed: a signature would
  tell the recipients who wrote it), padded to :data:`~pbem.press.sealed.LETTER_SIZE` and
  encrypted with age to the recipients, plus the moderator only when the message goes to
  all players (public press goes into the archive) or the rules say the moderator reads
  all press;
- the *envelope*: who to whom, grey or not, the letter's hash, signed by the sender for the
  moderator, who checks it against the rules without reading the letter.

Both are sealed together to the moderator (padded to :data:`SEALED_SIZE`), so the folder or
the mail server sees neither who writes to whom nor how long the message is.
"""

from __future__ import annotations

import os
import textwrap
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import FormatError, RejectedError, UsageError
from pbem.inputs import FORGING
from pbem.keys import Identity, PublicCard, encrypt
from pbem.press import text as block
from pbem.press.rules import ALL, Message, PressRules, check_message, recipients_of
from pbem.press.sealed import LETTER_SIZE, SEALED_SIZE

SOMEONE = "someone"
"""The sender a grey letter names."""


@dataclass(frozen=True)
class PressInfo:
    """What a report says about press: the rules, the players' keys, the phase, who is out."""

    rules: PressRules
    cards: Mapping[str, PublicCard]
    """Each player's keys, as the moderator signed them into the report."""
    phase: tuple[str, str] | None
    out: tuple[str, ...]


def press_info(data: Mapping[str, Any], source: str) -> PressInfo:
    """The press part of a verified report's data block.

    Raises RejectedError when the game has no press, FormatError when the part is damaged.
    """
    press = data.get("press")
    if press is None:
        raise RejectedError(
            f"{source}: this game has no press (its report states no press rules)",
            "talk to the other players another way",
        )
    try:
        rules = PressRules.from_json(press["rules"], source)
        cards = {
            name: PublicCard(name, bytes.fromhex(card["sign"]), card["age"])
            for name, card in press["cards"].items()
        }
        phase = tuple(press["phase"]) if press["phase"] is not None else None
        out = tuple(str(n) for n in press["out"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise FormatError(f"{source}: the report's press data is damaged") from None
    if set(cards) != set(data["names"]) or any(len(c.verify_key) != 32 for c in cards.values()):
        raise FormatError(f"{source}: the report's press data does not list the game's players")
    if phase is not None and (len(phase) != 2 or not all(isinstance(p, str) for p in phase)):
        raise FormatError(f"{source}: the report's press data is damaged (phase)")
    return PressInfo(rules, cards, phase if phase is None else (str(phase[0]), str(phase[1])), out)


def message_lines(text: str, source: str) -> list[str]:
    """The message as lines of at most :data:`~pbem.press.text.WIDTH` characters (long lines
    wrapped at spaces; blank lines kept).  Raises FormatError for an empty message or one
    with control characters, naming the line."""
    text = unicodedata.normalize("NFC", text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n"))
    lines = text.expandtabs(4).split("\n")
    for number, line in enumerate(lines, start=1):
        bad = next(
            (c for c in line if c in FORGING or unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")), None
        )
        if bad is not None:  # FORGING: the readers would see an escape (pbem.inputs.visible)
            raise FormatError(
                f"{source}, line {number}: the character U+{ord(bad):04X} cannot be sent",
                "write plain text (letters, digits, punctuation, spaces)",
            )
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        out += textwrap.wrap(line, block.WIDTH, break_on_hyphens=False) if line else [""]
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    if not out:
        raise FormatError(f"{source}: the message is empty", "write something to say")
    return out


def text_chars(lines: Sequence[str]) -> int:
    """A message's length as the rules count it: its characters, not counting line ends."""
    return sum(len(line) for line in lines)


def parse_to(values: Sequence[str]) -> tuple[str, ...]:
    """``--to`` values (repeated, or comma separated) as recipient names; ``all`` alone means
    every other player.  Raises UsageError when none are given or ``all`` is mixed with names."""
    names = tuple(n.strip() for v in values for n in v.split(",") if n.strip())
    if not names:
        raise UsageError("name the recipients: --to NAME (repeated), or --to all")
    if any(n.lower() == ALL for n in names):
        if len(names) > 1:
            raise UsageError("--to all means every other player: do not name players with it")
        return (ALL,)
    return names


@dataclass(frozen=True)
class Said:
    """What ``pbem say`` wrote."""

    text: str
    """The sealed file to send to the moderator."""
    recipients: tuple[str, ...]
    grey: bool
    letter_id: str
    game_id: str
    sender: str
    """The sender's name as the game spells it (also for grey press)."""
    to: tuple[str, ...]
    """The ``To`` the letter states: the names, or ``all``."""
    turn: int
    """The turn of the report the message was written from."""
    lines: tuple[str, ...]
    """The text as the recipients will read it (wrapped)."""


def compose(
    identity: Identity,
    data: Mapping[str, Any],
    source: str,
    to: Sequence[str],
    message: str,
    message_source: str,
    *,
    grey: bool = False,
    random: Callable[[int], bytes] = os.urandom,
) -> Said:
    """Check, sign, encrypt and seal one message, from the data block of the sender's
    verified report.

    Raises RejectedError (the rules refuse it: no press, public only, grey not allowed, an
    unknown or excluded recipient, too long), FormatError (the text or the report).
    """
    info = press_info(data, source)
    names = list(data["names"])
    sender = next((n for n in names if n.lower() == identity.name.lower()), identity.name)
    lines = message_lines(message, message_source)
    msg = Message(sender, tuple(to), grey, text_chars(lines))
    check_message(info.rules, msg, names, info.out, info.phase, where="your message")
    recipients = recipients_of(msg, names)
    to_header = ALL if msg.broadcast else ", ".join(recipients)
    letter_id = random(16).hex().upper()
    headers = [("Game", str(data["game_id"])), ("From", SOMEONE if grey else sender), ("To", to_header)]
    headers.append(("Id", letter_id))
    if not grey:
        headers.append(("Turn", str(data["turn"])))
    sign = None if grey else (lambda raw: identity.sign(block.LETTER_DOMAIN, raw))
    letter = block.write(block.LETTER, headers, lines, sign).encode("utf-8")
    if len(letter) > LETTER_SIZE:
        raise RejectedError(
            f"{message_source}: the message takes {len(letter):,} bytes once signed; a message holds at "
            f"most {LETTER_SIZE:,} (about {LETTER_SIZE - 400:,} characters of plain English)",
            "shorten it, or send it in several messages",
        )
    moderator = PublicCard.from_json(dict(data["moderator"]))
    keys: list[PublicCard | str] = [info.cards[n] for n in recipients]
    if msg.broadcast or info.rules.moderator_reads:
        keys.append(moderator)
    armour = encrypt(letter, keys, pad_to=LETTER_SIZE)
    envelope = block.write(
        block.ENVELOPE,
        [
            ("Game", str(data["game_id"])),
            ("Turn", str(data["turn"])),
            ("From", sender),
            ("To", to_header),
            ("Grey", "yes" if grey else "no"),
            ("Id", letter_id),
            ("Letter", block.armour_digest(armour)),
        ],
        sign=lambda raw: identity.sign(block.ENVELOPE_DOMAIN, raw),
    )
    sealed = encrypt((envelope + armour).encode("utf-8"), [moderator], pad_to=SEALED_SIZE)
    return Said(
        sealed,
        tuple(recipients),
        grey,
        letter_id,
        str(data["game_id"]),
        sender,
        (ALL,) if msg.broadcast else tuple(recipients),
        int(data["turn"]),
        tuple(lines),
    )


def say(
    report_text: str,
    report_source: str,
    identity: Identity,
    to: Sequence[str],
    message: str,
    message_source: str,
    *,
    grey: bool = False,
    moderator: PublicCard | None = None,
    home: Path | None = None,
    random: Callable[[int], bytes] = os.urandom,
) -> Said:
    """:func:`compose` from the sender's report (verified and its moderator pinned, as
    ``pbem orders`` does).  Raises what :func:`pbem.player.read_report` and :func:`compose` raise."""
    from pbem.player import read_report

    report = read_report(report_text, report_source, identity, moderator, home)
    return compose(
        identity, report.data, report_source, to, message, message_source, grey=grey, random=random
    )
