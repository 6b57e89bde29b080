"""What kind of pbem file a text is, told from its marker lines, to name a file given in the
wrong place: a report passed as orders, a key card as an identity, an order form as a report.

A command that cannot read a file as the kind it wants asks :func:`wrong_file` before it
answers with its own message; a text of no known kind gets that message as before.  Only
marker lines are looked at (no signature is checked): the answer names the file, it never
decides what the file is trusted for.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.errors import FormatError, PbemError

_FORM_HEADERS = ("game:", "turn:", "player:", "seq:")


@dataclass(frozen=True)
class Kind:
    """A kind of pbem file: how a person calls it, and what they may want to do with it."""

    name: str
    """"a turn report", "a public key card", ...: fits "FILE is NAME, not ..."."""
    use: str
    """What this kind of file is for, said as what to do with it (FILE: the file's name)."""


REPORT = Kind(
    "a player's turn report",
    "read it with pbem read FILE --key YOUR.key; write your orders on the form "
    "pbem orders FILE --key YOUR.key -o orders.txt makes from it",
)
PUBLIC_REPORT = Kind(
    "the public turn report",
    "your own report is beside it in the same folder: reports/turn-N/YOURNAME.txt",
)
CARD = Kind(
    "a public key card",
    "a card names a player to the moderator (pbem new --player NAME=CARD.pub) or a moderator "
    "to a player (--moderator CARD.pub); your secret identity is the .key file",
)
IDENTITY = Kind(
    "a secret identity file",
    "keep it private and pass it only as --key; the public card made with it is the .pub "
    "file pbem keygen wrote beside it",
)
SAVE = Kind("a game's save file", "a save is the game itself: give the game's folder, which holds it")
SIGNED_ORDERS = Kind(
    "a signed order file",
    "send it to the moderator (pbem submit GAME FILE files it); to change it, edit the form "
    "and sign it again",
)
FORM = Kind(
    "an order form",
    "check it with pbem check FILE --key YOUR.key and sign it with "
    "pbem sign FILE --key YOUR.key -o signed.txt",
)
PRESS = Kind("a press message", "read it with pbem press read FILE --key YOUR.key")


def kind_of(text: str) -> Kind | None:
    """The kind of pbem file ``text`` is, from its marker lines (mail quoting ignored), or None
    for a text of no kind pbem writes.  Never raises."""
    lines = [line.lstrip(">").strip() for line in text.removeprefix("\ufeff").splitlines()[:20_000]]
    found = set(lines)
    first = next((line for line in lines if line and not line.startswith("#")), "")
    if first == "PBEM-IDENTITY-V1":
        return IDENTITY
    if "-----BEGIN PBEM PUBLIC KEY-----" in found:
        return CARD
    if "-----BEGIN PBEM REPORT DATA-----" in found:
        return PUBLIC_REPORT if any(line.startswith("PBEM PUBLIC REPORT") for line in lines) else REPORT
    if "-----BEGIN PBEM ORDERS-----" in found:
        return SIGNED_ORDERS
    if any(line.startswith("-----BEGIN PBEM PRESS") for line in lines):
        return PRESS
    if first.startswith("{") and '"pbem-save/v1"' in text[:100_000]:
        return SAVE
    starts = {line[:7].lower() for line in lines}
    if all(any(start.startswith(h) for start in starts) for h in _FORM_HEADERS):
        return FORM
    return None


def wrong_file(
    text: str, source: str, wanted: Kind, error: type[PbemError] = FormatError
) -> PbemError | None:
    """The ``error`` to give when ``text`` (read from ``source``) was expected to be ``wanted``
    and is plainly another kind of pbem file, naming both and what the file is for; None when
    it is of no known kind, or is ``wanted`` after all.  Never raises."""
    kind = kind_of(text)
    if kind is None or kind == wanted:
        return None
    return error(f"{source} is {kind.name}, not {wanted.name}", kind.use.replace("FILE", source))
