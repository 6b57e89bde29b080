"""Press in a moderated game (``pbem moderate``, ``pbem judge``): a press file found in an
inbox, or mailed, is relayed and delivered: one copy into each recipient's folder
``players/<name>/press-NNNNNN.txt`` and, when mail is on, one mail per recipient; the
sender gets a notice (relayed, or why not).

Delivery is idempotent (files written once, mail keyed by message and recipient), so a
moderator killed between relaying and delivering delivers on its next pass: the file is
still in the inbox, the relay finds the message in its ledger and delivers it again instead
of calling it a replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError, ReplayError
from pbem.press import ledger
from pbem.press import text as block
from pbem.press.relay import Relayed, open_press, receipt, relay
from pbem.press.rules import PRESS_DIR

if TYPE_CHECKING:
    from pbem.engine import GameFolder
    from pbem.keys import Identity
    from pbem.moderator.notices import Notice
    from pbem.moderator.post import Post

PRESS_KINDS = frozenset({"relayed", "press"})
"""Notice kinds about press (the journal names no player for them: grey press)."""


def deliver(post: Post, game_id: str, relayed: Relayed) -> None:
    """Hand the relayed copy to every recipient: their folder, and a mail each."""
    for name in relayed.recipients:
        post.put(
            name,
            relayed.filename,
            relayed.text,
            f"[pbem {game_id}] {relayed.subject}",
            mail_key=f"{game_id}/press/{relayed.entry.number}/{name.lower()}",
        )


def _already(folder: GameFolder, identity: Identity, plain: str, source: str) -> Relayed | None:
    """The relayed message ``plain`` became, when the ledger holds it (a retry)."""
    try:
        envelope = block.parse(plain, block.ENVELOPE, source)
        letter_id = envelope.header("Id").upper()
        save = folder.read(identity.public())
        for entry in ledger.load(folder.path, save.game_id, identity):
            if entry.letter_id == letter_id:
                kept = folder.path / PRESS_DIR / entry.filename
                return Relayed(entry, kept.read_text(encoding="utf-8"))
    except (PbemError, OSError, UnicodeDecodeError):
        return None
    return None


def handle(
    folder: GameFolder,
    identity: Identity,
    text: str,
    source: str,
    base: dict[str, Any],
    post: Post | None,
    retry: bool,
) -> tuple[Notice, int | None] | None:
    """Relay and deliver ``text`` when it is a press file; the notice for its sender and the
    sender's seat.  None when ``text`` is not press (the order path reads it)."""
    from pbem.moderator.notices import Notice

    plain = open_press(text, identity, source)
    if plain is None:
        return None
    label = f"{source}, sealed press"
    try:
        relayed = relay(folder, identity, plain, label, base["received"])
    except ReplayError as exc:
        relayed_before = _already(folder, identity, plain, label) if retry else None
        if relayed_before is None:
            return Notice("press", message=exc.message, hint=exc.hint, **base), _seat(
                folder, identity, plain, label
            )
        relayed = relayed_before
    except PbemError as exc:
        seat = _seat(folder, identity, plain, label)
        return Notice("press", message=exc.message, hint=exc.hint, **base), seat
    if post is not None:
        deliver(post, folder.read(identity.public()).game_id, relayed)
    save = folder.read(identity.public())
    # A grey sender is told in their next report's private part (see listing.grey_sent_line):
    # a notice or a mail now, beside the copies the recipients get, would name them.
    # The notice sits in the sender's folder, which every player reads: to whom, and as
    # which message, goes in its encrypted details.
    message = "Your press message was relayed; to whom, and as which message, is in the details."
    notice = Notice("relayed", message=message, secret=receipt(relayed), kept_back=relayed.entry.grey, **base)
    return notice, save.seat_of(relayed.entry.sender)


def _seat(folder: GameFolder, identity: Identity, plain: str, label: str) -> int | None:
    """The seat whose key signed the envelope (the notice goes to them), else None."""
    try:
        envelope = block.parse(plain, block.ENVELOPE, label)
        save = folder.read(identity.public())
        seat = save.seat_of(envelope.header("From"))
        if seat is None:
            return None
        envelope.verify(save.players[seat], block.ENVELOPE_DOMAIN)
        return seat
    except PbemError:
        return None
