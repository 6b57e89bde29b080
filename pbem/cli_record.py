"""The commands over a game's whole record, registered into ``pbem`` by :func:`register`:
``verify`` (a finished game re-played from its revealed seed, its history and the reports its
players kept) and ``archive`` (a game, or every game under a root, as one HTML page and one
text file).  Thin commands over :mod:`pbem.archive` and :mod:`pbem.witness`; errors are
pbem.errors classes, turned into exit codes by the main group.
"""

from __future__ import annotations

import click

from pbem.cli_options import EXISTING_FILE, EXISTING_FOLDER, SAVE_MODERATOR
from pbem.cli_options import load_card as _card
from pbem.cli_options import load_key as _key


@click.command()
@click.argument("folder", type=EXISTING_FOLDER)
@SAVE_MODERATOR
@click.option(
    "--report",
    "report_files",
    multiple=True,
    type=EXISTING_FILE,
    help="A report of this game you kept (repeatable); the copies pbem kept are checked anyway.",
)
def verify(folder: str, moderator_card: str | None, report_files: tuple[str, ...]) -> None:
    """Re-play a finished game from its revealed seed and check it ends where it did, that
    every signed save in its history/ is a position of that re-play, and that the reports
    read during the game (the copies pbem kept, and --report files) show that history."""
    from pathlib import Path

    from pbem.archive.rebuild import verify_game
    from pbem.engine import GameFolder
    from pbem.folder import default_home
    from pbem.player import ReportCopies
    from pbem.witness import read_report_file, witness
    from pbem.wording import counted, join_names

    save = GameFolder(folder).read(_card(moderator_card))
    done = verify_game(Path(folder), save)
    turns, reach = counted(done.turns, "turn"), "reaches" if done.turns == 1 else "reach"
    click.echo(f"verified: {turns} re-played from the revealed seed {reach} the final position")
    click.echo(f"verified: the {done.compared} signed saves of history/ are positions of that re-play")
    files = [*map(Path, report_files), *ReportCopies(default_home()).of_game(save.game_id)]
    seen = witness(done.history, save, [read_report_file(path) for path in files])
    if seen.turns is None:
        click.echo(
            "no report of this game is kept on this machine: pbem read keeps a copy of each report it "
            "opens; --report FILE checks one you saved"
        )
    else:
        first, last = seen.turns
        span = f"turn {first}" if first == last else f"turns {first}-{last}"
        show = "shows" if seen.reports == 1 else "show"
        click.echo(
            f"verified: {counted(seen.reports, 'report')} read during the game ({join_names(seen.players)}; "
            f"{span}) {show} this history and the commitment of the revealed seed"
        )


@click.command()
@click.argument("folder", type=EXISTING_FOLDER)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(),
    metavar="FOLDER",
    help="Folder for the archive files.",
)
@click.option(
    "--key",
    "keyfile",
    type=EXISTING_FILE,
    help="Before the end: yours gives your own archive, the moderator's the full one (confidential).",
)
def archive(folder: str, out_dir: str, keyfile: str | None) -> None:
    """Write a game as one HTML page and one text file, every secret revealed (FOLDER: a
    finished game, or a moderator root: every game in it, with an index page)."""
    from pathlib import Path

    from pbem.archive.write import archive_game, archive_root
    from pbem.errors import RejectedError
    from pbem.inputs import visible

    identity = None if keyfile is None else _key(keyfile)
    if (Path(folder) / "save.json").exists():
        done = [archive_game(Path(folder), Path(out_dir), identity)]
    else:
        done = archive_root(Path(folder), Path(out_dir), identity)
        click.echo(f"index written to {Path(out_dir) / 'index.html'}")
    for item in done:  # folder names (and reasons naming paths) as escapes: a name may hold any byte
        name = visible(item.folder.name)
        if item.skipped:
            click.echo(f"{name}: {visible(item.summary)}")
        elif item.html is None:
            click.echo(f"{name}: not archived: {visible(item.problem or '')}", err=True)
        else:
            click.echo(
                f"{name}: {visible(item.summary)}: {visible(str(item.html))} and {visible(str(item.text))}"
            )
    refused = [item for item in done if item.html is None and not item.skipped]
    if refused:
        raise RejectedError(
            f"{len(refused)} of {len(done)} games were not archived: "
            + ", ".join(visible(item.folder.name) for item in refused),
            "the lines above say why; a game not over yet needs a key (--key)",
        )


COMMANDS = (verify, archive)


def register(group: click.Group) -> None:
    """Add the record's commands to the ``pbem`` group."""
    for command in COMMANDS:
        group.add_command(command)
