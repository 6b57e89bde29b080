"""Command-line options that both pbem/cli.py and pbem/cli_moderator.py use (one definition
each, in a module that imports nothing of pbem, so either command module may load first)."""

from __future__ import annotations

import click

MODERATOR_KEY = click.option(
    "--key",
    "keyfile",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="The moderator's secret identity file: the .key the game was created with "
    "(pbem new --moderator-key).",
)
