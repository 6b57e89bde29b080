"""The moderator's commands, registered into ``pbem`` by :func:`register`.

``moderate`` and ``judge`` run the games under a root (once, or until stopped with
``--watch``); ``extend``, ``pause``, ``resume``, ``replace``, ``resign``, ``rollback`` and
``preview`` act on one game folder; ``open`` shows the encrypted details of a notice.
Thin commands over :mod:`pbem.moderator`; errors are pbem.errors classes, turned into exit
codes by the main group (1 rejected input, 2 usage).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from pbem.cli_options import EXISTING_FILE, EXISTING_FOLDER, load_key
from pbem.cli_options import MODERATOR_KEY as KEY

STATE = click.option(
    "--state-dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="FOLDER",
    help="The moderator's local folder (index, outbox, quarantine); never inside the shared folder.",
)
GAME = click.argument("game_dir", metavar="GAME", type=EXISTING_FOLDER)


def _admin(game_dir: str, keyfile: str, state_dir: str | None) -> Any:
    from pbem.moderator.actions import GameAdmin

    return GameAdmin.open(Path(game_dir), load_key(keyfile), state_dir=Path(state_dir) if state_dir else None)


def _root(root: str, command: str) -> Path:
    """``root`` as a moderator's root.  Raises UsageError when it is a game folder itself (it
    holds ``save.json``): a root holds game folders, and a pass over a game folder would
    find no game under it and quietly do nothing."""
    import os

    from pbem.errors import UsageError

    path = Path(root)
    if (path / "save.json").exists():
        parent = os.path.dirname(os.path.normpath(root)) or ".."
        raise UsageError(
            f"{root} is a game folder (it holds save.json), not a moderator's root: pbem {command} "
            "runs every game folder under the root it is given",
            f"give the folder that holds the game folders: pbem {command} {parent} --key MODERATOR.key",
        )
    return path


def _no_games(root: Path) -> str:
    """What a one-off pass over a root with no game folder says: where games go."""
    return (
        f"no game folder under {root} (a game folder holds save.json; make one there with "
        f"pbem new GAME {root / 'NAME'} ...)"
    )


def _print_pass(result: Any, now: int, *, verbose: bool, once: bool, root: Path | None = None) -> None:
    """Print what a pass did: one timestamped line per journal entry it wrote (files filed or
    refused, reminders, stand-ins, turns resolved and started, repairs) and per game it could
    not run.  A pass that did nothing prints nothing, except with ``once`` (a one-off run),
    which says so at once; ``verbose`` adds the pass's counts and the games skipped as locked."""
    from pbem.moderator.journal import stamp
    from pbem.wording import counted

    did = False
    for game in result.games:
        for entry in game.journal:
            click.echo(f"{stamp(entry.at if entry.at is not None else now)} {game.game}: {entry.text}")
            did = True
        if game.error:
            click.echo(f"{stamp(now)} {game.game}: error: {game.error}", err=True)
            did = True
        elif verbose and game.skipped == "locked":
            click.echo(f"{stamp(now)} {game.game}: skipped: another pbem command holds its lock")
    if once and not did and not result.games and root is not None:
        click.echo(f"{stamp(now)} nothing to do: {_no_games(root)}")
    elif once and not did:
        due = [g.next_due for g in result.games if g.next_due is not None and g.next_due > 1]
        later = f"; next deadline or reminder at {stamp(min(due))}" if due else ""
        click.echo(
            f"{stamp(now)} nothing to do: {counted(len(result.games), 'game')}, no new order files, "
            f"no turn ready to resolve{later}"
        )
    if verbose and (did or once):
        click.echo(
            f"{stamp(now)} pass: {counted(len(result.games), 'game')}, {result.looked_at} looked at, "
            f"{counted(result.files, 'file')}, {counted(result.advanced, 'turn')} resolved "
            f"in {result.seconds:.3f} s"
        )


def _loop(run: Any, poll: int, watch: bool, wake: Path | None) -> None:
    """Run ``run`` once, or every ``poll`` seconds until interrupted (inotify, when
    available, only wakes the loop early: the scan stays the source of truth).  With
    ``watch``, a pass that fails (a mail server down, a full disk under the moderator's own
    state) is reported and tried again at the next poll, the first pass too."""
    import signal
    import threading

    from pbem.errors import PbemError

    if not watch:
        run()
        return
    try:
        run()
    except PbemError as exc:  # as for every later pass: report it, and keep watching
        click.echo(f"pbem: {exc.message}", err=True)
    click.echo(f"watching: a pass every {poll} s; idle passes print nothing (stop with Ctrl-C)")
    stop = threading.Event()
    # SIGTERM (a service manager) and SIGINT (Ctrl-C, even where a shell started us in the
    # background with SIGINT ignored) end the loop between passes.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    waiter = _Waiter(wake) if wake is not None else None
    while not stop.is_set():
        if waiter is not None and waiter.inotify is not None:
            waiter.wait(poll)
        else:
            stop.wait(poll)
        if stop.is_set():
            break
        try:
            run()
        except PbemError as exc:  # a mail server down, say: report it and try again later
            click.echo(f"pbem: {exc.message}", err=True)
    click.echo("stopped")


