"""The ``pbem`` command line: thin commands over the library.

Only click is imported at start-up; each command imports what it needs, so ``pbem --help``
stays fast.  Domain errors (pbem.errors) are turned into messages and exit codes in one
place, :class:`PbemGroup`: 0 success, 1 rejected input, 2 usage (or the system refused a write:
a full disk, a failing device), 3 an unexpected error (a bug: one line, the traceback only
with ``PBEM_DEBUG=1``).
"""

from __future__ import annotations

import errno
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import click

from pbem.cli_options import (
    EXISTING_FILE,
    EXISTING_FOLDER,
    MODERATOR_KEY,
    SAVE_MODERATOR,
    load_card,
    load_key,
)


def _now() -> datetime:
    return datetime.now(UTC)


SYSTEM_REFUSED = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EIO", "EROFS", "EFBIG") if hasattr(errno, name)
)
"""What a command cannot do because of the machine, not of pbem or its input: a full disk or
quota, a failing device, a read-only file system, a file too large for it (exit code 2, with
what to do, instead of the bug message)."""


NOT_PERMITTED = frozenset((errno.EACCES, errno.EPERM))
"""A write the system does not permit (a read-only game folder or file, an immutable file;
exit code 2, saying to whom the folder must be writable, instead of the bug message)."""


def _system_refused(ctx: click.Context, exc: OSError) -> NoReturn:
    """Say that the system refused a read or write (``exc``, in :data:`SYSTEM_REFUSED` or
    :data:`NOT_PERMITTED`) and what to do, throw away output still waiting for a full or
    failing standard output, and exit with code 2.  Notes added to ``exc`` (lines beginning
    "what happened:" and "what to do:", :func:`pbem.engine.saved_first`) take the place of
    the general advice."""
    import os

    where = _refused_file(exc)
    click.echo(f"pbem: the system refused a read or write{where}: {exc.strerror or exc}", err=True)
    notes = [str(note) for note in getattr(exc, "__notes__", ())]
    for note in notes:
        click.echo(f"  {note}", err=True)
    if not any(note.startswith("what to do:") for note in notes):
        first = (
            "give yourself the right to write there (or run pbem as the user who owns the folder)"
            if exc.errno in NOT_PERMITTED
            else "free space or fix the device or file system"
        )
        click.echo(
            f"  what to do: {first}, then run the command again "
            "(pbem replaces its files whole or not at all: what it had written before is unchanged)",
            err=True,
        )
    try:
        sys.stdout.flush()
    except OSError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    ctx.exit(2)


def _refused_file(exc: OSError) -> str:
    """`` (FILE)`` naming the file a refused call was about, or "" when it names none: the
    target of a rename or link (its second name), not a temporary or ``/proc`` name."""
    import os

    from pbem.inputs import shorten, visible

    name = exc.filename2 or exc.filename
    if not name:
        return ""
    text = os.fsdecode(name) if isinstance(name, bytes | str) else str(name)
    return f" ({visible(shorten(text, 300))})"


