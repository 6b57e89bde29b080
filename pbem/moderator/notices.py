"""What a player is told about an order file: accepted, or what was wrong and what to do.

A notice is plain text with a public part (the file, the turn, the kind of problem, what to
do) and, when the details may name hidden facts (the game's line-by-line errors speak of
the player's own cards), those details encrypted with age to that player and the
moderator.  ``pbem open NOTICE --key YOU.key`` shows them.  The moderator signs the words of
every notice it writes (domain ``pbem-notice/v1``), and ``pbem open`` checks them against the
moderator key the player pinned for the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.errors import (
    DuplicateError,
    ForeignError,
    FormatError,
    NotAwaitedError,
    OrdersRejected,
    PbemError,
    ReplayError,
    SignatureError,
)
from pbem.keys import Identity, PublicCard, encrypt
from pbem.padding import NOTICE_SIZE
from pbem.wording import counted as plural
from pbem.wording import wrap_text

KINDS = {
    "accepted": "ACCEPTED",
    "replaced": "ACCEPTED (replaces your earlier orders for this turn)",
    "duplicate": "NOT NEEDED: already accepted; nothing changed",  # one line of a mail
    "late": "REJECTED: too late, that turn is over",
    "replayed": "REJECTED: an old or replayed order file",
    "forged": "REJECTED: the signature does not match",
    "malformed": "REJECTED: the file cannot be read",
    "foreign": "REJECTED: not for this game or not from a player of it",
    "not-awaited": "REJECTED: no orders are awaited from you now",
    "orders": "REJECTED: some orders cannot be carried out",
    "stand-in": "NO ORDERS ARRIVED: the stand-in played for you",
    "abandoned": "SEAT ABANDONED: the stand-in plays for you from now on",
    "relayed": "RELAYED: your press was passed on to its recipients",
    "press": "REJECTED: your press was not passed on",
}


def kind_of(error: PbemError) -> str:
    """The notice kind for an engine error."""
    if isinstance(error, DuplicateError):
        return "duplicate"
    if isinstance(error, ReplayError):
        return (
            "late" if "old order file" in error.message or "game is at turn" in error.message else "replayed"
        )
    if isinstance(error, SignatureError):
        return "forged"
    if isinstance(error, ForeignError):
        return "foreign"
    if isinstance(error, NotAwaitedError):
        return "not-awaited"
    if isinstance(error, OrdersRejected):
        return "orders"
    if isinstance(error, FormatError):
        return "malformed"
    return "malformed"


VERIFIED_KINDS = frozenset(
    {"accepted", "replaced", "duplicate", "late", "replayed", "not-awaited", "orders", "relayed", "press"}
)
"""Kinds the engine reports only after the signature verified: the seat is known."""


@dataclass(frozen=True)
class Notice:
    """One answer about one order file."""

    kind: str
    game_id: str
    turn: int
    source: str
    received: str
    message: str
    hint: str | None = None
    secret: str | None = None
    """Details only the player may read (encrypted in the text)."""
    mailed: bool = False
    """``source`` is a mail (its subject and date), not a file: the notice says "Mail:"."""
    kept_back: bool = False
    """Neither written nor mailed (the journal still has it): a grey press message's
    RELAYED notice, which would name its sender to everyone who reads the folder."""

    @property
    def subject(self) -> str:
        if self.kind == "stand-in":
            return f"[pbem {self.game_id}] turn {self.turn}: the stand-in played for you"
        if self.kind == "abandoned":
            return f"[pbem {self.game_id}] turn {self.turn}: your seat is marked abandoned"
        if self.kind in ("relayed", "press"):
            verdict = "relayed" if self.kind == "relayed" else "not relayed"
            return f"[pbem {self.game_id}] turn {self.turn}: your press was {verdict}"
        verdict = "accepted" if self.kind in ("accepted", "replaced") else "not accepted"
        if self.kind == "duplicate":
            verdict = "already accepted"
        return f"[pbem {self.game_id}] turn {self.turn}: your orders were {verdict}"

    def render(self, recipients: Sequence[PublicCard] = (), signer: Identity | None = None) -> str:
        """The notice text; the secret part is encrypted to ``recipients`` (left out if none).

        With ``signer`` (the moderator) the text ends with its signature of the notice's words
        (:func:`signature_lines`), which ``pbem open`` checks against the pinned key."""
        text = self._text(recipients)
        return text if signer is None else text + "\n".join(signature_lines(text, signer)) + "\n"

    def _text(self, recipients: Sequence[PublicCard]) -> str:
        """:meth:`render` without the signature."""
        lines = [f"pbem moderator notice: game {self.game_id}, turn {self.turn}"]
        if self.source:
            lines += [
                f"{'Mail:' if self.mailed else 'File:'}     {self.source}",
                f"Received: {self.received}",
            ]
        else:  # about the player's seat, not about a file they sent
            lines.append(f"Time:     {self.received}")
        lines += [f"Result:   {KINDS[self.kind]}", "", self.message]
        if self.hint:
            lines += ["", f"What to do: {self.hint}"]
        if self.secret is not None and recipients:
            lines += [
                "",
                "The details name things only you may see, so they are encrypted to you.",
                "Read them with: pbem open THIS-FILE --key YOUR.key",
                "",
                # Padded: the length of the details must not say what they name.
                encrypt(wrap_text(self.secret).encode("utf-8"), list(recipients), pad_to=NOTICE_SIZE).rstrip(
                    "\n"
                ),
            ]
        return "\n".join(lines) + "\n"


NOTICE_DOMAIN = "pbem-notice/v1"
SIGNATURE_BEGIN = "-----BEGIN PBEM NOTICE SIGNATURE-----"
SIGNATURE_END = "-----END PBEM NOTICE SIGNATURE-----"
NOTICE_START = "pbem moderator notice: game "
"""The first line of every notice (then the game id, a comma and the turn)."""


def _words(lines: Sequence[str]) -> bytes:
    """What a notice's signature covers: its words in order, joined by single spaces (mail
    quoting removed by the caller, NFC), so re-indenting, line ends and folded lines do not
    matter and every word does."""
    import unicodedata

    return unicodedata.normalize("NFC", " ".join(" ".join(lines).split())).encode("utf-8")


def signature_lines(text: str, signer: Identity) -> list[str]:
    """The lines that sign the notice ``text`` (its words, from its first line)."""
    import base64

    signature = base64.b64encode(signer.sign(NOTICE_DOMAIN, _words(text.splitlines()))).decode()
    return ["", SIGNATURE_BEGIN, signature[:64], signature[64:], SIGNATURE_END]


def signature_verdict(text: str, home: Any) -> str | None:
    """What ``pbem open`` says of a notice's signature, one line; None when ``text`` is no
    notice.  A notice is believed only when it is signed by the moderator key pinned for its
    game (:class:`pbem.player.KnownModerators` under ``home``); never raises for any text."""
    import base64
    import binascii

    from pbem.errors import PbemError
    from pbem.mailtext import unquoted
    from pbem.player import KnownModerators

    lines = [line.strip() for line in unquoted(text)]
    start = next((i for i, line in enumerate(lines) if line.startswith(NOTICE_START)), None)
    if start is None:
        return None
    game_id = lines[start][len(NOTICE_START) :].split(",", 1)[0].strip().upper()
    if len(game_id) != 16 or not all(c in "0123456789ABCDEF" for c in game_id):
        return "pbem: warning: this notice names no game id pbem writes: do not act on it"
    begin = next((i for i in range(start, len(lines)) if lines[i] == SIGNATURE_BEGIN), None)
    end = (
        None
        if begin is None
        else next((i for i in range(begin, len(lines)) if lines[i] == SIGNATURE_END), None)
    )
    if begin is None or end is None:
        return (
            "pbem: warning: this notice is not signed: anyone who can write your folder or "
            "mail you can write one; do not act on it, your next report is what counts"
        )
    try:
        known = KnownModerators(home).card_of(game_id)
    except (PbemError, OSError):
        known = None
    if known is None:
        return (
            f"pbem: warning: no moderator key is pinned here for game {game_id}, so this "
            "notice's signature cannot be checked: read a report of the game first (pbem read)"
        )
    try:
        signature = base64.b64decode("".join(lines[begin + 1 : end]), validate=True)
        known.verify(NOTICE_DOMAIN, _words(lines[start:begin]), signature)
    except (ValueError, binascii.Error, PbemError):
        return (
            f"pbem: warning: this notice is NOT signed by the moderator of game {game_id} "
            "(the key pinned here): a forged or changed notice; do not act on it"
        )
    outside = sum(1 for line in [*lines[:start], *lines[end + 1 :]] if line)
    if outside:
        return (
            f"pbem: warning: the notice is signed by the moderator of game {game_id}, but {outside} "
            "line(s) above or below it are not part of it: do not act on them"
        )
    return f"pbem: signed by the moderator of game {game_id} (key {known.key_id})"


def notice_filename(turn: int, key: str) -> str:
    """The name of the answer to the inbox file with content key ``key``, taken in ``turn``
    (the turn the file was for): the moderator writes it there, and a restarted pass looks
    for it there to tell that the file was answered."""
    return f"notice-turn-{turn:04d}-{key[:12]}.txt"


def describe_stand_in(policy: str) -> str:
    """A timing policy's stand-in (``default``, ``bot:greedy``) in words."""
    if policy.startswith("bot:"):
        return f"the {policy[4:]} bot"
    return "the game's default orders"


