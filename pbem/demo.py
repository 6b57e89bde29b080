"""``pbem demo``: bots play a whole game through the real pipeline.

Real keys, reports decrypted by each bot with its own key, order files written, signed,
sealed and submitted as files, turns advanced by the moderator, every file left in a real
folder to look at afterwards.  The demo seed fixes the game's secret seed and the bots'
choices, so the same command plays the same game.  Keys differ (they are really random), and
so does the game id, which is derived from the moderator's new key: two demos with the same
seed are two games, and a player's pinned moderator key for one never refuses the other.

A demo that fails (bad arguments found late, a crash, Ctrl-C) leaves nothing behind in
``--out``: what it made there is removed.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.engine import GameFolder
from pbem.errors import UsageError
from pbem.game import Outcome
from pbem.inputs import shorten
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.registry import get_game
from pbem.reports import name_seats, parse_report
from pbem.rng import Rng, seeded_entropy
from pbem.wording import counted, outcome_line

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan")


@dataclass(frozen=True)
class DemoResult:
    """How the demo ended and where its files are."""

    folder: Path
    turns: int
    outcome: Outcome
    seconds: float
    summary: str


def _entropy(seed: int) -> Callable[[int], bytes]:
    """A deterministic os.urandom stand-in: the same seed plays the same game."""
    return seeded_entropy(f"pbem-demo/{seed}")


def demo_game_id(moderator: Identity, seed: int) -> str:
    """The demo's game id: bound to this run's moderator key, so no two demos share one."""
    digest = hashlib.sha256(b"pbem-demo-id/v1\0" + moderator.public().verify_key + str(seed).encode())
    return digest.hexdigest()[:16].upper()


PROGRESS_EVERY = 1.0
"""Seconds between two progress lines of a long demo."""


def run_demo(
    game_name: str,
    players: int | None,
    seed: int,
    out: Path,
    bots: Sequence[str],
    options: dict[str, Any],
    progress: Callable[[str], None] = lambda _: None,
    max_turns: int = 10_000,
    timer: Callable[[], float] = time.perf_counter,
) -> DemoResult:
    """Play one game with bots in ``out`` (which must be empty or absent), saying every
    :data:`PROGRESS_EVERY` seconds (by ``timer``) which turn it is at.

    Raises UsageError for a bad player count, an unknown bot, or a non-empty ``out``; on any
    failure, removes what it made in ``out``.
    """
    try:
        existed = out.exists()
        busy = existed and (not out.is_dir() or any(out.iterdir()))
    except OSError as exc:  # a name too long, a folder that cannot be listed ...
        raise UsageError(
            f"cannot use the folder {shorten(str(out), 200)}: {exc.strerror or exc}",
            "choose another --out folder",
        ) from None
    if busy:
        raise UsageError(
            f"{out} is not empty" if out.is_dir() else f"{out} is not a folder",
            "choose a new folder for the demo; pbem never overwrites a game",
        )
    try:
        return _play(game_name, players, seed, out, bots, options, progress, max_turns, timer)
    except BaseException:
        if existed:
            for child in list(out.iterdir()):
                if child.is_dir() and not child.is_symlink():
                    shutil.rmtree(child, ignore_errors=True)
                else:
                    child.unlink(missing_ok=True)
        else:
            shutil.rmtree(out, ignore_errors=True)
        raise


def _play(
    game_name: str,
    players: int | None,
    seed: int,
    out: Path,
    bots: Sequence[str],
    options: dict[str, Any],
    progress: Callable[[str], None],
    max_turns: int,
    timer: Callable[[], float],
) -> DemoResult:
    """The demo itself (see :func:`run_demo`)."""
    start = timer()
    game = get_game(game_name)
    count = players or game.info.max_players
    if not game.info.min_players <= count <= game.info.max_players:
        raise UsageError(
            f"{game.info.title} takes {game.info.min_players} to {game.info.max_players} players"
        )
    for bot in bots:
        if bot not in game.bots:
            raise UsageError(f"{game_name} has no bot {bot!r}; bots: {', '.join(game.bots)}")
    keys = out / "keys"
    try:
        keys.mkdir(parents=True)
    except OSError as exc:  # a file in the way, no permission, /proc ...
        raise UsageError(
            f"cannot make the folder {shorten(str(out), 200)}: {exc.strerror}", "choose another --out folder"
        ) from None
    moderator = Identity.generate("moderator")
    moderator.save(keys / "moderator.key")
    seats = [Identity.generate(NAMES[i] if i < len(NAMES) else f"player{i + 1}") for i in range(count)]
    for identity in seats:
        identity.save(keys / f"{identity.name}.key")
        (keys / f"{identity.name}.pub").write_text(identity.public().to_text(), encoding="utf-8")
    clock = datetime(2026, 1, 1, tzinfo=UTC)
    folder = GameFolder.create(
        out / "game",
        game_name,
        moderator,
        [s.public() for s in seats],
        options,
        now=clock,
        entropy=_entropy(seed),
        home=out / ".moderator",
        game_id=demo_game_id(moderator, seed),
    )
    bot_of = {i: bots[i % len(bots)] for i in range(count)}
    progress(f"{game.info.title}: {', '.join(f'{s.name} ({bot_of[i]})' for i, s in enumerate(seats))}")
    turns = 0
    said = timer()
    while True:
        save = folder.read()
        if save.body["outcome"] is not None or turns >= max_turns:
            break
        if timer() - said >= PROGRESS_EVERY:
            said = timer()
            progress(f"  turn {save.turn} ({turns} resolved, {said - start:.0f} s)")
        for seat in save.awaiting:
            identity = seats[seat]
            path = folder.reports_dir(save.turn) / f"{identity.name}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), identity, moderator.public())
            rng = Rng(f"pbem-demo-bot/{seed}/{save.turn}/{seat}".encode())
            lines = bot_orders(report, bot_of[seat], rng)
            block = seal(sign(identity, form_header(report), lines), [report.moderator])
            order_path = out / "mail" / f"turn-{save.turn:04d}" / f"{identity.name}.txt"
            order_path.parent.mkdir(parents=True, exist_ok=True)
            order_path.write_text(block, encoding="utf-8")
            folder.submit(block, moderator, source=str(order_path), now=clock)
        clock += timedelta(hours=1)
        folder.advance(moderator, now=clock)
        turns += 1
    final = folder.read()
    outcome_json = final.body["outcome"]
    if outcome_json is None:
        raise UsageError(f"the demo game did not end within {max_turns} turns")
    outcome = Outcome(tuple(outcome_json["winners"]), outcome_json["scores"], outcome_json["summary"])
    names = final.names
    result = outcome_line(name_seats(outcome.summary, names), [names[w] for w in outcome.winners])
    seconds = timer() - start
    summary = "\n".join(
        [
            f"{game.info.title} over after {counted(turns, 'turn')}: {result}",
            f"  game folder: {out / 'game'} (save.json, history/, orders/, reports/)",
            f"  final reports: {folder.reports_dir(final.turn)}",
            f"  keys: {keys}   signed order files: {out / 'mail'}",
            f"  read a report: pbem read {folder.reports_dir(final.turn) / (names[0] + '.txt')} "
            f"--key {keys / (names[0] + '.key')}",
            f"  check the game: pbem verify {out / 'game'}   ({seconds:.1f} s)",
        ]
    )
    return DemoResult(out / "game", turns, outcome, seconds, summary)