class PbemGroup(click.Group):
    """The one place errors become messages and exit codes.

    A pbem error prints its message and hint with its exit code (1 rejected input, 2 usage);
    click's own usage errors keep code 2.  Anything else is a bug: the last-resort net prints
    one line naming the command and asking for a report, and exits 3 (the traceback only when
    ``PBEM_DEBUG`` is set).  A closed pipe (``pbem status | head``) ends quietly.
    """

    QUICK: ClassVar[frozenset[str]] = frozenset(
        {"status", "read", "check", "games", "rules", "verify", "show", "log"}
    )
    """Commands that only read (what they write is closed before they return): run from the
    console, the process ends as soon as one is done, without the interpreter's tear-down of
    every module (pbem/cli_exit.py; about 10 ms of ``pbem status``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The console entry point (``pbem``, ``python -m pbem``): :meth:`main` on
        ``sys.argv``, ending the process at once after a :attr:`QUICK` command, help or a
        usage error.  Called with arguments (``main(["status", "game"])``), it is
        :meth:`main`: the caller may catch SystemExit and go on."""
        if args or kwargs:
            return self.main(*args, **kwargs)
        try:
            return self.main()
        except SystemExit as stop:
            from pbem import cli_exit

            if cli_exit.quick_command(sys.argv[1:], self.QUICK) and cli_exit.can_end_now():
                cli_exit.end_now(stop.code)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        import os

        from pbem.errors import BUG_EXIT, DEBUG_ENV, PbemError

        try:
            return super().invoke(ctx)
        except PbemError as exc:
            click.echo(f"pbem: {exc.message}", err=True)
            if exc.hint:
                click.echo(f"  what to do: {exc.hint}", err=True)
            ctx.exit(exc.exit_code)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # The reader went away: say nothing more (Python would print a traceback on exit).
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(1)
        except Exception as exc:
            if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                raise
            if isinstance(exc, OSError) and (exc.errno in SYSTEM_REFUSED or exc.errno in NOT_PERMITTED):
                _system_refused(ctx, exc)
            from pbem.inputs import shorten

            command = " ".join(["pbem", *([ctx.invoked_subcommand] if ctx.invoked_subcommand else [])])
            click.echo(
                f"{command}: unexpected error ({type(exc).__name__}: {shorten(str(exc), 200)}); "
                f"this is a bug: please report it (run again with {DEBUG_ENV}=1 for the details)",
                err=True,
            )
            ctx.exit(BUG_EXIT)

    PLUGINS: ClassVar[dict[str, tuple[str, ...]]] = {
        "pbem.cli_moderator": (
            *("moderate", "judge", "extend", "pause", "resume", "replace"),
            *("resign", "rollback", "preview", "open", "log"),
        ),
        "pbem.press.commands": ("say", "press"),
        "pbem.cli_record": ("verify", "archive"),
        "pbem.cli_keys": ("keygen", "key"),
    }
    """Commands that live in other modules, by module: each module is imported (and its
    ``register`` adds its commands) only when one of its commands is asked for, so that
    ``pbem read`` does not pay for the moderator's.  tests/test_cli_plugins.py checks that each
    module adds exactly these."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, the plug-ins' too (without importing them)."""
        return sorted({*self.commands, *(name for names in self.PLUGINS.values() for name in names)})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, importing the plug-in module that holds it on first use."""
        if cmd_name not in self.commands:
            for module, names in self.PLUGINS.items():
                if cmd_name in names:
                    from importlib import import_module

                    import_module(module).register(self)
        return super().get_command(ctx, cmd_name)

    SECTIONS = (
        ("Players", ("keygen", "key", "read", "orders", "check", "sign", "open", "say", "press")),
        (
            "Moderators, one game",
            (
                *("new", "submit", "advance", "preview", "show", "publish"),
                *("extend", "pause", "resume", "replace", "resign", "rollback"),
            ),
        ),
        ("Moderators, running games unattended", ("moderate", "judge", "log")),
        ("Anyone", ("status", "verify", "archive", "games", "rules", "demo")),
    )
    """How ``pbem --help`` groups the commands; a command in no section is listed last."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands by who uses them (see :attr:`SECTIONS`)."""
        commands = {
            name: cmd
            for name in self.list_commands(ctx)
            if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden
        }
        width = formatter.width - 6 - max((len(name) for name in commands), default=0)
        placed: set[str] = set()
        for title, names in (*self.SECTIONS, ("Other", tuple(commands))):
            rows = [
                (n, commands[n].get_short_help_str(width)) for n in names if n in commands and n not in placed
            ]
            placed.update(n for n, _ in rows)
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


@click.group(
    cls=PbemGroup,
    context_settings={"help_option_names": ["-h", "--help"], "show_default": True},
    epilog="Exit codes: 0 success, 1 rejected input, 2 usage, 3 a bug (set PBEM_DEBUG=1 for the "
    "traceback).  pbem rules GAME prints a game's rules and order syntax.",
)
@click.version_option(package_name="pbem")
def main() -> None:
    """Play tabletop games by email or through a shared folder, with signed orders
    and reports whose hidden parts are encrypted to each player."""


