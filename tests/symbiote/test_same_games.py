"""Fixed-seed Symbiote games give exactly the games they gave before the engine was sped up.

Each case plays whole games with the benchmark's loop (observe the acting seat, the bot writes
lines, validate, resolve) and hashes, step by step, the canonical JSON of every state, every
view of every seat and of the public, every order list and validated order, every event, the
blank form and the civil-disorder orders, and what validate says about damaged copies of the
bot's file (its result or every error message).  The expected digests were computed from the
code before any speed work: a digest that moves means a rule, a bot's choice, a view, a form
or an error message changed, which speed work must never do.

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
    "3 random defaults": "7a116d588c796eba742974eb8c9b147d00fc2b36afc99c814fb0eb11ad0de9de",
    "4 random defaults": "e2d1672d4f00075bdf74efa6d26e0c2e87433b4266acd58e5128a1a45634d449",
    "3 greedy defaults": "ee1831516760ac4831170d5cf2a3f26749d70a116470f8e080630a2bc2c39701",
    "4 greedy defaults": "75a6ee5c581ce5bf993a618d6f6153d13a2ffffb42ecad872181a9ad6d1f8955",
    "4 mixed defaults": "451323b5e88ebcd99c5286fa311a80a4ccd06696d5de9e416da120248d267005",
    "3 random variants": "f208498a3bb4d06529fe9f3419c142c2cc4c9fb3c14a0d989384d6695cbb764c",
    "4 random variants": "a07844a8d3e27c65b8e4a1523924ba84204acada6f98fb21d9a4e2712b9039e6",
    "4 greedy variants": "c5fead8a7a75a8feb2fa5a26b92287c4a9730f24bbecb07aece77c7b6a9d19bb",
    "3 mixed others": "8054a9bab3401d51e92592e15ec24a3c847291b4dd87a33b45e3487b4e298429",
    "4 random others": "e178ba623a0f43a74d5c2be67f7a554554f71607208f69933821498c7fd7c199",
    "4 greedy others": "7510492ded1494cc6cb07fae97dab6bb6e07d490ecd79aa17584c9252cec492a",
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