class _Waiter:
    """Sleep up to a timeout, waking early when the file system reports a change (Linux
    inotify through the optional ``inotify_simple`` package); plain sleep otherwise."""

    def __init__(self, root: Path) -> None:
        self.inotify: Any = None
        try:
            from inotify_simple import INotify, flags

            self.inotify = INotify()
            mask = flags.CLOSE_WRITE | flags.MOVED_TO | flags.CREATE
            self.inotify.add_watch(str(root), mask)
            for path in root.glob("*/inbox/*"):
                self.inotify.add_watch(str(path), mask)
        except Exception:
            self.inotify = None

    def wait(self, seconds: int) -> None:
        if self.inotify is None:
            time.sleep(seconds)
            return
        self.inotify.read(timeout=seconds * 1000, read_delay=200)


class _Workers(click.ParamType):
    """``--workers``: a number from 1 to 64, or ``auto`` (two a core, at most 8)."""

    name = "N|auto"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif str(value).strip().lower() == "auto":
            import os

            from pbem.moderator.workers import auto_workers

            return auto_workers(os.cpu_count())
        else:
            text = str(value).strip()
            if not text.isdigit() or len(text) > 3:
                self.fail(f"{str(value)[:40]!r} is not a number of workers (1 to 64) or 'auto'", param, ctx)
            number = int(text)
        if not 1 <= number <= 64:
            self.fail(f"{number} is not in the range 1 to 64 (or 'auto')", param, ctx)
        return number


@click.command()
@click.argument("root", type=EXISTING_FOLDER)
@KEY
@STATE
@click.option("--watch", is_flag=True, help="Keep running, one pass every poll interval, until stopped.")
@click.option(
    "--poll",
    type=int,
    default=None,
    metavar="SECONDS",
    help="Seconds between passes with --watch (default: from moderator.toml).",
)
@click.option(
    "--settle",
    type=int,
    default=None,
    metavar="SECONDS",
    help="Seconds a dropped file must rest before it is read (default: from moderator.toml).",
)
@click.option("--force", is_flag=True, help="Look at every game, even those that seem unchanged.")
@click.option(
    "--workers",
    type=_Workers(),
    default="1",
    show_default=True,
    help="Processes that handle games at once (each game keeps its own lock); 'auto': two a "
    "core, at most 8 (best on a disk-bound host; see docs/scaling.md).",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="Also print each pass's counts and the games skipped as locked."
)
def moderate(
    root: str,
    keyfile: str,
    state_dir: str | None,
    watch: bool,
    poll: int | None,
    settle: int | None,
    force: bool,
    workers: int,
    verbose: bool,
) -> None:
    """Run every game folder under ROOT: file or refuse dropped orders, answer the players,
    apply deadlines, resolve turns, and hand out reports."""
    from pbem.moderator.core import Moderator

    root_path = _root(root, "moderate")
    moderator = Moderator(
        root_path, load_key(keyfile), state_dir=Path(state_dir) if state_dir else None, settle=settle
    )

    def run() -> None:
        now = moderator.clock.now()
        result = moderator.run_pass(force=force, workers=workers)
        _print_pass(result, now, verbose=verbose, once=not watch, root=root_path)

    _loop(run, poll or moderator.config.poll, watch, Path(root))