_key = load_key


def _moderator_option(help_text: str) -> Any:
    return click.option("--moderator", "moderator_card", type=EXISTING_FILE, help=help_text)


_player_key = click.option(
    "--key",
    "keyfile",
    required=True,
    type=EXISTING_FILE,
    help="Your own secret identity file (NAME.key from pbem keygen): opens your part, signs your orders.",
)
_moderator_key = MODERATOR_KEY
_variant_option = click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A variant option (pbem games lists them).",
)
_pin_option = _moderator_option(
    "The moderator's public card; without it, the key first seen for this game is required."
)
_save_moderator_option = SAVE_MODERATOR


def _emit(text: str, out: str | None, what: str) -> None:
    """Write ``text`` to the file ``out``, or to standard output.

    Raises UsageError when ``out`` cannot be written (its folder is missing, say)."""
    from pbem.errors import UsageError
    from pbem.inputs import describe_os_error, writable_target

    if out:
        target = writable_target(out, what)
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write the {what} to {out}: {describe_os_error(exc)}") from None
        click.echo(f"{what} written to {out}")
    else:
        click.echo(text, nl=False)


def _option_pairs(options: tuple[str, ...]) -> dict[str, str]:
    """``--option NAME=VALUE`` arguments as a dict.  Raises UsageError for one without '='."""
    from pbem.errors import UsageError
    from pbem.inputs import shorten

    opts = {}
    for spec in options:
        name, sep, value = spec.partition("=")
        if not sep:
            raise UsageError(
                f"--option takes NAME=VALUE, got {spec!r}",
                f"give the value too, e.g. --option {shorten(spec.strip()) or 'NAME'}=VALUE "
                "(pbem games lists each game's options and their values)",
            )
        opts[name.strip()] = value
    return opts


def _note_old_option_names(game_name: str, opts: dict[str, str]) -> None:
    """Say on stderr which ``--option`` names used an old snake_case spelling (still read)."""
    from pbem.errors import UsageError
    from pbem.options import option_name
    from pbem.registry import get_game

    try:
        game = get_game(game_name)
    except UsageError:
        return  # the command itself says so
    for name in opts:
        if option_name(game, name) != name:
            click.echo(f"note: option {name} is now spelled {option_name(game, name)}", err=True)


_card = load_card


MAX_TEXT = 16 * 1024 * 1024
"""The largest report, order file or notice a command reads (the parsers bound much lower)."""


def _read_text(path: str) -> str:
    """The UTF-8 text of the file a user named (``-``: standard input).

    Raises UsageError when it cannot be read as a file (missing, a folder, a link loop, a
    pipe, no permission) and FormatError (exit 1) when it is not UTF-8 or too large."""
    from pbem.errors import FormatError
    from pbem.inputs import decode, read_text

    if path == "-":
        data = sys.stdin.buffer.read(MAX_TEXT + 1)
        if len(data) > MAX_TEXT:
            raise FormatError(f"standard input is larger than {MAX_TEXT:,} bytes")
        return decode(data, "standard input", "input")
    return read_text(path, "file", MAX_TEXT)


# ---- games and folders --------------------------------------------------------------------
@main.command()
def games() -> None:
    """List installed games, their player counts and variants."""
    from pbem.options import choices_text
    from pbem.registry import game_names, get_game

    for name in game_names():
        info = get_game(name).info
        click.echo(f"{name}: {info.title}, {info.min_players}-{info.max_players} players. {info.summary}")
        for v in info.variants:
            choices = f" ({choices_text(v.choices)})" if v.choices else ""
            click.echo(f"    --option {v.name}={str(v.default).lower()}{choices}: {v.description}")


@main.command()
@click.argument("game")
@click.option("--cards", is_flag=True, help="Print only the game's card list (games whose cards are data).")
def rules(game: str, cards: bool) -> None:
    """Print GAME's rules summary: order syntax, variants and rulings (its README.md)."""
    from pbem.registry import game_card_list, game_rules

    click.echo(game_card_list(game) if cards else game_rules(game), nl=False)


