"""Command-line options that both pbem/cli.py and pbem/cli_moderator.py use (one definition
each, in a module that imports nothing of pbem, so either command module may load first)."""

from __future__ import annotations

import errno
import os
from typing import Any

import click


class ExistingPath(click.Path):
    """``click.Path(exists=True)`` that names a loop of symbolic links as one, where click
    says the path "does not exist" (it is there, but cannot be followed to a file)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            os.stat(value)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                shown = str(value) if len(str(value)) <= 200 else str(value)[:197] + "..."
                self.fail(
                    f"{shown!r} is a loop of symbolic links (each points on to the next, never to a "
                    "file or folder): name the file or folder itself",
                    param,
                    ctx,
                )
        except (TypeError, ValueError):
            pass  # not a path at all: click's own check says so
        if not self.file_okay and isinstance(value, str) and os.path.isfile(value):
            shown = value if len(value) <= 200 else value[:197] + "..."
            game = _game_folder_of(value)
            if game is not None:  # a report or the save given for the game: name the game folder
                self.fail(
                    f"{shown!r} is a file in the game folder {game!r}: name the folder ({game})", param, ctx
                )
            self.fail(f"{shown!r} is a file, not a folder: name a folder", param, ctx)
        return super().convert(value, param, ctx)


def _game_folder_of(path: str) -> str | None:
    """The game folder (holding ``save.json``) that the file ``path`` lies in, at most three
    folders up (``reports/turn-0001/alice.txt``), or None."""
    here = os.path.dirname(path) or "."
    for _ in range(4):
        try:
            if os.path.isfile(os.path.join(here, "save.json")):
                return os.path.normpath(here)
        except ValueError:  # a NUL in the path
            return None
        here = os.path.join(here, "..")
    return None


EXISTING_FILE = ExistingPath(exists=True, dir_okay=False)
"""An existing file (one instance shared by every option: each click.Path looks up its
translated name when made, which adds up at start-up)."""
EXISTING_FOLDER = ExistingPath(exists=True, file_okay=False)
"""An existing folder (shared, as :data:`EXISTING_FILE`)."""
EXISTING_PATH = ExistingPath(exists=True)
"""An existing file or folder (shared, as :data:`EXISTING_FILE`)."""

MODERATOR_KEY = click.option(
    "--key",
    "keyfile",
    required=True,
    type=EXISTING_FILE,
    help="The moderator's secret identity file: the .key the game was created with "
    "(pbem new --moderator-key).",
)

SAVE_MODERATOR = click.option(
    "--moderator",
    "moderator_card",
    type=EXISTING_FILE,
    help="The moderator's public card: refuse a save signed by any other key.",
)


def load_key(path: str) -> Any:
    """The identity (secret key) file at ``path``.  Raises KeyFileError, UsageError."""
    from pbem.keys import Identity

    return Identity.load(path)


def load_card(path: str | None) -> Any:
    """The public card at ``path`` (None: none given).  Raises KeyFileError, SignatureError."""
    from pbem.keys import PublicCard

    return None if path is None else PublicCard.load(path)