@click.command()
@click.argument("root", type=EXISTING_FOLDER)
@KEY
@STATE
@click.option(
    "--config",
    "config_path",
    type=EXISTING_FILE,
    default=None,
    help="TOML file with the [mail] settings (default: ROOT/moderator.toml).",
)
@click.option("--watch", is_flag=True, help="Keep running until stopped.")
@click.option(
    "--poll",
    type=int,
    default=None,
    metavar="SECONDS",
    help="Seconds between rounds with --watch (default: from moderator.toml).",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="Also print each pass's counts and the games skipped as locked."
)
def judge(
    root: str,
    keyfile: str,
    state_dir: str | None,
    config_path: str | None,
    watch: bool,
    poll: int | None,
    verbose: bool,
) -> None:
    """Run the games under ROOT by email: read order mails (IMAP), then send notices,
    reminders and reports (SMTP), one mail per player."""
    from pbem.mail.settings import mail_settings
    from pbem.moderator.config import read_toml
    from pbem.moderator.core import Moderator
    from pbem.moderator.judge import Judge

    root_path = _root(root, "judge")
    config = read_toml(Path(config_path) if config_path else root_path / "moderator.toml")
    settings = mail_settings(config, shared_root=root_path)
    moderator = Moderator(
        root_path, load_key(keyfile), state_dir=Path(state_dir) if state_dir else None, mail=True
    )
    judge_ = Judge(moderator, settings)

    def run() -> None:
        from pbem.moderator.journal import stamp

        now = moderator.clock.now()
        intake, result, sent = judge_.run_once()
        if intake.mails or sent:
            from pbem.wording import counted

            blocks = counted(intake.blocks, "order block")
            click.echo(f"{stamp(now)} mail: {intake.mails} read, {blocks}, {sent} sent")
        for line in intake.log:  # mails set aside into the quarantine, flags the server refused
            click.echo(line, err=True)
        _print_pass(
            result, now, verbose=verbose, once=not watch and not (intake.mails or sent), root=root_path
        )

    _loop(run, poll or moderator.config.poll, watch, None)


@click.command()
@GAME
@click.argument("duration")
@KEY
@STATE
def extend(game_dir: str, duration: str, keyfile: str, state_dir: str | None) -> None:
    """Move the current turn's deadline DURATION later: a number with a unit, w, d, h, m or
    s (24h, 2d, 1h30m); a number without a unit is seconds."""
    from pbem.timing import format_duration, parse_duration

    seconds = parse_duration(duration, "DURATION")
    admin = _admin(game_dir, keyfile, state_dir)
    clock = admin.extend(seconds)
    click.echo(
        f"turn {clock.turn}: deadline extended by {format_duration(seconds)} "
        f"(in all: {format_duration(clock.extended)})"
    )
    policy = admin.policy()
    if policy is not None and policy.deadline is None:
        click.echo(
            'note: this game has no deadline (deadline = "none"): the extension counts once one is set '
            "in the [timing] table of its moderator.toml",
            err=True,
        )
    if duration.strip().isdigit():
        click.echo(
            f"note: {duration.strip()} without a unit is seconds; write {duration.strip()}h for hours",
            err=True,
        )


@click.command()
@GAME
@KEY
@STATE
def pause(game_dir: str, keyfile: str, state_dir: str | None) -> None:
    """Stop the game's clock: no reminders, deadlines or turns until resumed."""
    from pbem.moderator.journal import stamp

    clock, changed = _admin(game_dir, keyfile, state_dir).pause()
    if not changed:
        click.echo(
            f"already paused since {stamp(clock.paused_since)}: nothing changed (pbem resume restarts it)"
        )
        return
    click.echo("paused: orders are still filed, but nothing falls due and no turn is resolved")


@click.command()
@GAME
@KEY
@STATE
def resume(game_dir: str, keyfile: str, state_dir: str | None) -> None:
    """Restart the game's clock; the deadline moves by the time it was paused."""
    from pbem.timing import format_duration

    clock, changed = _admin(game_dir, keyfile, state_dir).resume()
    if not changed:
        click.echo("not paused: nothing changed (the game's clock is running)")
        return
    click.echo(f"resumed: turn {clock.turn}, paused for {format_duration(clock.paused_total)} in all")


@click.command("replace")
@GAME
@click.argument("name")
@click.argument("card", type=EXISTING_FILE)
@KEY
@STATE
def replace_cmd(game_dir: str, name: str, card: str, keyfile: str, state_dir: str | None) -> None:
    """Give seat NAME to a new player: CARD is their public key card (pbem keygen)."""
    from pbem.keys import PublicCard

    admin = _admin(game_dir, keyfile, state_dir)
    given = PublicCard.load(card)
    new = admin.replace_player(name, given)
    click.echo(f"seat of {name} now belongs to {new}; the current report is re-issued to them")
    save = admin.folder.read()
    others = [(f"{save.moderator.name} (the moderator: every seat)", save.moderator)]
    others += [(other.name, other) for other in save.players if other.name != new]
    holders = [
        label
        for label, other in others
        if other.verify_key == given.verify_key or other.age_recipient == given.age_recipient
    ]
    if holders:  # one person would read two seats' hidden cards (or every one)
        click.echo(
            f"warning: the card of {new} holds the same key as {', '.join(holders)} (key id "
            f"{given.key_id}): whoever holds it reads their hidden cards too.  If that is not meant, "
            f"replace the seat again with a card of {new}'s own (pbem keygen {new}).",
            err=True,
        )


