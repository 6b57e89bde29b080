"""Fixed-seed Symbiote games give exactly the games they gave before the engine was sped up.

Each case plays whole games with the benchmark's loop (observe the acting seat, the bot writes
lines, validate, resolve) and hashes, step by step, the canonical JSON of every state, every
view of every seat and of the public, every order list and validated order, every event, the
blank form and the civil-disorder orders, and what validate says about damaged copies of the
bot's file (its result or every error message).  The expected digests were computed from the
code before any speed work: a digest that moves means a rule, a bot's choice, a view, a form
or an error message changed, which speed work must never do.
The game digests moved once, on purpose, when counts got their singular ("draw pile: 1 card",
not "1 cards"): the streams hashed before and after differed in that text alone.

The reports (Symbiote's part: ``describe``) have their own digest, over fewer games.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from pbem.canonical import dumps
from pbem.game import OrderErrors, OrderLine
from pbem.rng import Rng
from pbem_games.symbiote import GAME

DEFAULTS: dict[str, Any] = {}
VARIANTS: dict[str, Any] = {"open-research": True, "all-night-lab": True, "last-taken-card": "discard"}
OTHERS: dict[str, Any] = {
    "tens-always-move": False,
    "parasite-discards-stop": True,
    "dealer": "last-seat",
}


def _damaged(texts: list[str], rng: Rng) -> list[list[str]]:
    """A few broken copies of a bot's order file: a line dropped, a card misspelt or swapped,
    junk added, the lines reversed, a line doubled."""
    out: list[list[str]] = []
    if texts:
        k = rng.randbelow(len(texts))
        out.append(texts[:k] + texts[k + 1 :])
        out.append([*texts, texts[k]])
        out.append(list(reversed(texts)))
        line = texts[k]
        out.append([*texts[:k], line.replace("H", "X").replace("S", "H"), *texts[k + 1 :]])
        out.append([*texts[:k], line[:-1] + "Q", *texts[k + 1 :]])
    out.append([*texts, "discrad 7H", "pair 3H 7H", "royal JS QS KS", "take 2C", "draw now"])
    out.append(["discard AS", "discard 10D"])
    return out


def _answer(view: Any, texts: list[str]) -> Any:
    """validate's result for ``texts``, or every error it raised, as JSON."""
    try:
        return GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(texts, start=1)])
    except OrderErrors as exc:
        return [[e.kind, e.line.number if e.line else None, e.message, e.suggestion] for e in exc.errors]


def _play(digest: Any, seed: int, players: int, bots: tuple[str, ...], options: dict[str, Any]) -> None:
    """Play one game, feeding every fact of every step into ``digest``."""
    state = GAME.setup(players, options, Rng(b"same-setup/%d" % seed))
    digest.update(dumps(state))
    step = 0
    while state["phase"] != "over":
        for seat in (None, *range(players)):
            view = GAME.observe(state, seat)
            digest.update(dumps([seat, view.public, view.private, GAME.order_form(view)]))
            digest.update(dumps(GAME.default_orders(view)))
        seat = GAME.to_act(state)[0]
        view = GAME.observe(state, seat)
        texts = GAME.bots[bots[seat % len(bots)]](GAME, view, Rng(b"same-bot/%d/%d" % (seed, step)))
        for broken in _damaged(texts, Rng(b"same-damage/%d/%d" % (seed, step))):
            digest.update(dumps([broken, _answer(view, broken)]))
        orders = GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(texts, start=1)])
        digest.update(dumps([texts, orders, GAME.mid_turn(view)]))
        result = GAME.resolve(state, {seat: orders}, Rng(b"same-turn/%d/%d" % (seed, step)))
        state = result.state
        digest.update(dumps([[e.text, None if e.to is None else list(e.to)] for e in result.events]))
        digest.update(dumps(state))
        step += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    digest.update(dumps([list(outcome.winners), list(outcome.scores or ()), outcome.summary]))


CASES = {
    "3 random defaults": (3, ("random",), DEFAULTS),
    "4 random defaults": (4, ("random",), DEFAULTS),
    "3 greedy defaults": (3, ("greedy",), DEFAULTS),
    "4 greedy defaults": (4, ("greedy",), DEFAULTS),
    "4 mixed defaults": (4, ("greedy", "random"), DEFAULTS),
    "3 random variants": (3, ("random",), VARIANTS),
    "4 random variants": (4, ("random",), VARIANTS),
    "4 greedy variants": (4, ("greedy",), VARIANTS),
    "3 mixed others": (3, ("random", "greedy"), OTHERS),
    "4 random others": (4, ("random",), OTHERS),
    "4 greedy others": (4, ("greedy",), OTHERS),
}