def stand_in_notice(
    game_id: str,
    turn: int,
    when: str,
    player: str,
    stand: str,
    orders: Sequence[str],
    missed: int,
    abandon_after: int,
    *,
    rest: bool = False,
) -> Notice:
    """What a player is told when no orders of theirs arrived for ``turn`` in time and the
    stand-in (``stand``: the timing policy's ``default`` or ``bot:NAME``) played for them;
    ``rest``: it finished a go it began the turn before (the game asked the seat again).
    The orders it played may name the player's hidden cards: they go in the encrypted part."""
    # One line a sentence: the notice is folded at 70 columns, each line a paragraph.
    if rest:
        lines = [
            f"The game asked you again in turn {turn} to finish the go the stand-in began, "
            f"so the stand-in finished it at once: {describe_stand_in(stand)}.",
        ]
    else:
        lines = [
            f"No orders of yours for turn {turn} had arrived by the end of the grace period, "
            f"so the stand-in played for you: {describe_stand_in(stand)}.",
        ]
    lines += [
        'Your next report says so too ("played by the stand-in").',
        f"Turns you have missed: {missed}.",
    ]
    if abandon_after > 0:
        lines.append(f"After {plural(abandon_after, 'missed turn')} a seat is marked abandoned.")
    secret = "The orders the stand-in played for you:\n" + (
        "\n".join(f"  {line}" for line in orders) or "  (none)"
    )
    return Notice(
        "stand-in",
        game_id=game_id,
        turn=turn,
        source="",
        received=when,
        message="\n".join(lines),
        hint="send your orders for the next turn before its deadline (your report tells you when)",
        secret=secret,
    )


