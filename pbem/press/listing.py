"""What reports and the archive say about press.

Every report of a game with press rules states them in its text and carries them in its data
block (with each player's public keys, the game's press phase and who is out), which is all
``pbem say`` needs.  A player's report lists, in its private part, the messages relayed to
them during the turn before it ("your next report"), so a lost mail or file is noticed and
can be read again from ``press/`` in the game folder.  At the end, :func:`archived_press`
gives the archive the public press, and the private press when the rules say every player
agreed to that at creation.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import FormatError
from pbem.inputs import visible
from pbem.keys import Identity
from pbem.press import RULES_NAME, ledger
from pbem.press import text as block
from pbem.press.rules import PRESS_DIR, game_out, game_phase, load_rules, out_players, rules_path
from pbem.press.say import SOMEONE
from pbem.press.sealed import open_block
from pbem.wording import WIDTH


@dataclass(frozen=True)
class ReportPress:
    """The press part of one turn's reports."""

    data: Mapping[str, Any] | None
    """For every report's data block (None: the game has no press rules)."""
    lines: tuple[str, ...]
    """The rules in words, for every report's text."""
    inbox: Mapping[int, tuple[str, ...]]
    """Per seat: the lines listing the messages relayed to it in the previous turn."""


NO_PRESS = ReportPress(None, (), {})
MAX_LISTED = 8
"""Messages a report lists one by one (the rest in one line), so that the private part stays
within its padded size however much press a player gets."""
PRESS_RESERVE = (1 + MAX_LISTED + 1 + 1) * (WIDTH + 1) + 2
"""Bytes a report's private part may hold for the press lines (:func:`inbox_lines`: a head
line, :data:`MAX_LISTED` messages, a line for the rest, the grey line; each within
:data:`WIDTH` columns of ASCII, and the blank line before them), added to the game's report
size in a game with press rules, so that the size of a private part never depends on how
much press its player got, from whom, or to whom: without it, the press lines pushed a large
private part past the game's size, and the hand's length decided which reports did."""


def inbox_lines(entries: list[ledger.Entry], name: str, turn: int, grey: bool = False) -> tuple[str, ...]:
    """The private lines of ``name``'s report of ``turn``: the messages relayed to them
    during turn ``turn - 1`` (or a line saying there were none); where the rules allow grey
    press (``grey``), then how many of their own grey messages were relayed (see
    :func:`grey_sent_line`).

    Each line fits in :data:`WIDTH` columns with any player names (at most 32 ASCII
    characters) and numbers below a million, so the lines take at most
    :data:`PRESS_RESERVE` bytes: a message is named by its number (its copy is
    ``press/NNNNNN.txt``), and its other recipients by their count."""
    got = ledger.received_in(entries, name, turn - 1)
    if turn <= 1:
        return ()
    sent = (grey_sent_line(entries, name, turn),) if grey else ()
    if not got:
        return (f"Press relayed to you in turn {turn - 1}: none.", *sent)
    out = [f"Press relayed to you in turn {turn - 1}: {len(got)} (copies in {PRESS_DIR}/):"]
    for entry in got[:MAX_LISTED]:
        sender = SOMEONE if entry.grey else entry.sender
        out.append(f"  #{entry.number} from {sender} to {_recipients(entry, name)}")
    if len(got) > MAX_LISTED:
        rest = got[MAX_LISTED:]
        out.append(f"  and {len(rest)} more, #{rest[0].number} to #{rest[-1].number}: pbem press read")
    return (*out, *sent)


def _recipients(entry: ledger.Entry, name: str) -> str:
    """Whom ``entry`` went to, as ``name`` reads it: ``all``, ``you``, ``you and 2 others``."""
    if entry.broadcast:
        return "all"
    others = sum(1 for who in entry.to if who.lower() != name.lower())
    return "you" if others == 0 else f"you and {others} other{'s' if others != 1 else ''}"


def grey_sent_line(entries: list[ledger.Entry], name: str, turn: int) -> str:
    """The private line of ``name``'s report of ``turn`` that says how many of their grey
    messages were relayed during turn ``turn - 1`` (0 for most players).

    This is how a grey sender learns that their message went out: a notice in their own
    folder, or a mail to them, at the moment the message reaches its recipients would name
    them to everyone who reads the folder or the list.  Every player of a game that allows
    grey press gets the line, of one length whatever it counts (below ten), so the length of
    a private part does not tell a grey sender either."""
    sent = sum(1 for e in entries if e.grey and e.turn == turn - 1 and e.sender.lower() == name.lower())
    return f"Your grey messages relayed in turn {turn - 1} (as from {SOMEONE}): {sent}"


