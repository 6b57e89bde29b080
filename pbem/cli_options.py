"""Command-line options that both pbem/cli.py and pbem/cli_moderator.py use (one definition
each, in a module that imports nothing of pbem, so either command module may load first)."""

from __future__ import annotations

from typing import Any

import click

EXISTING_FILE = click.Path(exists=True, dir_okay=False)
"""An existing file (one instance shared by every option: each click.Path looks up its
translated name when made, which adds up at start-up)."""
EXISTING_FOLDER = click.Path(exists=True, file_okay=False)
"""An existing folder (shared, as :data:`EXISTING_FILE`)."""

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
