"""The commands for a person's keys, registered into ``pbem`` by :func:`register`: ``keygen``
(a secret identity and its public card) and ``key`` (what an identity holds: its age identity
line, its public card).  Thin commands over :mod:`pbem.keys`; errors are pbem.errors classes,
turned into exit codes by the main group.
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli_options import EXISTING_FILE
from pbem.cli_options import load_key as _key


@click.command()
@click.argument("name")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=".",
    metavar="FOLDER",
    help="Folder for the files.",
)
def keygen(name: str, out_dir: str) -> None:
    """Make a secret identity NAME.key (mode 0600) and a public card NAME.pub."""
    from pbem.keys import Identity, check_player_name

    check_player_name(name)
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a FIFO or a link loop in the way, a name too long, no permission ...
        from pbem.errors import UsageError
        from pbem.inputs import shorten

        raise UsageError(
            f"cannot make the folder {shorten(out_dir, 200)}: {exc.strerror or exc}",
            "name another --out folder",
        ) from None
    identity = Identity.generate(name)
    key_path, card_path = folder / f"{name}.key", folder / f"{name}.pub"
    had_card = card_path.exists()
    card = identity.public().to_text()
    try:
        identity.save(key_path)  # KeyFileError when it exists: nothing made, nothing to undo
    except OSError as exc:  # made (O_EXCL) but not written whole: a full disk
        from pbem.folder import name_error

        _unmake_key(key_path, None)
        name_error(exc, key_path)
        raise
    try:
        card_path.write_text(card, encoding="utf-8")
    except BaseException:
        _unmake_key(key_path, None if had_card else card_path)
        raise
    click.echo(f"secret identity: {folder / (name + '.key')} (keep it private; back it up)")
    click.echo(
        f"public key card: {folder / (name + '.pub')} (a player sends it to the moderator; a moderator "
        "sends theirs to the players):\n"
    )
    click.echo(card, nl=False)


def _unmake_key(key_path: Path, card_path: Path | None) -> None:
    """Remove the identity ``keygen`` made, and its card ``card_path`` (None: the card was
    there before), after a write of either failed: a key nobody has a card of is no use, and
    left behind it would make the same command refuse to run again ("already exists")."""
    import contextlib

    for path in (key_path, card_path):
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()


@click.group()
def key() -> None:
    """Inspect an identity."""


@key.command("age-identity")
@click.argument("keyfile", type=EXISTING_FILE)
def key_age_identity(keyfile: str) -> None:
    """Print the AGE-SECRET-KEY line that `age -d -i` needs."""
    click.echo(_key(keyfile).age_identity_line())


@key.command("public")
@click.argument("keyfile", type=EXISTING_FILE)
def key_public(keyfile: str) -> None:
    """Print the public key card of an identity."""
    click.echo(_key(keyfile).public().to_text(), nl=False)


def register(group: click.Group) -> None:
    """Add the key commands to the ``pbem`` group."""
    group.add_command(keygen)
    group.add_command(key)
