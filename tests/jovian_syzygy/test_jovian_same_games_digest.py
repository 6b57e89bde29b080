"""Issue 13's speed work on Jovian Syzygy plays the very same games: fixed-seed games of the
random and greedy bots under several option sets give, state by state, the same canonical
JSON, the same bot order lines, the same validated orders, the same events and the same
reports as the code did before the speed work.  The digests were computed from the code as it
was before any change (commit a477da1); a digest that moves means a rule, a bot's choice, an
order's meaning or a report changed."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from pbem.game import OrderErrors, OrderLine
from pbem.registry import get_game
from pbem.rng import Rng

Case = tuple[str, int, dict[str, Any], str, str]

CASES: list[Case] = [
    ("random", 4, {}, "r4", "4213f9c29d8cf793"),
    ("greedy", 4, {}, "g4", "e93d170b4791b7fa"),
    ("random", 2, {"corners": "dealt"}, "r2d", "a7faa54f35c05844"),
    ("greedy", 3, {"corners": "dealt"}, "g3d", "ca6f39a584231137"),
    ("random", 3, {"turns": "sequential"}, "r3s", "cc4842164ff2ac29"),
    ("greedy", 4, {"turns": "sequential"}, "g4s", "60bf7361640821cc"),
    ("greedy", 2, {"corners": "dealt", "turns": "sequential"}, "g2ds", "0cfa87dbe85acdad"),
    ("random", 4, {"ride": "push", "max-extra-moves": 1, "max-rounds": 30}, "r4p", "53e895d2b81ab6ef"),
    ("greedy", 4, {"ride": "push", "setup-check": "slide", "at-cap": "highest"}, "g4p", "0fbc3c3f83dfa774"),
    ("greedy", 1, {"solo": "scored", "max-rounds": 40}, "g1", "7bc90160f1a1e116"),
    ("random", 1, {"solo": "timed"}, "r1", "94518f053e57ecfe"),
    ("random", 4, {"corners": "dealt"}, "r4c", "99aecee397ecb380"),
]
"""(bot kind, players, options over the defaults, seed, digest of the whole game)."""


def _canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def play_digest(kind: str, players: int, options: dict[str, Any], seed: str, reports: bool = True) -> str:
    """Play one game with ``kind`` bots, each step observe, bot, validate, resolve, and return a
    digest of every state, the bots' lines, the validated orders, the events, the outcome and
    (``reports``) every seat's report text."""
    game = get_game("jovian-syzygy")
    opts = {v.name: v.default for v in game.info.variants}
    opts.update(options)
    digest = hashlib.sha256()
    state = game.setup(players, opts, Rng(f"s-{seed}".encode()))
    rng = Rng(f"g-{seed}".encode())
    bot = game.bots[kind]
    steps = 0
    while True:
        digest.update(b"S" + _canon(state))
        outcome = game.outcome(state)
        if outcome is not None:
            digest.update(b"O" + _canon([outcome.winners, outcome.scores, outcome.summary]))
            break
        orders = {}
        for seat in game.to_act(state):
            view = game.observe(state, seat)
            digest.update(b"V" + _canon([view.seat, view.public, view.private]))
            if reports:
                digest.update(b"R" + "\x00".join(game.describe(view)).encode())
            texts = bot(game, view, rng)
            digest.update(b"B" + _canon(texts))
            lines = [OrderLine(i, t.split("#")[0].strip()) for i, t in enumerate(texts, 1)]
            orders[seat] = game.validate(view, [line for line in lines if line.text])
            digest.update(b"A" + _canon(orders[seat]))
        resolution = game.resolve(state, orders, rng)
        digest.update(b"E" + _canon([e.text for e in resolution.events]))
        state = resolution.state
        steps += 1
        assert steps < 1000
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("case", CASES, ids=[c[3] for c in CASES])
def test_a_fixed_seed_game_is_played_exactly_as_before(case: Case) -> None:
    kind, players, options, seed, expected = case
    # Reports only for the short greedy games: rendering is slower than playing.
    assert play_digest(kind, players, options, seed, reports=kind == "greedy") == expected


PLANS = [
    ["pass"],
    ["move D-3"],
    ["move D-3 D-4", "spend 1"],
    ["board io"],
    ["board ganymede", "if wasted: stop"],
    ["leave to C-5"],
    ["leave europa to B-2"],
    ["ride"],
    ["storm", "move NE"],
    ["storm", "storm"],
    ["move SE", "if wasted: try D-5, board callisto"],
    ["move D-1 D-2 D-3 D-4", "spend 2"],
    ["if wasted: try d 6", "move d6", "if storm: stop"],
    ["spend 99999999", "move x-9"],
    ["corner NE"],
    ["mvoe D-3", "board jupiter", "move D"],
    ["move c-1 b-1 a-1", "board io", "ride"],
]
"""Order files, good and bad, written against every position of a game."""


def plans_digest(seed: str, kind: str = "random") -> str:
    """A digest of what the validator makes of every one of :data:`PLANS` for every seat at
    every step of a fixed-seed game: the orders, or each error's kind, line, text and hint."""
    game = get_game("jovian-syzygy")
    opts = {v.name: v.default for v in game.info.variants}
    digest = hashlib.sha256()
    state = game.setup(4, opts, Rng(f"s-{seed}".encode()))
    rng = Rng(f"g-{seed}".encode())
    for _step in range(40):
        if game.outcome(state) is not None:
            break
        orders = {}
        for seat in range(4):
            view = game.observe(state, seat)
            for plan in PLANS:
                try:
                    digest.update(
                        b"A" + _canon(game.validate(view, [OrderLine(i, t) for i, t in enumerate(plan, 1)]))
                    )
                except OrderErrors as errors:
                    for e in errors.errors:
                        line = e.line.number if e.line is not None else None
                        digest.update(b"X" + _canon([type(e).__name__, line, e.message, e.suggestion]))
            if seat in game.to_act(state):
                lines = [OrderLine(i, t) for i, t in enumerate(game.bots[kind](game, view, rng), 1)]
                orders[seat] = game.validate(view, lines)
        state = game.resolve(state, orders, rng).state
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("seed", "expected"), [("p1", "3cf3818d1a65ce31"), ("p2", "5985fd75ba1be720")])
def test_order_files_read_and_refused_as_before(seed: str, expected: str) -> None:
    assert plans_digest(seed) == expected