def _warn_moderator_cards(moderator: Any, cards: list[Any]) -> None:
    """Warn (on stderr) about a player's card that holds the moderator's own key: whoever
    holds that key opens every player's report and the game's secret part; and about two
    players' cards that hold one key (one person would play both seats)."""
    for card in cards:
        same = [
            what
            for what, mine, theirs in (
                ("signing", moderator.verify_key, card.verify_key),
                ("encryption", moderator.age_recipient, card.age_recipient),
            )
            if mine == theirs
        ]
        if same:
            click.echo(
                f"warning: the card of {card.name} holds the moderator's own {' and '.join(same)} key "
                f"(key id {card.key_id}): the moderator's key opens every player's report and the "
                f"game's secrets, so {card.name} would see every hidden card.  If that is not meant, "
                f"give {card.name} a key of their own (pbem keygen {card.name}) and create the game again.",
                err=True,
            )
    for i, card in enumerate(cards):
        for other in cards[:i]:
            if card.verify_key == other.verify_key or card.age_recipient == other.age_recipient:
                click.echo(
                    f"warning: the cards of {other.name} and {card.name} hold the same key (key id "
                    f"{card.key_id}): whoever holds it reads both players' hidden cards and signs for "
                    "both.  If that is not meant, ask each player for a card of their own (pbem keygen "
                    "NAME) and create the game again.",
                    err=True,
                )


@main.command()
@click.argument("game")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option(
    "--moderator-key",
    required=True,
    type=EXISTING_FILE,
    help="The moderator's secret identity file (from pbem keygen): signs the game's saves and reports.",
)
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    metavar="NAME=CARD.pub",
    help="A seat, in clockwise order: the player's name and public key card.",
)
@_variant_option
@click.option(
    "--press",
    "press_rules",
    multiple=True,
    metavar="NAME=VALUE",
    help="A press rule (mode=full|public|none, grey=yes, moderator-reads=yes, archive-private=yes, "
    "max-chars=N, per-turn=N, out-may-send=yes, out-may-receive=no, phase.NAME=MODE); fixed for the "
    "game's life and stated in every report.  Without it the game has no press.",
)
def new(
    game: str,
    folder: str,
    moderator_key: str,
    players: tuple[str, ...],
    options: tuple[str, ...],
    press_rules: tuple[str, ...] = (),
) -> None:
    """Create a game of GAME in FOLDER and write the turn 1 reports."""
    from pbem.engine import GameFolder
    from pbem.errors import UsageError
    from pbem.inputs import shorten
    from pbem.keys import PublicCard
    from pbem.press.rules import parse_pairs, write_rules

    press = parse_pairs(press_rules)  # checked before anything is written

    cards = []
    for spec in players:
        name, sep, path = spec.partition("=")
        if not sep:
            raise UsageError(f"--player takes NAME=CARD.pub, got {spec!r}")
        card = PublicCard.load(path)
        if card.name.lower() != name.lower():
            raise UsageError(
                f"{shorten(path)} is {card.name}'s card, not {shorten(name)}'s",
                f"name each seat as its card does (--player {card.name}={shorten(path)}), "
                f"or pass {shorten(name)}'s own card",
            )
        cards.append(card)
    opts = _option_pairs(options)
    _note_old_option_names(game, opts)
    identity = _key(moderator_key)
    _warn_moderator_cards(identity.public(), cards)
    gf = GameFolder.create(folder, game, identity, cards, opts, now=_now())
    save = gf.read()
    if press is not None:
        write_rules(Path(folder), press, save.game_id, identity)
        gf.republish(identity)  # the turn 1 reports state the press rules
    click.echo(f"created {save.game} game {save.game_id} in {folder}")
    click.echo(f"reports for turn 1 are in {gf.reports_dir(1)}")
    click.echo(f"awaiting orders from: {', '.join(save.names[s] for s in save.awaiting)}")


