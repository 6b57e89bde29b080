"""The press commands: ``pbem say`` (players) and ``pbem press read | relay | list``.

Only click is imported here; each command imports what it needs (``pbem --help`` stays fast).
Errors are pbem.errors classes, turned into messages and exit codes by the CLI's group.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbem.cli_options import EXISTING_FILE, EXISTING_FOLDER, EXISTING_PATH, MODERATOR_KEY
from pbem.cli_options import load_card as _card

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from pbem.engine import GameFolder
    from pbem.keys import Identity
    from pbem.press.ledger import Entry
    from pbem.press.say import Said

_player_key = click.option(
    "--key",
    "keyfile",
    required=True,
    type=EXISTING_FILE,
    help="Your own secret identity file (NAME.key from pbem keygen).",
)
_moderator_card = click.option(
    "--moderator",
    "moderator_card",
    type=EXISTING_FILE,
    help="The moderator's public card; without it, the key first seen for this game is required.",
)
MAX_MESSAGE_BYTES = 1_000_000
"""The largest message text read (the rules allow a few thousand characters)."""


def _message(text: str | None, path: str | None) -> tuple[str, str]:
    """The message and where it came from: ``-m``, ``--file`` (``-``: standard input).
    Raises UsageError when both or neither are given, FormatError for a file too large or
    not UTF-8."""
    from pbem.errors import FormatError, UsageError
    from pbem.inputs import decode, read_text

    if (text is None) == (path is None):
        raise UsageError("give the message with -m TEXT or --file FILE (--file - reads standard input)")
    if text is not None:
        return text, "the message"
    assert path is not None
    if path == "-":
        data = sys.stdin.buffer.read(MAX_MESSAGE_BYTES + 1)
        if len(data) > MAX_MESSAGE_BYTES:
            raise FormatError(
                f"standard input is larger than {MAX_MESSAGE_BYTES:,} bytes; no message is that long"
            )
        return decode(data, "standard input", "message"), "standard input"
    return read_text(path, "message", MAX_MESSAGE_BYTES), path


@click.command()
@click.argument("report", type=EXISTING_FILE)
@_player_key
@click.option(
    "--to", "to", multiple=True, required=True, metavar="NAME", help="A recipient (repeat), or all."
)
@click.option("-m", "--message", "text", metavar="MESSAGE", help="The message, quoted (or use --file).")
@click.option("--file", "path", metavar="FILE", help="A file holding the message (- for standard input).")
@click.option("--grey", is_flag=True, help="Grey press: the recipients see 'someone', not your name.")
@click.option("-o", "--out", metavar="FILE", help="Write the sealed message here (default: standard output).")
@click.option(
    "--no-copy", is_flag=True, help="Keep no copy of the message for yourself (see: pbem press sent)."
)
@_moderator_card
def say(
    report: str,
    keyfile: str,
    to: tuple[str, ...],
    text: str | None,
    path: str | None,
    grey: bool,
    out: str | None,
    no_copy: bool,
    moderator_card: str | None,
) -> None:
    """Write press to other players: checked against the game's press rules (from your
    REPORT), signed by you, encrypted to the recipients only, sealed to the moderator.

    Send what it writes to the moderator as you send orders (mail, or your inbox folder).
    A copy you can read stays on this machine (pbem press sent), unless --no-copy."""
    from pbem.errors import UsageError
    from pbem.inputs import read_text, writable_target
    from pbem.keys import Identity
    from pbem.press.say import parse_to
    from pbem.press.say import say as compose

    recipients = parse_to(to)
    message, source = _message(text, path)
    if out:
        writable_target(out, "press file")
    identity = Identity.load(keyfile)
    report_text = read_text(report, "report", 16 * 1024 * 1024)
    said = compose(
        report_text,
        report,
        identity,
        recipients,
        message,
        source,
        grey=grey,
        moderator=_card(moderator_card),
    )
    who = "someone (grey)" if said.grey else identity.name
    note = f"press from {who} to {', '.join(said.recipients)}, sealed to the moderator"
    if not no_copy:
        note += _keep_copy(said)
    if out:
        try:
            Path(out).write_text(said.text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write the press file to {out}: {exc.strerror}") from None
        click.echo(f"{note}: written to {out}; send it to the moderator")
    else:
        click.echo(said.text, nl=False)
        click.echo(note, err=True)


def _keep_copy(said: Said) -> str:
    """Keep the sender's copy of ``said``; the words to add
    to the command's note.  A copy that cannot be kept is said, not an error: the message
    itself was made."""
    from pbem.folder import default_home
    from pbem.inputs import describe_os_error
    from pbem.press.sent import keep_sent

    try:
        kept = keep_sent(default_home(), said)
    except OSError as exc:
        return f" (no copy kept for you: {describe_os_error(exc)})"
    return f"; your copy: {kept} (pbem press sent)"


@click.group()
def press() -> None:
    """Press: read the messages relayed to you and those you sent; relay and list them
    (moderator)."""


@press.command("read")
@click.argument("paths", nargs=-1, required=True, type=EXISTING_PATH)
@_player_key
@_moderator_card
def press_read(paths: tuple[str, ...], keyfile: str, moderator_card: str | None) -> None:
    """Print the press messages in PATHS (relayed copies, or folders holding them: your
    players/NAME/ folder, or the game's press/ folder) that are for you, every signature
    checked."""
    from pbem.errors import RejectedError
    from pbem.keys import Identity
    from pbem.press.read import read_many

    identity = Identity.load(keyfile)
    letters, _skipped = read_many([Path(p) for p in paths], identity, _card(moderator_card), None)
    for i, letter in enumerate(letters):
        if i:
            click.echo("")
        click.echo(letter.render(), nl=False)
    if not letters:
        if len(paths) == 1 and Path(paths[0]).is_file():
            raise RejectedError(
                f"{paths[0]} is not encrypted to {identity.name}'s key: a message for other players",
                "pass a press message relayed to you (players/NAME/press-NNNNNN.txt or a mail)",
            )
        click.echo(f"no press for {identity.name} in {', '.join(paths)}")


@press.command("sent")
@click.argument("game", required=False)
def press_sent(game: str | None) -> None:
    """Print the press you sent (the copies pbem say keeps on this machine), oldest first:
    of the game GAME (its id, as reports show it), or of every game."""
    from pbem.folder import default_home
    from pbem.press.sent import sent_copies

    copies, skipped = sent_copies(default_home(), game)
    for i, copy in enumerate(copies):
        if i:
            click.echo("")
        click.echo(copy.render(), nl=False)
    for reason in skipped:
        click.echo(f"skipped {reason}", err=True)
    if not copies:
        click.echo(f"no press sent from this machine{f' in game {game}' if game else ''}")


@press.command("relay")
@click.argument("folder", type=EXISTING_FOLDER)
@click.argument("file", type=EXISTING_FILE)
@MODERATOR_KEY
def press_relay(folder: str, file: str, keyfile: str) -> None:
    """Relay the press FILE a player sent (what pbem say wrote) in the game in FOLDER:
    check it, keep it in press/ and say whom to send the copy to.  (pbem moderate and
    pbem judge do this, and the delivery, by themselves.)"""
    from datetime import UTC, datetime

    from pbem.engine import GameFolder
    from pbem.errors import FormatError
    from pbem.inputs import read_text
    from pbem.keys import Identity
    from pbem.press.sealed import open_block

    identity = Identity.load(keyfile)
    text = read_text(file, "press file", 2_000_000)
    if not relay_press(GameFolder(folder), identity, text, file, datetime.now(UTC)):
        open_block(text, identity, file, "press file")  # raises FormatError saying what mail did to it
        raise FormatError(
            f"{file} is not a press file sealed to this moderator's key",
            "orders go to pbem submit; press is what pbem say writes",
        )


@press.command("list")
@click.argument("folder", type=EXISTING_FOLDER)
@MODERATOR_KEY
def press_list(folder: str, keyfile: str) -> None:
    """List the press relayed in the game in FOLDER (moderator): number, turn, sender (the
    grey sender too: the moderator knows it), recipients; and the game's press rules."""
    from pbem.engine import GameFolder
    from pbem.keys import Identity
    from pbem.press import ledger
    from pbem.press.rules import load_rules
    from pbem.wording import counted

    identity = Identity.load(keyfile)
    save = GameFolder(folder).read(identity.public())
    for line in load_rules(Path(folder), save.game_id, save.moderator).describe():
        click.echo(line)
    entries = ledger.load(Path(folder), save.game_id, identity)
    click.echo(f"{counted(len(entries), 'message')} relayed")
    _list_entries(entries)


def _list_entries(entries: Sequence[Entry]) -> None:
    """The ledger's messages, a line each: number, turn, sender, recipients, kind, when."""
    for e in entries:
        to = "all" if e.broadcast else ", ".join(e.to)
        flags = [
            *(["grey"] if e.grey else []),
            "readable" if e.readable else "encrypted to the recipients only",
        ]
        click.echo(f"  {e.number:4d}  turn {e.turn}  {e.sender} -> {to}  ({', '.join(flags)})  {e.received}")


@press.command("sign-ledger")
@click.argument("folder", type=EXISTING_FOLDER)
@MODERATOR_KEY
def press_sign_ledger(folder: str, keyfile: str) -> None:
    """Sign the press ledger of the game in FOLDER that the pbem of the first day of press
    wrote unsigned (moderator).  Each message it lists must be what your signed relay copy
    in press/ says (number, turn, sender, recipients, letter); the messages are printed."""
    from pbem.engine import GameFolder
    from pbem.keys import Identity
    from pbem.press import ledger
    from pbem.wording import counted

    identity = Identity.load(keyfile)
    save = GameFolder(folder).read(identity.public())
    entries = ledger.sign_legacy(Path(folder), save.game_id, identity)
    click.echo(
        f"press/ledger.txt of game {save.game_id}: {counted(len(entries), 'message')}, signed by your key"
    )
    _list_entries(entries)


def register(main: click.Group) -> None:
    """Add the press commands to the ``pbem`` group."""
    main.add_command(say)
    main.add_command(press)


def relay_press(folder: GameFolder, identity: Identity, text: str, source: str, now: datetime) -> bool:
    """For ``pbem submit``: relay ``text`` when it is a press file sealed to ``identity``
    and say so, received at ``now`` (the command's clock); False when it is not press (an
    order file).  Raises what :func:`pbem.press.relay.relay` raises."""
    from pbem.press.relay import open_press, receipt, relay

    plain = open_press(text, identity, source)
    if plain is None:
        return False
    received = now.isoformat(timespec="seconds")
    relayed = folder.exclusive(lambda: relay(folder, identity, plain, f"{source}, sealed press", received))
    click.echo(receipt(relayed))
    kept = folder.path / "press" / relayed.entry.filename
    click.echo(f"kept as {kept}: send it to {', '.join(relayed.recipients)}")
    return True
