"""Re-playing a finished game from its revealed seeds (``pbem verify``), and the seed in
force at any point of a game.

A game's chance comes from its secret seed, committed to in the first report.  A rollback
draws a fresh seed for every later draw (see :meth:`pbem.engine.GameFolder.rollback`): its
commitment is published in the save's ``reseeds`` at once, and the seed itself is logged in
the secret replay log as ``{"turn": T, "reseed": HEX}``, revealed at the end with the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pbem.errors import FormatError, PbemError, RollbackError, UsageError
from pbem.inputs import shorten
from pbem.registry import get_game
from pbem.rng import Rng, commitment
from pbem.save import Save

T = TypeVar("T")


def current_seed(seed: bytes, log: Sequence[Any]) -> bytes:
    """The seed in force after the turns of ``log``: the last ``reseed`` entry's, else ``seed``."""
    for entry in reversed(log):
        if isinstance(entry, dict) and "reseed" in entry:
            return bytes.fromhex(entry["reseed"])
    return seed


def verify_replay(save: Save) -> int:
    """Re-play a finished game from its revealed seed and published orders.

    Returns the number of turns re-played.  Raises UsageError if the game is not over and
    RejectedError if the seed does not match its commitment or the re-play ends elsewhere.
    """
    seed_hex, log = save.body["seed"], save.body["replay"]
    if seed_hex is None or log is None:
        raise UsageError(
            f"game {save.game_id} is not over: its seed is still secret, so it cannot be re-played yet",
            "run pbem verify after the game has ended (pbem status says when)",
        )
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != save.body["seed_commitment"]:
        raise RollbackError("the revealed seed does not match the commitment published at turn 1")
    game = get_game(save.game)
    pledges = {r.get("commitment") for r in save.body.get("reseeds", []) if isinstance(r, dict)}
    state = _replayed(None, game.setup, len(save.names), save.body["options"], Rng.for_turn(seed, 0, "setup"))
    now_seed, turns = seed, 0
    for entry in log:
        if isinstance(entry, dict) and "reseed" in entry:
            # A rollback: from here on chance comes from the fresh seed it committed to.
            try:
                now_seed = bytes.fromhex(entry["reseed"])
            except (TypeError, ValueError):
                raise FormatError(
                    f"the replay of game {save.game_id} holds a damaged rollback seed"
                ) from None
            if commitment(now_seed) not in pledges:
                raise RollbackError(
                    f"the seed revealed for the rollback to turn {entry.get('turn')} does not match any "
                    "commitment published in the save (reseeds)"
                )
            redraw = getattr(game, "redraw", None)
            if callable(redraw):
                state = _replayed(
                    entry, redraw, state, Rng.for_turn(now_seed, entry.get("turn", 0), "redraw")
                )
            continue
        orders = {int(seat): value for seat, value in entry["orders"].items()}
        state = _replayed(entry, game.resolve, state, orders, Rng.for_turn(now_seed, entry["turn"])).state
        turns += 1
    if _replayed(None, game.observe, state, None).public != save.body["public"]:
        raise RollbackError(
            "re-playing the published orders with the revealed seed does not reach the final position"
        )
    return turns


def _replayed(entry: Mapping[str, Any] | None, step: Callable[..., T], *args: Any) -> T:
    """Run one step of a re-play (the game's own code on data read from a save).

    The published orders were accepted once, so a game that cannot take them again means
    the save's replay log is not what the engine wrote.  Raises RollbackError naming the
    turn instead of letting the game's exception through.
    """
    try:
        return step(*args)
    except PbemError:
        raise
    except Exception as exc:  # the game's code on data it never validated: any error is a refusal
        where = "setting up the game" if entry is None else f"re-playing turn {entry.get('turn')}"
        raise RollbackError(
            f"{where}: the game refused the published data ({type(exc).__name__}: {shorten(str(exc))})",
            "the save's replay log is not what the engine wrote: do not trust this game's result",
        ) from None