def _status_root(root: Path, as_json: bool, moderator_card: str | None) -> None:
    """``pbem status ROOT``: one line per game under a moderator's root.

    Raises RejectedError (after the table) when a game could not be read."""
    import json

    from pbem.errors import RejectedError
    from pbem.moderator.overview import overview, table

    now = int(_now().timestamp())
    lines = overview(root, now, _card(moderator_card))
    if as_json:
        games = [g.to_json() for g in lines]
        click.echo(json.dumps({"root": str(root), "now": now, "games": games}, indent=2))
    else:
        for row in table(lines, now):
            click.echo(row)
    broken = [g.folder for g in lines if g.game is None]
    if broken:
        from pbem.wording import counted

        raise RejectedError(
            f"{counted(len(broken), 'game folder')} under {root} cannot be read: {', '.join(broken)}",
            "pbem status on the game folder says more; the other games are shown",
        )


@main.command()
@click.argument("folder", type=EXISTING_FOLDER)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_save_moderator_option
def status(folder: str, as_json: bool, moderator_card: str | None) -> None:
    """Say the turn and whose orders are awaited (no key needed).  FOLDER is a game
    folder, or a moderator's root: then one line per game under it."""
    import json

    from pbem.engine import GameFolder

    if not (Path(folder) / "save.json").exists():
        from pbem.moderator.overview import game_folders

        if game_folders(Path(folder)):
            _status_root(Path(folder), as_json, moderator_card)
            return
    gf = GameFolder(folder)
    save = gf.read(_card(moderator_card))
    names = save.names
    missing_files = [path.name for path in gf.missing_files(save)]
    missing_reports = [n for n in names if f"{n}.txt" in missing_files]
    info = {
        "game": save.game,
        "game_id": save.game_id,
        "turn": save.turn,
        "awaiting": [names[s] for s in save.awaiting if s not in save.body["submitted"]],
        "submitted": [names[s] for s in save.body["submitted"]],
        "players": [{"name": p["card"]["name"], "status": p["status"]} for p in save.body["players"]],
        "outcome": _named_outcome(save.body["outcome"], names),
        "written": save.body["written"],
        "moderator": _moderator_lines(Path(folder), save.game),
        "missing_reports": missing_reports,
        "missing_files": missing_files,
        "press": _press_rules(Path(folder), save),
    }
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    click.echo(f"{save.game} game {save.game_id}, turn {save.turn} (saved {info['written']})")
    if info["outcome"]:
        outcome = info["outcome"]
        from pbem.wording import outcome_line

        click.echo(f"game over: {outcome_line(outcome['summary'], outcome['won_by'])}")
    else:
        click.echo(f"awaiting orders from: {', '.join(info['awaiting']) or 'nobody (ready to advance)'}")
        if info["submitted"]:
            click.echo(f"orders in from: {', '.join(info['submitted'])}")
    for line in info["moderator"]:
        click.echo(line)
    if info["press"] is not None:
        from pbem.press.rules import PressRules

        for line in PressRules.from_json(info["press"], "press rules").describe():
            click.echo(line)
    if missing_files:
        whose = f" for {', '.join(missing_reports)}" if missing_reports else ""
        click.echo(
            f"reports of turn {save.turn} are missing{whose} ({', '.join(missing_files)}): "
            "the moderator should run pbem publish"
        )


def _named_outcome(outcome: Any, names: Any) -> Any:
    """pbem.wording.named_outcome, loaded only for a finished game (start-up, issue 13)."""
    if outcome is None:
        return None
    from pbem.wording import named_outcome

    return named_outcome(outcome, names)


STATUS_RECORD = ("moderator", "record.json")
"""Where a moderated game keeps its record (pbem.moderator.record.record_path; a test keeps
the two equal)."""


def _moderator_lines(folder: Path, game: str) -> list[str]:
    """The moderator's lines of ``pbem status`` (deadline, reminders, missed turns); none for
    a game without a record, which the moderator never ran, whose modules are then not
    even imported (start-up, issue 13)."""
    if not folder.joinpath(*STATUS_RECORD).exists() and not folder.joinpath(*STATUS_RECORD).is_symlink():
        return []
    from pbem.moderator.actions import status_lines

    return status_lines(folder, int(_now().timestamp()), game)


