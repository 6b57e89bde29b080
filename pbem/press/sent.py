"""The sender's own copies of the press they wrote (``pbem say``, read with ``pbem press sent``).

A letter is encrypted to its recipients only, so once sealed its sender cannot read it again:
``pbem say`` keeps a plain copy on the sender's machine, as a Diplomacy judge echoes press back
to its writer.  One file per message under ``<home>/press-sent/<game id>/`` (``home`` is
``$PBEM_HOME``, default ``~/.local/share/pbem``), readable by the owner only (mode 600), named
``NNNNNN-<Id>.txt`` in the order written; never in the game folder and never mailed, so it
tells nobody else anything.  ``pbem say --no-copy`` keeps none.

A copy is a ``PBEM PRESS SENT`` block (the press block format of :mod:`pbem.press.text`,
unsigned): ``Game``, ``From`` (the sender's own name, grey or not), ``To``, ``Grey``, ``Id``,
``Turn`` of the report it was written from, then the text as the recipients will read it.
Copies are read back as untrusted text (the home folder is the user's, but a file there may be
damaged): one that does not parse is named and skipped, never a traceback.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import FormatError, PbemError
from pbem.inputs import read_text
from pbem.press import text as block
from pbem.press.rules import ALL
from pbem.press.say import Said

SENT = "PBEM PRESS SENT"
SENT_DIR = "press-sent"
MAX_COPY_BYTES = 64 * 1024
"""A kept copy is at most a few kilobytes (a letter holds 4,096 bytes); a larger file is not one."""

_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
_COPY = re.compile(r"([0-9]{6})-([0-9A-F]{32})\.txt")
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class SentCopy:
    """One message as its sender wrote it."""

    game_id: str
    number: int
    """Its place among the copies kept for the game (1, 2, ...)."""
    sender: str
    to: tuple[str, ...]
    grey: bool
    letter_id: str
    turn: int
    text: tuple[str, ...]

    def render(self) -> str:
        """The copy for a person to read."""
        to = "all players" if self.to == (ALL,) else ", ".join(self.to)
        grey = " (grey press: the recipients see 'someone')" if self.grey else ""
        head = [
            f"Press you sent ({self.number}), game {self.game_id}, written from your turn {self.turn} report",
            f"From: {self.sender}{grey}",
            f"To: {to}",
        ]
        return "\n".join([*head, "", *self.text]).rstrip() + "\n"


def sent_folder(home: Path, game_id: str) -> Path:
    """Where the copies of ``game_id``'s press are kept.  Raises FormatError for a game id that
    could not be a folder name (a report's game id always can)."""
    if not _GAME_ID.fullmatch(game_id):
        raise FormatError(f"{game_id!r} is not a game id")
    return home / SENT_DIR / game_id


def keep_sent(home: Path, said: Said) -> Path:
    """Keep the sender's copy of the message ``said``; returns its path.  Raises OSError (a
    home folder that cannot be written) and FormatError (a game id that is not one)."""
    folder = sent_folder(home, said.game_id)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    headers = [
        ("Game", said.game_id),
        ("From", said.sender),
        ("To", ", ".join(said.to)),
        ("Grey", "yes" if said.grey else "no"),
        ("Id", said.letter_id),
        ("Turn", str(said.turn)),
    ]
    raw = block.write(SENT, headers, said.lines).encode("utf-8")
    number = max((n for n, _ in _numbered(folder)), default=0) + 1
    while True:
        path = folder / f"{number:06d}-{said.letter_id}.txt"
        try:
            fd = os.open(path, _CREATE, 0o600)
        except FileExistsError:  # another pbem say at the same moment: the next number
            number += 1
            continue
        try:
            os.write(fd, raw)
        finally:
            os.close(fd)
        return path


def _numbered(folder: Path) -> list[tuple[int, str]]:
    """The copies' numbers and file names in ``folder``, in order (other files left out)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = [(int(m.group(1)), name) for name in names if (m := _COPY.fullmatch(name))]
    return sorted(found)


def sent_copies(home: Path, game_id: str | None = None) -> tuple[list[SentCopy], list[str]]:
    """The copies kept for ``game_id`` (every game's when None), oldest first, and what was
    skipped (a file that is not a readable copy, with the reason).  Raises FormatError for a
    ``game_id`` that is not one."""
    root = home / SENT_DIR
    if game_id is not None:
        games = [game_id] if sent_folder(home, game_id).is_dir() else []
    else:
        try:
            games = sorted(n for n in os.listdir(root) if _GAME_ID.fullmatch(n) and (root / n).is_dir())
        except OSError:
            games = []
    copies: list[SentCopy] = []
    skipped: list[str] = []
    for game in games:
        for number, name in _numbered(root / game):
            path = root / game / name
            try:
                copies.append(_read_copy(path, game, number))
            except PbemError as exc:  # damaged, not UTF-8, not a plain file, unreadable
                skipped.append(exc.message)
    return copies, skipped


def _read_copy(path: Path, game_id: str, number: int) -> SentCopy:
    """One kept copy.  Raises FormatError when it is not one (damaged, edited, another game's)."""
    parsed = block.parse(read_text(str(path), "press copy", MAX_COPY_BYTES), SENT, str(path))
    headers = dict(parsed.headers)
    try:
        turn = int(headers["Turn"])
        copy = SentCopy(
            game_id=headers["Game"],
            number=number,
            sender=headers["From"],
            to=block.names_list(headers["To"]),
            grey={"yes": True, "no": False}[headers["Grey"]],
            letter_id=headers["Id"],
            turn=turn,
            text=parsed.text,
        )
    except (KeyError, ValueError):
        raise FormatError(f"{path}: not a copy of sent press (a header is missing or damaged)") from None
    if copy.game_id != game_id:
        raise FormatError(f"{path}: a copy of game {copy.game_id}'s press in game {game_id}'s folder")
    return copy