EXPECTED = {
    "3 random defaults": "203f082b6550af0b4d994269bdefea9e1c9d4fffeed644676bbf0632609cb258",
    "4 random defaults": "3f0856d832ed8e35e78ad9364f77aaec99b3fc1c1b37a0a9c6d2758512160945",
    "3 greedy defaults": "1ad9d8c500a4f1f63d8e091e69f13804730211a0c18e45f6ce4e50dfdc8b74d7",
    "4 greedy defaults": "ff83e1d9ecb9d1f38089add9d63356121f35a17b6cb127a5ff146119d4daf473",
    "4 mixed defaults": "17a50dbc05458277734243415ae6da44885833ec003dd2d4e6404dcaa7c9ba46",
    "3 random variants": "6980a77c0aaeee30e604ddb72702328c1ede6bf597a151ca136ff10f0a63f193",
    "4 random variants": "1835e65c85e1e17a86ffd486d8bc0597091625c1e32f8910570c3979b28b9454",
    "4 greedy variants": "0cb11f6128bd31e0e38b14f1737f403c1a281e5d88a84cd730483c4a20497427",
    "3 mixed others": "4ba3e3dfa0f4d7ce6fb9dc3de5d9b389c43d8d54d3fd75f1aa258b2c987aa8f2",
    "4 random others": "1639745e63cdd99a6dd0408960509b15e636468ebdbdfd5c582f16991c8e4121",
    "4 greedy others": "ce7394447e916d0243801caab709ccd86f0253d8c276cbfc37304a2f07c9c603",
}

GAMES = 3


@pytest.mark.parametrize("case", sorted(CASES))
def test_fixed_seed_games_are_byte_identical(case: str) -> None:
    players, bots, options = CASES[case]
    digest = hashlib.sha256()
    for seed in range(GAMES):
        _play(digest, seed, players, bots, options)
    assert digest.hexdigest() == EXPECTED[case]


def _reports(digest: Any, seed: int, players: int, options: dict[str, Any]) -> int:
    """Play one random-bot game, feeding every report text of every step into ``digest``."""
    state = GAME.setup(players, options, Rng(b"same-report-setup/%d" % seed))
    steps = 0
    while True:
        for seat in (None, *range(players)):
            view = GAME.observe(state, seat)
            public, private = GAME.describe(view)
            assert GAME.describe_private(view) == private
            digest.update(dumps([seat, public, private]))
        if state["phase"] == "over":
            return steps
        seat = GAME.to_act(state)[0]
        view = GAME.observe(state, seat)
        texts = GAME.bots["random"](GAME, view, Rng(b"same-report-bot/%d/%d" % (seed, steps)))
        orders = GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(texts, start=1)])
        state = GAME.resolve(state, {seat: orders}, Rng(b"same-report-turn/%d/%d" % (seed, steps))).state
        steps += 1


REPORT_CASES = {
    "3 defaults": (3, DEFAULTS),
    "4 defaults": (4, DEFAULTS),
    "4 variants": (4, VARIANTS),
    "3 others": (3, OTHERS),
}

REPORT_EXPECTED = {
    "3 defaults": "2ed6730656164b775af2839316ffca14e60b337c764e4b90fe87a868adbf67cd",
    "4 defaults": "4e1efcf989cbcf70f4186b92609affa68d0b546a39529366afa9b63dfbf6dcc0",
    "4 variants": "405aecdc857c81a773b9cf3b21535fb72d66f3772fc36980b77f98c5b2932f43",
    "3 others": "b769f61ae03f45ef4ac2e9d4866f26608bce3ceba2aeb4a7e94fcd1f9fb9e776",
}


@pytest.mark.parametrize("case", sorted(REPORT_CASES))
def test_fixed_seed_reports_are_byte_identical(case: str) -> None:
    players, options = REPORT_CASES[case]
    digest = hashlib.sha256()
    for seed in range(2):
        _reports(digest, seed, players, options)
    assert digest.hexdigest() == REPORT_EXPECTED[case]
