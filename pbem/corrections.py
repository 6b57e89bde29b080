"""The moderator's corrections to a game: roll back to a turn, give a seat a new key, set a seat's status.

Each function does its work on a :class:`pbem.engine.GameFolder` whose lock the caller holds
(the folder's public methods of the same names take the lock and call these): it loads and
verifies the current save, writes the next revision by the engine's one write path, and
publishes the reports the change calls for.  They live apart from the turn's code because a
turn never needs them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import UsageError
from pbem.game import Event
from pbem.inputs import shorten
from pbem.keys import Identity, PublicCard, check_player_name
from pbem.rng import Rng, commitment
from pbem.save import Save, Secret, open_secret, read_save

if TYPE_CHECKING:
    from pbem.engine import GameFolder


def set_aside(folder: GameFolder, revision: int, kind: str, *, after: int) -> list[Path]:
    """Move ``<kind>/turn-NNNN`` folders of turns after ``after`` into ``folder.undone_dir(revision)``.

    Returns the folders' new paths; a name already taken there gets ``+`` appended.  Raises
    OSError if a folder cannot be moved (a missing ``<kind>`` folder moves nothing).
    """
    moved: list[Path] = []
    try:
        entries = os.listdir(folder.path / kind)
    except OSError:
        return moved
    upto = f"turn-{after:04d}" if 0 <= after <= 9999 else ""
    # turn-NNNN up to ``after`` sorts before ``upto``: the usual folder, with no later turn,
    # is passed over without a pattern match per turn.
    entries = sorted(e for e in entries if not (upto and len(e) == 9 and e <= upto))
    for entry in entries:
        match = re.fullmatch(r"turn-([0-9]{4,9})", entry)
        if match is None or int(match.group(1)) <= after:
            continue
        target = folder.undone_dir(revision) / kind / entry
        target.parent.mkdir(parents=True, exist_ok=True)
        while target.exists():
            target = target.with_name(target.name + "+")
        os.rename(folder.path / kind / entry, target)
        moved.append(target)
    return moved


def turn_ranges(turns: list[int]) -> str:
    """Sorted turn numbers as a person reads them: "1 to 4", "2, 5 to 7 and 9".  Never raises."""
    from pbem.wording import join_names

    runs: list[list[int]] = []
    for turn in turns:
        if runs and turn == runs[-1][1] + 1:
            runs[-1][1] = turn
        else:
            runs.append([turn, turn])
    return join_names(str(a) if a == b else f"{a} to {b}" for a, b in runs)


def rollback(
    folder: GameFolder,
    moderator: Identity,
    turn: int,
    *,
    now: datetime,
    entropy: Callable[[int], bytes],
) -> Save:
    """:meth:`pbem.engine.GameFolder.rollback`, with the folder's lock held.

    Raises UsageError if the game is over or history holds no save that starts ``turn``.
    """
    from pbem.engine import Loaded

    loaded = folder.load(moderator)
    current, game = loaded.save, loaded.game
    if current.body["seed"] is not None:
        raise UsageError(
            f"game {current.game_id} is over and its seed is revealed: it cannot be rolled back",
            "start a new game (pbem new) instead",
        )
    candidates, starts = [], set()
    for path in sorted((folder.path / "history").glob("rev-*.json")):
        old = read_save(path.read_bytes(), str(path), moderator.public())
        if old.game_id == current.game_id and not old.body["submitted"]:
            starts.add(old.turn)
            if old.turn == turn:
                candidates.append(old)
    if not candidates:
        shown = turn if -(10**6) < turn < 10**6 else f"{str(turn)[:12]}..."
        raise UsageError(
            f"game {current.game_id} has no turn {shown} to go back to (history/ holds no start of it)",
            f"the turns it can go back to: {turn_ranges(sorted(starts))}" if starts else None,
        )
    old = candidates[-1]
    old_secret = open_secret(old, moderator)
    fresh = entropy(32)
    pledge = commitment(fresh)
    redraw = getattr(game, "redraw", None)
    state = old_secret.state
    if callable(redraw):
        state = redraw(state, Rng.for_turn(fresh, turn, "redraw"))
    note = Event(
        f"The moderator rolled the game back to the start of turn {turn}. Hidden chance from here "
        f"on comes from a fresh secret seed, revealed at the end; its commitment is {pledge}"
    )
    log = [*old_secret.log, {"turn": turn, "reseed": fresh.hex()}]
    secret = Secret(state, old_secret.seed, {}, [*old_secret.events, note.to_json()], log)
    revision = current.revision + 1
    reseeds = [
        *current.body.get("reseeds", []),
        {"turn": turn, "revision": revision, "commitment": pledge},
    ]
    # Only the game goes back: seats keep their current keys (replace_player) and status.
    base = dict(old.body, seq=current.body["seq"], players=current.body["players"], reseeds=reseeds)
    written = folder._write(moderator, current, game, secret, now=now, base=base)
    with folder.after_commit(written):
        set_aside(folder, written.revision, "orders", after=turn - 1)
        folder.publish(moderator, Loaded(written, secret, game))
    return written


def replace_player(
    folder: GameFolder, moderator: Identity, name: str, card: PublicCard, *, now: datetime
) -> Save:
    """:meth:`pbem.engine.GameFolder.replace_player`, with the folder's lock held.

    Raises UsageError for an unknown seat or a name another seat has, SignatureError for a
    card that is not self-signed, and what :func:`pbem.keys.check_player_name` raises.
    """
    from pbem.engine import Loaded

    loaded = folder.load(moderator)
    save = loaded.save
    seat = save.seat_of(name)
    if seat is None:
        raise UsageError(
            f"no player called {shorten(name)!r} in game {save.game_id}",
            f"name a seat of the game: {', '.join(save.names)}",
        )
    card.check_self_signature()
    check_player_name(card.name, loaded.game.pictures(loaded.view(None)))
    others = [n.lower() for i, n in enumerate(save.names) if i != seat]
    if card.name.lower() in others:
        raise UsageError(f"another seat is already called {card.name!r}")
    players = [dict(p) for p in save.body["players"]]
    players[seat] = {"card": card.to_json(), "status": "active"}
    seq = dict(save.body["seq"])
    seq[card.name] = seq.pop(save.names[seat], 0)
    written = folder._write(
        moderator,
        save,
        loaded.game,
        loaded.secret,
        now=now,
        base=dict(save.body, players=players, seq=seq),
    )
    with folder.after_commit(written):
        folder.publish(moderator, Loaded(written, loaded.secret, loaded.game))
    return written


def set_status(folder: GameFolder, moderator: Identity, name: str, status: str, *, now: datetime) -> Save:
    """:meth:`pbem.engine.GameFolder.set_status`, with the folder's lock held (``status`` checked there).

    Raises UsageError for an unknown seat.
    """
    loaded = folder.load(moderator)
    save = loaded.save
    seat = save.seat_of(name)
    if seat is None:
        raise UsageError(
            f"no player called {shorten(name)!r} in game {save.game_id}",
            f"name a seat of the game: {', '.join(save.names)}",
        )
    players = [dict(p) for p in save.body["players"]]
    players[seat]["status"] = status
    return folder._write(
        moderator, save, loaded.game, loaded.secret, now=now, base=dict(save.body, players=players)
    )