def _press_rules(folder: Path, save: Any) -> Any:
    """The game's press rules as JSON (checked against its moderator's key), or None when it
    has none."""
    from pbem.press import PRESS_DIR, RULES_NAME

    if not (folder / PRESS_DIR / RULES_NAME).exists():
        return None  # (without loading the press code: most games have no press)
    from pbem.press.rules import load_rules

    return load_rules(folder, save.game_id, save.moderator).to_json()


@main.command()
@click.argument("folder", type=EXISTING_FOLDER)
@_moderator_key
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def show(folder: str, keyfile: str, as_json: bool) -> None:
    """Show the moderator everything: full state, pending orders, last events."""
    import json

    from pbem.engine import GameFolder
    from pbem.game import Event
    from pbem.wording import event_lines, name_seats, seat_name

    loaded = GameFolder(folder).load(_key(keyfile))
    doc = {
        "game": loaded.save.game,
        "game_id": loaded.save.game_id,
        "turn": loaded.save.turn,
        "players": loaded.save.names,
        "state": loaded.secret.state,
        "pending": loaded.secret.pending,
        "events": loaded.secret.events,
        "press": _press_rules(Path(folder), loaded.save),
    }
    if as_json:
        click.echo(json.dumps(doc, indent=2, sort_keys=True))
        return
    names = loaded.save.names
    for seat, name in enumerate(names):
        _, private = loaded.game.describe(loaded.view(seat))
        click.echo(f"--- {name} ---\n{name_seats(private, names).rstrip()}")
    click.echo(f"--- table ---\n{name_seats(loaded.game.describe(loaded.view(None))[0], names).rstrip()}")
    if doc["press"] is not None:
        from pbem.press.rules import PressRules

        click.echo("--- press rules (every report states them):")
        for line in PressRules.from_json(doc["press"], "press rules").describe():
            click.echo(f"  {line}")
    click.echo("--- last events:")
    for line in event_lines((Event.from_json(e) for e in loaded.secret.events), names):
        click.echo(line)
    pending = loaded.secret.pending
    click.echo(f"--- pending orders ({len(pending)} of {len(loaded.save.awaiting)} awaited):")
    for seat_key, entry in sorted(pending.items(), key=lambda item: int(item[0])):
        name = seat_name(int(seat_key), names)
        click.echo(f"  {name} (Seq {entry.get('seq')}): {json.dumps(entry.get('orders'), sort_keys=True)}")


# ---- a player's tools -------------------------------------------------------------------------
@main.command()
@click.argument("report", type=EXISTING_FILE)
@_player_key
@_pin_option
def read(report: str, keyfile: str, moderator_card: str | None) -> None:
    """Print your report with its private part decrypted (after checking every signature).

    pbem keeps a copy, so that check and sign find the report a form answers."""
    from pbem.folder import default_home
    from pbem.player import KnownModerators, read_report, readable_report, unsigned_above

    pinned = KnownModerators(default_home()).games()
    opened = read_report(_read_text(report), report, _key(keyfile), _card(moderator_card))
    click.echo(readable_report(opened), nl=False)
    if opened.data["game_id"] not in pinned and moderator_card is None:
        click.echo(
            f"pbem: note: the first report of game {opened.data['game_id']} read here: its moderator's "
            f"key {opened.moderator.key_id} is now trusted for the game; check it against the Key-Id "
            "line of the card your moderator gave you (a report signed by another key will be refused)",
            err=True,
        )
    if unsigned_above(opened):
        click.echo(
            f"pbem: warning: {report}: {unsigned_above(opened)} line(s) above the report's first line are "
            "not signed by the moderator and were left out",
            err=True,
        )


