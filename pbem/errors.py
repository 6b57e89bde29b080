"""The domain errors of pbem and the exit code each maps to (in one place, for the CLI).

Exit codes: 0 success, 1 rejected input (a bad order, a forged or tampered file, an illegal
request), 2 usage (wrong arguments, missing files, unknown game), 3 an unexpected error: a bug
in pbem or in a game, reported in one line by the command line's last-resort net (the
traceback only with ``PBEM_DEBUG=1``).
"""

from __future__ import annotations

BUG_EXIT = 3
"""The exit code of an unexpected exception: not the user's input, but a bug to report."""
DEBUG_ENV = "PBEM_DEBUG"
"""Set (to anything but empty or 0) to get the full traceback of an unexpected exception."""


class PbemError(Exception):
    """Base class: a message meant for a person, and an exit code."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message if hint is None else f"{message}\n  what to do: {hint}")


class UsageError(PbemError):
    """The request itself is wrong: unknown game, bad option, missing file."""

    exit_code = 2


class RejectedError(PbemError):
    """Input was refused; nothing was changed."""

    exit_code = 1


class FormatError(RejectedError):
    """A file is not in the expected format (corrupt, truncated, unknown version)."""


class SignatureError(RejectedError):
    """A signature does not verify: the file was changed or signed by another key."""


class TamperedError(SignatureError):
    """A signed file was changed after signing."""


class ForeignError(RejectedError):
    """A file belongs to another game, player or moderator."""


class RollbackError(RejectedError):
    """A save file is older than one already seen, or its hash chain is broken."""


class ConflictError(RejectedError):
    """Another writer holds the game's lock, or saved the game while this command worked;
    nothing was changed and the command may simply be run again."""


class ReplayError(RejectedError):
    """An order file was already used, is for an old turn, or reuses a sequence number."""


class DuplicateError(RejectedError):
    """The very same order file was already accepted; nothing to do."""


class NotAwaitedError(RejectedError):
    """Orders from a seat that does not owe orders now, or an advance before all are in."""


class OrdersRejected(RejectedError):
    """An order file failed validation; carries the game's line-numbered errors."""


class KeyFileError(UsageError):
    """A key file is missing, unreadable, has loose permissions, or is of the wrong kind."""


def no_game_here(folder: object) -> UsageError:
    """The error for a command run on a folder without a game's ``save.json``: it says what to
    do (name the game folder, or start a game there).  Returned, for the caller to raise."""
    from pathlib import Path

    above = Path(str(folder))
    for _ in range(3):  # reports/turn-0001/ is two below its game folder
        above = above / ".."
        try:
            if (above / "save.json").is_file():
                import os

                return UsageError(
                    f"no game here: {folder} is inside the game folder {os.path.normpath(above)}",
                    f"name the game folder: {os.path.normpath(above)}",
                )
        except (OSError, ValueError):
            break
    return UsageError(
        f"no game here: {folder} holds no pbem game (no save.json)",
        "name the game folder (the one holding save.json, such as ROOT/GAME), "
        "or start a game there with pbem new GAME FOLDER",
    )