def has_rules(game_dir: str | os.PathLike[str]) -> bool:
    """Whether the game in ``game_dir`` has a press rules file (or anything by its name, a
    link that leads nowhere included: :func:`load_rules` then says what is wrong with it).

    Every turn of every game asks this, and most games have no press: one ``lstat`` of a
    plain string path, where ``Path.exists()`` then ``is_symlink()`` built three Path objects
    and made two system calls for the same answer (an entry that is not there).  Raises
    OSError only for what ``Path.exists`` raised for too (permission denied on the way)."""
    try:
        os.lstat(f"{os.fspath(game_dir)}{os.sep}{PRESS_DIR}{os.sep}{RULES_NAME}")
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EBADF):
            return False
        raise
    return True


def report_press(game_dir: Path, save: Any, moderator: Identity, game: Any, state: Any) -> ReportPress:
    """The press part of the reports the engine writes for ``save``'s turn.

    Raises FormatError when the game's press rules or ledger are damaged (the moderator
    restores them: the reports would otherwise state rules the players did not agree to).
    """
    if not has_rules(game_dir):
        return NO_PRESS
    rules = load_rules(game_dir, save.game_id, save.moderator)
    public_view = game.observe(state, None)
    phase = game_phase(game, public_view)
    out = out_players(save.body["players"], save.names, game_out(game, public_view))
    data = {
        "rules": rules.to_json(),
        "cards": {
            name: {"sign": card.verify_key.hex(), "age": card.age_recipient}
            for name, card in zip(save.names, save.players, strict=True)
        },
        "phase": None if phase is None else list(phase),
        "out": sorted(out),
    }
    lines = list(rules.describe())
    if phase is not None and rules.mode_in(phase) != rules.mode:
        lines.append(f"Press now (the {phase[0]} phase): {rules.mode_in(phase)}.")
    if rules.enabled:
        lines.append("Send press with: pbem say REPORT --key YOUR.key --to NAME (or all)")
    entries = list(ledger.load(game_dir, save.game_id, moderator))
    inbox = {seat: inbox_lines(entries, name, save.turn, rules.grey) for seat, name in enumerate(save.names)}
    return ReportPress(data, tuple(lines), inbox)


@dataclass(frozen=True)
class ArchivedMessage:
    """One message as the archive shows it."""

    number: int
    turn: int
    sender: str
    """The sender's name, or ``someone`` for grey press."""
    to: tuple[str, ...]
    """Recipients' names, or ("all",)."""
    text: tuple[str, ...]
    public: bool


def archived_press(game_dir: Path, save: Any, moderator: Identity) -> list[ArchivedMessage]:
    """The press the archive of a finished game shows: every message to all players, and the
    private messages when the game's rules say every player agreed to that at creation
    (``archive-private``, which makes them readable by the moderator).  Grey press stays
    "someone".  A game without press rules has none.

    Raises FormatError when the ledger or a kept copy is damaged or missing.
    """
    from pbem.inputs import read_text

    path = rules_path(game_dir)
    if not path.exists() and not path.is_symlink():
        return []
    rules = load_rules(game_dir, save.game_id, save.moderator)
    out: list[ArchivedMessage] = []
    for entry in ledger.load(game_dir, save.game_id, moderator):
        if not (entry.broadcast or (rules.archive_private and entry.readable)):
            continue
        kept = Path(game_dir) / PRESS_DIR / entry.filename
        source = str(kept)
        try:
            text = read_text(kept, "press message", 2_000_000)
        except Exception as exc:  # a missing or unreadable copy: say which
            raise FormatError(
                f"{source}: the kept copy of press message {entry.number} cannot be read ({exc})"
            ) from None
        opened = open_block(text, moderator, source, "press message")
        letters = [] if opened is None else block.age_blocks(opened[0].split(block.end(block.RELAY), 1)[-1])
        inner = None if len(letters) != 1 else open_block(letters[0][1], moderator, source, "letter")
        if inner is None:
            raise FormatError(f"{source}: the moderator cannot open press message {entry.number}")
        # The copy is anyone's to replace (sealed to the public key of the moderator): its
        # letter must be the one the signed ledger names, by the hash the relay checked.
        if block.armour_digest(letters[0][1]) != entry.letter:
            raise FormatError(
                f"{source}: the kept copy of press message {entry.number} holds another letter than "
                "the one the moderator relayed (the press ledger names its hash)",
                "restore press/ from the moderator's backup of the game folder",
            )
        letter = block.parse(inner[0], block.LETTER, source)
        to = ("all",) if entry.broadcast else entry.to
        sender = SOMEONE if entry.grey else entry.sender
        shown = tuple(visible(line) for line in letter.text)  # no terminal escapes in the archive
        out.append(ArchivedMessage(entry.number, entry.turn, sender, to, shown, entry.broadcast))
    return out