@main.command()
@click.argument("report", type=EXISTING_FILE)
@_player_key
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write the form here instead of stdout.")
@_pin_option
def orders(report: str, keyfile: str, out: str | None, moderator_card: str | None) -> None:
    """Write a blank order form listing exactly what you may do now."""
    from pbem.player import order_form

    _emit(order_form(_read_text(report), report, _key(keyfile), _card(moderator_card)), out, "order form")


_report_option = click.option(
    "--report",
    type=EXISTING_FILE,
    help="The report the orders answer (default: the copy pbem kept when you read it or asked for the form).",
)


@main.command()
@click.argument("orders_file", metavar="ORDERS", type=EXISTING_FILE)
@_player_key
@_report_option
@_pin_option
def check(orders_file: str, keyfile: str, report: str | None, moderator_card: str | None) -> None:
    """Check orders (a form, or a clear signed file) offline with the engine's own validation."""
    from pbem.player import check_orders

    count = check_orders(
        _read_text(orders_file),
        orders_file,
        None if report is None else _read_text(report),
        report,
        _key(keyfile),
        _card(moderator_card),
    )
    from pbem.wording import counted

    click.echo(f"{orders_file}: {counted(count, 'order')}, all accepted by the rules")


@main.command()
@click.argument("orders_file", metavar="ORDERS", type=EXISTING_FILE)
@_player_key
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write here instead of stdout.")
@_report_option
@click.option("--no-check", is_flag=True, help="Sign without checking the orders against the report.")
@click.option("--no-seal", is_flag=True, help="Do not encrypt the signed block to the moderator.")
@_pin_option
def sign(
    orders_file: str,
    keyfile: str,
    out: str | None,
    report: str | None,
    no_check: bool,
    no_seal: bool,
    moderator_card: str | None,
) -> None:
    """Check a filled-in order form as pbem check does, sign it, and seal it to the moderator.

    Refuses (exit 1) orders the engine would reject.  The report is found from the form's
    headers (pbem keeps a copy of every report you read); the file is sealed to the moderator
    who signed that report."""
    from pbem.player import sign_form

    given = None if report is None else (_read_text(report), report)
    signed = sign_form(
        _read_text(orders_file),
        orders_file,
        _key(keyfile),
        seal_orders=not no_seal,
        check=not no_check,
        report=given,
        moderator=_card(moderator_card),
    )
    _emit(signed.text, out, "signed orders")
    if signed.checked is None:
        click.echo("pbem: warning: the orders were NOT checked against your report (--no-check)", err=True)
    else:
        from pbem.wording import counted

        click.echo(
            f"checked against {signed.report}: {counted(signed.checked, 'order')}, all accepted", err=True
        )
    if signed.sealed_to is None:
        click.echo("pbem: warning: NOT sealed: anyone who sees the file can read your orders", err=True)
    else:
        click.echo(f"sealed to the moderator ({signed.sealed_to})", err=True)