def abandoned_notice(game_id: str, turn: int, when: str, stand: str, missed: int, counted: str) -> Notice:
    """What a player is told when their seat is marked abandoned after ``missed`` turns
    (``counted``: the policy's ``consecutive`` or ``total``)."""
    how = "in a row" if counted == "consecutive" else "in all"
    message = (  # one paragraph: the notice is folded at 70 columns
        f"You have missed {plural(missed, 'turn')} {how}, as many as this game allows, "
        f"so your seat is marked abandoned as of turn {turn}.  From now on the stand-in "
        f"plays it without waiting for a deadline: {describe_stand_in(stand)}."
    )
    return Notice(
        "abandoned",
        game_id=game_id,
        turn=turn,
        source="",
        received=when,
        message=message,
        hint="if you want to play on, write to the moderator: only they can give the seat back "
        "(pbem replace)",
    )


def open_text(text: str, identity: Identity, source: str = "the file") -> str:
    """``text`` with every age block decrypted with ``identity`` (its padding left out).

    Anyone may mail a file that looks like a notice (whether the moderator signed it is
    :func:`signature_verdict`'s to say), so what is shown is made safe: control characters
    as escapes (no terminal escape sequence reaches the reader); the signature's own lines
    are left out.  Raises
    FormatError, naming ``source`` and the block's line, if a block is not for this key,
    is cut off (no END line) or does not hold UTF-8 text.
    """
    from pbem.inputs import visible
    from pbem.orders import AGE_BEGIN, AGE_END

    out: list[str] = []
    block: list[str] | None = None
    start = 0
    signature = False  # inside the signature's lines (:func:`signature_verdict` checks them)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if block is None and stripped == AGE_BEGIN:
            block, start = [stripped], number
        elif block is not None:
            block.append(stripped)
            if stripped == AGE_END:
                try:
                    plain = identity.decrypt("\n".join(block) + "\n").decode("utf-8").rstrip()
                except FormatError as exc:
                    raise FormatError(f"{source}, line {start}: {exc.message}", exc.hint) from None
                except UnicodeDecodeError:
                    raise FormatError(
                        f"{source}, line {start}: the encrypted details are not UTF-8 text",
                        "this is not a notice pbem wrote; ask the moderator for it again",
                    ) from None
                details = [visible(part) for part in plain.splitlines()]
                out += ["----- encrypted details -----", *details, "----- end of details -----"]
                block = None
        elif stripped == SIGNATURE_BEGIN:
            signature = True
        elif signature:
            signature = stripped != SIGNATURE_END
        else:
            out.append(visible(line))
    if block is not None:
        raise FormatError(
            f"{source}, line {start}: the encrypted block has no {AGE_END!r} line: the file was cut off",
            "ask for it again, or copy the whole file",
        )
    return "\n".join(out) + "\n"


def mail_label(origin: Mapping[str, Any] | None) -> tuple[str, str]:
    """How a notice names a mailed order block to the player who mailed it, from the mail's
    origin (:func:`pbem.moderator.judge.mail_origin`): the ``Mail:`` line ('"Turn 3", sent
    Tue, 24 Nov 2026 10:00:00 +0000') and the name in the message ('your mail "Turn 3"').
    The file the judge wrote stays the moderator's own (journal, quarantine).  Never raises."""
    from pbem.mail.message import printable  # here: only the judge's mail needs it

    subject = origin.get("subject") if origin is not None else None
    date = origin.get("date") if origin is not None else None
    named = f'"{printable(subject, 60)}"' if isinstance(subject, str) and subject else "(no subject)"
    sent = f", sent {printable(date, 80)}" if isinstance(date, str) and date else ""
    return named + sent, f"your mail {named}"


def relabel(notice: Notice, source: str, line: str, name: str) -> Notice:
    """``notice`` with the inbox name ``source`` replaced: ``line`` on its Mail: line and
    ``name`` wherever its texts said ``source``."""

    def swap(text: str | None) -> str | None:
        return None if text is None else text.replace(source, name)

    return replace(
        notice,
        source=line,
        mailed=True,
        message=notice.message.replace(source, name),
        hint=swap(notice.hint),
        secret=swap(notice.secret),
    )
