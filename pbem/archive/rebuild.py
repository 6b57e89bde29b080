"""Rebuilding every position of a game by re-playing its seed and orders, checked against
the signed saves of the game folder's ``history/``.

A finished game reveals its seed and every turn's orders (``body.seed``, ``body.replay``);
the moderator's key reads the same from the sealed secret of a game still being played.
:func:`rebuild` first runs :func:`pbem.replay.verify_replay` (the seed against its
commitment, the rollback seeds against theirs, the final position), then re-plays step by
step and compares each position with every signed save of that turn that the final save
descends from: its public position and who it awaited.  Any difference is a refusal
(:class:`~pbem.errors.RollbackError`, exit 1) naming the turn and the save.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pbem.errors import FormatError, PbemError, RollbackError
from pbem.game import JSON, Event, Game, State
from pbem.inputs import read_bytes, shorten
from pbem.registry import get_game
from pbem.replay import verify_replay
from pbem.rng import Rng
from pbem.save import Save, read_save

T = TypeVar("T")
_REVISION = re.compile(r"rev-([0-9]{6,9})\.json")
WHAT_TO_DO = "do not trust this game's record; ask its moderator, or restore the folder from a backup"


@dataclass(frozen=True)
class Step:
    """One position of the re-play: the start of ``turn``."""

    turn: int
    state: State
    events: tuple[Event, ...]
    """What resolving the previous turn told (public and private events)."""
    orders: Mapping[int, JSON]
    """The orders resolved at this turn, by seat; empty for the last position."""


@dataclass(frozen=True)
class Rebuilt:
    """A game re-played and checked."""

    save: Save
    game: Game
    steps: tuple[Step, ...]
    signed: Mapping[int, Save]
    """The first signed save of each turn on the line the final save descends from (its
    ``events`` are the public events the players read)."""
    compared: int
    """Signed saves compared with the re-play."""
    last: Mapping[int, Save] = field(default_factory=dict)
    """The last signed save of each turn on that line (its players are those who gave the
    turn's orders: a seat replaced during the game has its new name from then on)."""


def history(folder: Path, save: Save) -> list[Save]:
    """Every save in ``folder``'s ``history/``, by revision, each verified (signature, the
    same game and moderator as ``save``) and chained (each names the one before).

    Raises RollbackError for a missing revision or a broken chain, FormatError,
    TamperedError or ForeignError for a bad file.
    """
    saves: list[Save] = []
    try:
        names = sorted(p.name for p in (folder / "history").iterdir())
    except OSError:
        names = []
    revisions = sorted(int(m.group(1)) for m in map(_REVISION.fullmatch, names) if m)
    # History one behind (a writer stopped, or a power cut, after the save's rename): the save
    # itself is the newest revision, checked below to follow the one before.
    behind = bool(revisions) and revisions == list(range(save.revision))
    if revisions != list(range(save.revision + 1)) and not behind:
        missing = sorted(set(range(save.revision + 1)) - set(revisions))
        beyond = [revision for revision in revisions if revision > save.revision]
        if not missing and beyond:
            raise RollbackError(
                f"{folder / 'history'} holds revision {beyond[0]}, beyond {save.source}'s revision "
                f"{save.revision}: an old save was put back, or a stranger's file is in history/",
                f"restore the newest save of history/ as save.json, or remove "
                f"history/rev-{beyond[0]:06d}.json if it does not belong to this game",
            )
        raise RollbackError(
            f"{folder / 'history'} lacks the saves of revisions "
            f"{', '.join(map(str, missing[:5]))}{' ...' if len(missing) > 5 else ''} "
            f"(the game is at revision {save.revision}): the game cannot be checked turn by turn",
            "restore the folder's history/ from a backup",
        )
    for revision in revisions:
        path = folder / "history" / f"rev-{revision:06d}.json"
        old = read_save(read_bytes(path, "save file"), str(path), save.moderator)
        if old.game_id != save.game_id or old.revision != revision:
            raise RollbackError(f"{path} is not revision {revision} of game {save.game_id}", WHAT_TO_DO)
        if saves and old.body["prev"] != saves[-1].digest:
            raise RollbackError(
                f"{path} does not follow the save before it (its prev is not that save's digest): "
                "the history was rewritten",
                WHAT_TO_DO,
            )
        saves.append(old)
    if behind:
        if save.body["prev"] != saves[-1].digest:
            raise RollbackError(
                f"{save.source} does not follow the newest save in {folder / 'history'}", WHAT_TO_DO
            )
        saves.append(save)
    if saves[-1].digest != save.digest:
        raise RollbackError(f"the newest save in {folder / 'history'} is not {save.source}", WHAT_TO_DO)
    return saves


def on_line(saves: Sequence[Save]) -> dict[int, list[Save]]:
    """The saves the last one descends from, by turn: walking back from the newest, a save
    of a later turn than one already passed was undone by a rollback and is left out."""
    kept: dict[int, list[Save]] = {}
    lowest = None
    for old in reversed(saves):
        if lowest is None or old.turn <= lowest:
            kept.setdefault(old.turn, []).insert(0, old)
            lowest = old.turn
    return kept


def _step(turn: int | None, work: Callable[..., T], *args: Any) -> T:
    """Run the game's code on published data; its exceptions become a RollbackError."""
    try:
        return work(*args)
    except PbemError:
        raise
    except Exception as exc:  # the game's code on data it never validated: any error is a refusal
        where = "setting up the game" if turn is None else f"re-playing turn {turn}"
        raise RollbackError(
            f"{where}: the game refused the published data ({type(exc).__name__}: {shorten(str(exc))})",
            WHAT_TO_DO,
        ) from None


def replay_steps(game: Game, save: Save, seed: bytes, log: Sequence[Any]) -> list[Step]:
    """Every position of the game: set up from ``seed``, then each entry of ``log`` (orders,
    or a rollback's fresh seed: the game's ``redraw`` then shuffles again).  Raises
    RollbackError or FormatError for a log the game cannot take."""
    state = _step(None, game.setup, len(save.names), save.body["options"], Rng.for_turn(seed, 0, "setup"))
    steps: list[Step] = []
    events: tuple[Event, ...] = ()
    now_seed = seed
    for entry in log:
        if not isinstance(entry, dict):
            raise FormatError(f"the replay log of game {save.game_id} holds a damaged entry")
        if "reseed" in entry:
            now_seed = bytes.fromhex(entry["reseed"])  # checked by verify_replay
            redraw = getattr(game, "redraw", None)
            if callable(redraw):
                state = _step(
                    entry.get("turn"), redraw, state, Rng.for_turn(now_seed, entry["turn"], "redraw")
                )
            continue
        turn = entry["turn"]
        orders = {int(seat): value for seat, value in entry["orders"].items()}
        steps.append(Step(turn, state, events, orders))
        result = _step(turn, game.resolve, state, orders, Rng.for_turn(now_seed, turn))
        state, events = result.state, tuple(result.events)
    final_turn = save.turn
    steps.append(Step(final_turn, state, events, {}))
    return steps


def rebuild(
    folder: Path, save: Save, seed: bytes, log: Sequence[Any], saves: Sequence[Save] | None = None
) -> Rebuilt:
    """Re-play ``save``'s game from ``seed`` and ``log`` and check every position against the
    signed saves in ``folder/history`` (``saves``: what :func:`history` already read of it).

    Raises RollbackError (a seed or position that does not match, naming the turn and the
    save), FormatError, TamperedError or ForeignError for a bad history file.
    """
    game = get_game(save.game)
    verify_replay(Save(dict(save.body, seed=seed.hex(), replay=list(log)), save.source))
    steps = replay_steps(game, save, seed, log)
    line = on_line(history(folder, save) if saves is None else saves)
    compared = 0
    signed: dict[int, Save] = {}
    last: dict[int, Save] = {}
    for step in steps:
        saves = line.get(step.turn)
        if not saves:
            raise RollbackError(
                f"the re-play reaches turn {step.turn}, but the history holds no signed save of that turn",
                WHAT_TO_DO,
            )
        public = _step(step.turn, game.observe, step.state, None).public
        awaiting = list(_step(step.turn, game.to_act, step.state))
        for old in saves:
            if old.body["public"] != public or old.awaiting != awaiting:
                what = "position" if old.body["public"] != public else "list of awaited players"
                raise RollbackError(
                    f"re-playing the published orders with the revealed seed does not give the {what} "
                    f"of turn {step.turn} that {old.source} (revision {old.revision}) was signed with",
                    WHAT_TO_DO,
                )
            compared += 1
        told = [e.text for e in step.events if e.to is None]
        for old in (saves[0], saves[-1]):  # the first and the last the archive shows
            if not _in_order(told, [e.get("text") for e in old.body["events"]]):
                raise RollbackError(
                    f"the events of re-playing turn {step.turn - 1} are not those {old.source} "
                    f"(revision {old.revision}) published",
                    WHAT_TO_DO,
                )
        signed[step.turn], last[step.turn] = saves[0], saves[-1]
    return Rebuilt(save, game, tuple(steps), signed, compared, last)


def _in_order(part: Sequence[str], whole: Sequence[Any]) -> bool:
    """True if ``part`` appears in ``whole`` in order (the engine adds its own notes)."""
    rest = iter(whole)
    return all(any(text == other for other in rest) for text in part)


@dataclass(frozen=True)
class Verified:
    """What ``pbem verify`` checked of a finished game."""

    turns: int
    """Turns re-played from the revealed seed to the final position."""
    compared: int
    """Signed saves of ``history/`` compared with the re-play."""
    history: tuple[Save, ...]
    """Every save of ``history/``, by revision (what the players' reports are compared with)."""


def verify_game(folder: Path, save: Save) -> Verified:
    """Check a finished game: the revealed seed against its commitment, the re-play of its
    published orders to the final position (:func:`pbem.replay.verify_replay`), and every
    signed save of its ``history/``: verified, chained, and each the position and awaited
    players of the re-play at its turn (:func:`rebuild`).

    Raises UsageError if the game is not over; RollbackError, FormatError, TamperedError or
    ForeignError naming the turn or the file that does not match."""
    if save.body["seed"] is None or save.body["replay"] is None:
        verify_replay(save)  # says the game is not over (UsageError)
    saves = history(folder, save)
    rebuilt = rebuild(folder, save, bytes.fromhex(save.body["seed"]), save.body["replay"], saves)
    return Verified(len(rebuilt.steps) - 1, rebuilt.compared, tuple(saves))