# ---- the moderator --------------------------------------------------------------------------
@main.command()
@click.argument("folder", type=EXISTING_FOLDER)
@click.argument("files", nargs=-1, required=True, type=EXISTING_FILE)
@_moderator_key
@click.option(
    "--advance",
    "advance_now",
    is_flag=True,
    help="Resolve the turn as soon as a file brings in the last awaited orders (one save written).",
)
def submit(folder: str, files: tuple[str, ...], keyfile: str, advance_now: bool) -> None:
    """Verify, validate and record order files for the current turn.

    With --advance, the file that completes the turn also resolves it and writes the next
    turn's reports, as `pbem advance` would; files after it are for the new turn."""
    import os

    from pbem.engine import GameFolder
    from pbem.errors import PbemError, RejectedError
    from pbem.wording import advanced_lines

    gf = GameFolder(folder)
    if not os.path.lexists(Path(folder) / "save.json"):  # a damaged one is the engine's to refuse
        from pbem.errors import no_game_here

        raise no_game_here(folder)  # once, not as each file's refusal
    moderator = _key(keyfile)
    failed: PbemError | None = None
    for path in files:
        try:
            text = _read_text(path)
            from pbem.press.commands import relay_press

            if relay_press(gf, moderator, text, path, _now()):
                continue  # a press file (pbem say): relayed, or refused with the reason
            receipt = gf.submit(text, moderator, source=path, now=_now(), advance=advance_now)
        except PbemError as exc:
            # "rejected" only for a file refused: not for a lock, a home folder, a save written
            click.echo(f"{'rejected' if isinstance(exc, RejectedError) else 'pbem:'} {exc.message}", err=True)
            if exc.hint:
                click.echo(f"  what to do: {exc.hint}", err=True)
            failed = failed or exc
            continue
        verb = "replaced" if receipt.replaced else "accepted"
        click.echo(f"{verb}: orders of {receipt.player} for turn {receipt.turn} (seq {receipt.seq})")
        if receipt.awaiting:
            click.echo(f"still awaiting: {', '.join(receipt.awaiting)}")
        elif receipt.advanced is not None:
            click.echo(f"all orders are in: turn {receipt.turn} resolved")
            for line in advanced_lines(receipt.advanced, gf.read().names, preview=False, fill="none"):
                click.echo(line)
            if receipt.advanced.reports:
                click.echo(f"reports written to {receipt.advanced.reports[0].parent}")
        else:
            click.echo("all orders are in: ready to advance")
    if failed is not None:
        sys.exit(failed.exit_code)


@main.command()
@click.argument("folder", type=EXISTING_FOLDER)
@_moderator_key
@click.option(
    "--fill",
    type=click.Choice(["none", "default", "random", "greedy"]),
    default="none",
    help="Orders for seats that sent none: the game's default orders or a bot's.",
)
@click.option("--preview", is_flag=True, help="Show what the advance would do; write nothing.")
def advance(folder: str, keyfile: str, fill: str, preview: bool) -> None:
    """Resolve the turn when every awaited order is in, and write the reports."""
    from pbem.engine import GameFolder
    from pbem.player import fill_orders
    from pbem.wording import advanced_lines

    gf = GameFolder(folder)
    moderator = _key(keyfile)
    filling = None if fill == "none" else fill_orders(gf.load(moderator), fill)
    result = gf.advance(moderator, now=_now(), fill=filling, preview=preview)
    for line in advanced_lines(result, gf.read().names, preview=preview, fill=fill):
        click.echo(line)
    if result.reports:
        click.echo(f"reports written to {result.reports[0].parent}")


@main.command()
@click.argument("folder", type=EXISTING_FOLDER)
@_moderator_key
def publish(folder: str, keyfile: str) -> None:
    """Write the current turn's reports again (after a crash, or lost files)."""
    from pbem.engine import GameFolder

    gf = GameFolder(folder)
    moderator = _key(keyfile)
    written = gf.republish(moderator)
    click.echo(f"{len(written)} files written to {written[0].parent}")


@main.command()
@click.argument("game")
@click.option(
    "--players", type=int, default=None, metavar="N", help="Number of seats (default: the game's maximum)."
)
@click.option(
    "--seed",
    type=int,
    default=7,
    metavar="NUMBER",
    help="Fixes the game's chance and the bots' choices: the same seed plays the same game "
    "(with new keys and its own game id).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="demo-out",
    metavar="FOLDER",
    help="Folder for all files; must be empty or absent (a failed demo leaves it so).",
)
@click.option(
    "--bots",
    default="greedy,random",
    metavar="BOT,BOT...",
    help="Bots by seat, comma-separated, cycled (pbem games lists each game's bots).",
)
@_variant_option
def demo(game: str, players: int | None, seed: int, out: str, bots: str, options: tuple[str, ...]) -> None:
    """Play a whole game with bots through the real pipeline and print the winner.

    Every step is real: keys, signed and sealed order files, encrypted reports, a game
    folder.  A progress line every second on long games."""
    from pbem.demo import run_demo

    opts = _option_pairs(options)
    _note_old_option_names(game, opts)
    result = run_demo(game, players, seed, Path(out), bots.split(","), opts, progress=click.echo)
    click.echo(result.summary)