@click.command()
@GAME
@click.argument("name")
@KEY
@STATE
def resign(game_dir: str, name: str, keyfile: str, state_dir: str | None) -> None:
    """Resign seat NAME: from now on the timing policy's stand-in plays it."""
    _admin(game_dir, keyfile, state_dir).resign(name)
    click.echo(f"{name} resigned")


@click.command()
@GAME
@click.argument("turn", type=int)
@KEY
@STATE
def rollback(game_dir: str, turn: int, keyfile: str, state_dir: str | None) -> None:
    """Go back to the start of TURN (every state is kept in history/)."""
    now = _admin(game_dir, keyfile, state_dir).rollback(turn)
    click.echo(f"rolled back: the game is at the start of turn {now}")


@click.command()
@GAME
@KEY
@STATE
def preview(game_dir: str, keyfile: str, state_dir: str | None) -> None:
    """Show what resolving the turn now would do (stand-ins included); writes nothing."""
    for line in _admin(game_dir, keyfile, state_dir).preview():
        click.echo(line)


@click.command("open")
@click.argument("file", type=EXISTING_FILE)
@click.option(
    "--key",
    "keyfile",
    required=True,
    type=EXISTING_FILE,
    help="Your own secret identity file (NAME.key): the notice's encrypted parts are yours.",
)
def open_cmd(file: str, keyfile: str) -> None:
    """Show a notice (or any text) with its encrypted parts opened with your key."""
    from pbem.folder import default_home
    from pbem.inputs import read_text
    from pbem.moderator.notices import open_text, signature_verdict

    text = read_text(file, "file", 16 * 1024 * 1024)
    click.echo(open_text(text, load_key(keyfile), file), nl=False)
    verdict = signature_verdict(text, default_home())  # a notice: is it the moderator's?
    if verdict is not None:
        click.echo(verdict, err=True)


@click.command("log")
@GAME
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output: a list of entries.")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    metavar="KIND",
    help="Only entries of this kind (repeatable): turn-started, turn-resolved, accepted, rejected, "
    "reminder, missed, stand-in, abandoned, extended, paused, resumed, replaced, resigned, rollback, "
    "repaired, note.",
)
@click.option("--turn", type=int, default=None, metavar="TURN", help="Only entries about this turn.")
@click.option(
    "--last", type=int, default=None, metavar="N", help="Only the newest N entries (after the filters)."
)
def log_cmd(game_dir: str, as_json: bool, kinds: tuple[str, ...], turn: int | None, last: int | None) -> None:
    """Print the moderator's journal of a game, oldest first, with times (UTC): turns started
    and resolved, files filed and refused, reminders, stand-ins, pauses, extensions,
    replacements, resignations, rollbacks.  Needs no key."""
    import json

    from pbem.errors import UsageError
    from pbem.moderator.journal import KINDS, read_entries
    from pbem.moderator.record import read_record, record_path

    folder = Path(game_dir)
    if not (folder / "save.json").is_file():
        from pbem.errors import no_game_here

        raise no_game_here(game_dir)
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise UsageError(f"--kind: unknown kind {', '.join(unknown)}", f"choose from: {', '.join(KINDS)}")
    if last is not None and last < 1:
        raise UsageError(f"--last: expected a number of entries from 1 up, got {last}")
    record, damage = read_record(folder)
    if damage is not None:
        click.echo(
            f"pbem: warning: {record_path(folder)} is damaged ({damage}); "
            "showing what could be read (the next moderator pass rebuilds it)",
            err=True,
        )
    entries = read_entries(record.log)
    shown = [e for e in entries if (not kinds or e.kind in kinds) and (turn is None or e.turn == turn)][
        -last if last else None :
    ]
    if as_json:
        click.echo(json.dumps([e.to_json() for e in shown], indent=1))
        return
    if not entries:
        click.echo(f"no journal yet: pbem moderate (or judge) has not run {folder.name}")
        return
    if entries[0].n > 1 and not kinds and turn is None and last is None:
        click.echo(f"({entries[0].n - 1} older entries are no longer kept)")
    for entry in shown:
        click.echo(f"{entry.line()}  [{entry.kind}]")


COMMANDS = (moderate, judge, extend, pause, resume, replace_cmd, resign, rollback, preview, open_cmd, log_cmd)


def register(group: click.Group) -> None:
    """Add the moderator's commands to the ``pbem`` group."""
    for command in COMMANDS:
        group.add_command(command)