def archive_lines(messages: list[ArchivedMessage]) -> list[str]:
    """The archive's press as text lines (for its text file)."""
    out: list[str] = []
    for m in messages:
        to = "all" if m.to == ("all",) else ", ".join(m.to)
        out += [
            f"Press {m.number} (turn {m.turn}), from {m.sender} to {to}:",
            *(f"  {t}" for t in m.text),
            "",
        ]
    return out


ARCHIVE_NAME = "archive.json"
ARCHIVE_FORMAT = "pbem-press-archive/v1"
ARCHIVE_DOMAIN = "pbem-press-archive/v1"
MAX_ARCHIVE_BYTES = 64 * 1024 * 1024


def publish_archive(game_dir: Path, save: Any, moderator: Identity) -> Path | None:
    """At the end of a game: write ``press/archive.json``, the press the archive shows
    (:func:`archived_press`) in clear, signed by the moderator, so that ``pbem archive``
    needs no key to show it.  Idempotent (the same file each time); None for a game without
    press rules.  Raises FormatError as :func:`archived_press` does."""
    import base64
    import json

    from pbem import canonical
    from pbem.folder import atomic_write

    if not rules_path(game_dir).exists():
        return None
    messages = [
        {"number": m.number, "turn": m.turn, "from": m.sender, "to": list(m.to), "text": list(m.text)}
        for m in archived_press(game_dir, save, moderator)
    ]
    body = {"format": ARCHIVE_FORMAT, "game_id": save.game_id, "messages": messages}
    signature = base64.b64encode(moderator.sign(ARCHIVE_DOMAIN, canonical.dumps(body))).decode()
    path = Path(game_dir) / PRESS_DIR / ARCHIVE_NAME
    atomic_write(path, json.dumps({"body": body, "signature": signature}, indent=1, sort_keys=True) + "\n")
    return path


def archive_sections(game_dir: Path, save: Any, turn: int) -> list[tuple[str, tuple[str, ...]]]:
    """The press of ``turn`` for the archive's page of that turn, as (title, lines): read
    from ``press/archive.json`` (written when the game ended), checked against the game's
    moderator key; nothing when there is no such file.  Raises FormatError (damaged, another
    game's) or SignatureError (not signed by the game's moderator)."""
    import base64

    from pbem import canonical
    from pbem.errors import SignatureError
    from pbem.inputs import read_bytes

    path = Path(game_dir) / PRESS_DIR / ARCHIVE_NAME
    if not path.exists():
        return []
    try:
        doc = canonical.loads(read_bytes(path, "press archive", MAX_ARCHIVE_BYTES), str(path))
        body, signature = doc["body"], base64.b64decode(doc["signature"], validate=True)
        save.moderator.verify(ARCHIVE_DOMAIN, canonical.dumps(body), signature)
    except SignatureError:
        raise SignatureError(f"{path}: the press archive is not signed by this game's moderator") from None
    except (ValueError, TypeError, KeyError):
        raise FormatError(f"{path}: the press archive is damaged") from None
    if (
        not isinstance(body, dict)
        or body.get("format") != ARCHIVE_FORMAT
        or body.get("game_id") != save.game_id
    ):
        raise FormatError(f"{path}: not this game's press archive")
    lines: list[str] = []
    try:
        for m in body["messages"]:
            if m["turn"] == turn:
                to = "all" if m["to"] == ["all"] else ", ".join(str(n) for n in m["to"])
                lines += [f"Message {int(m['number'])}, from {m['from']} to {to}:"]
                lines += [f"  {t}" for t in m["text"]] + [""]
    except (KeyError, TypeError, ValueError):
        raise FormatError(f"{path}: the press archive is damaged") from None
    return [("Press", tuple(lines[:-1]))] if lines else []
