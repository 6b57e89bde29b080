"""Property tests: whole random games keep every invariant, hide every secret, and end."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sym_helpers import all_cards, deck_of, lines

from pbem.canonical import dumps, loads
from pbem.game import View
from pbem.rng import Rng
from pbem_games.symbiote import GAME
from pbem_games.symbiote.cards import RANK, set_kind, set_value

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[CDHS](?![0-9A-Za-z])")
MAX_STEPS = 5000


def _cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def _may_see(state: dict[str, Any], seat: int | None) -> set[str]:
    """Every card ``seat`` may know of: the table, its own hand and sets, open sets."""
    seen = set(state["discard"]) | set(state["aside"])
    if seat is not None:
        seen |= set(state["hands"][seat])
        seen |= {c for s in state["sets"][seat] for c in s}
    if state["opt"]["open-research"] or state["phase"] == "over":
        seen |= {c for mine in state["sets"] for s in mine for c in s}
    return seen


def _check_view(state: dict[str, Any], seat: int | None, view: View, history: set[str]) -> None:
    text = json.dumps(view.public) + json.dumps(view.private)
    public, private = GAME.describe(view)
    text += public + private
    leaked = _cards_in(text) - _may_see(state, seat) - history
    assert not leaked, f"seat {seat} sees {leaked}"
    assert all(len(line) < 72 for line in (public + private).splitlines())


def _check_state(state: dict[str, Any], deck: Any) -> None:
    assert all_cards(state) == deck, "every card is in exactly one place"
    n = state["n"]
    assert 0 <= state["host"] < n and isinstance(state["parasite"], bool)
    assert 0 <= state["seat"] < n
    assert state["phase"] in ("act", "play", "over")
    assert all(RANK[c] == 10 for c in state["aside"])
    assert all(RANK[c] != 10 for c in state["discard"][1:]), "tens never land on the pile"
    for mine in state["sets"]:
        assert all(set_kind(s) is not None for s in mine)
    if state["phase"] == "play":
        assert state["drawn"] in state["hands"][state["seat"]]
    loads(dumps(state))


def play_checked(players: int, seed: int, bots: list[str], options: dict[str, Any]) -> dict[str, Any]:
    state = GAME.setup(players, options, Rng(b"prop-setup/%d" % seed))
    deck = deck_of(state)
    # Cards once public stay known (a taken discard): count them as seen by everyone.
    history: set[str] = set(state["discard"])
    steps = 0
    while GAME.outcome(state) is None:
        assert steps < MAX_STEPS
        _check_state(state, deck)
        (seat,) = GAME.to_act(state)
        history |= set(state["discard"]) | set(state["aside"])
        view = GAME.observe(state, seat)
        _check_view(state, seat, view, history)
        other = (seat + 1 + steps % (players - 1)) % players
        _check_view(state, other, GAME.observe(state, other), history)
        if steps % 7 == 0:
            GAME.validate(view, lines(*GAME.default_orders(view)))
        texts = GAME.bots[bots[seat]](GAME, view, Rng(b"prop-bot/%d/%d" % (seed, steps)))
        orders = GAME.validate(view, lines(*texts))
        before = json.dumps(state, sort_keys=True)
        result = GAME.resolve(state, {seat: orders}, Rng(b"prop-turn/%d/%d" % (seed, steps)))
        assert json.dumps(state, sort_keys=True) == before, "resolve must not change its input"
        for event in result.events:
            if event.to is None:
                assert (
                    not _cards_in(event.text) - _may_see(result.state, None) - history - set(state["discard"])
                ), event.text
        state = result.state
        steps += 1
    _check_state(state, deck)
    assert state["deck"] == []
    return state


def _recount(state: dict[str, Any]) -> list[int]:
    scores = []
    for seat, mine in enumerate(state["sets"]):
        bonus = (-1 if state["parasite"] else 1) * len(mine) if seat == state["host"] else 0
        scores.append(sum(set_value(s) for s in mine) + bonus)
    return scores


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([3, 4]),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
    double=st.booleans(),
    open_research=st.booleans(),
    tens=st.booleans(),
    stop=st.booleans(),
    last=st.sampled_from(["keep", "discard"]),
)
def test_random_games_keep_every_invariant(
    seed: int,
    players: int,
    bots: list[str],
    double: bool,
    open_research: bool,
    tens: bool,
    stop: bool,
    last: str,
) -> None:
    options = {
        "all-night-lab": double,
        "open-research": open_research,
        "tens-always-move": tens,
        "parasite-discards-stop": stop,
        "last-taken-card": last,
    }
    state = play_checked(players, seed, bots, options)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores is not None
    assert list(outcome.scores) == _recount(state)
    best = max(outcome.scores)
    assert outcome.winners and all(outcome.scores[w] == best for w in outcome.winners)
    if len(outcome.winners) > 1:
        assert state["host"] not in outcome.winners or state["parasite"]


def test_bot_games_use_every_kind_of_move() -> None:
    """The random bot takes, draws, waits, plays pairs and royals and throws tens."""
    seen: set[str] = set()
    for seed in range(30):
        state = GAME.setup(4, {}, Rng(b"kinds%d" % seed))
        steps = 0
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            view = GAME.observe(state, seat)
            texts = GAME.bots["random"](GAME, view, Rng(b"k%d/%d" % (seed, steps)))
            orders = GAME.validate(view, lines(*texts))
            seen.add(orders["action"] or "none")
            if orders["wait"]:
                seen.add("wait")
            seen.update("royal" if len(p) == 3 else "pair" for p in orders["plays"])
            if orders["discard"] and RANK[orders["discard"]] == 10:
                seen.add("ten")
            state = GAME.resolve(state, {seat: orders}, Rng(b"t%d/%d" % (seed, steps))).state
            steps += 1
    assert {"take", "draw", "wait", "none", "pair", "royal", "ten"} <= seen


def test_greedy_beats_random_more_often_than_not() -> None:
    wins = 0
    games = 40
    for seed in range(games):
        players = 3 + seed % 2
        bots = ["greedy"] + ["random"] * (players - 1)
        state = GAME.setup(players, {}, Rng(b"duel%d" % seed))
        steps = 0
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            view = GAME.observe(state, seat)
            texts = GAME.bots[bots[seat]](GAME, view, Rng(b"d%d/%d" % (seed, steps)))
            state = GAME.resolve(state, {seat: GAME.validate(view, lines(*texts))}, Rng(b"%d" % steps)).state
            steps += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins > games / 2, f"greedy won only {wins} of {games}"


@pytest.mark.slow
@pytest.mark.parametrize("double", [False, True])
def test_many_games_long_run(double: bool, request: pytest.FixtureRequest) -> None:
    """A long run (about a minute per deck): 1,000 games with every option mixed in.  It
    runs only when asked for, with ``pytest -m slow``, never in a plain ``pytest`` (CI)."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("long run: use pytest -m slow")
    for seed in range(1000):
        bots = [["random", "greedy"][(seed >> k) & 1] for k in range(4)]
        options = {
            "all-night-lab": double,
            "open-research": bool(seed & 16),
            "tens-always-move": bool(seed & 32),
            "parasite-discards-stop": bool(seed & 64),
            "last-taken-card": "discard" if seed & 128 else "keep",
        }
        state = play_checked(3 + seed % 2, seed, bots, options)
        outcome = GAME.outcome(state)
        assert outcome is not None and list(outcome.scores or ()) == _recount(state)


def test_thousands_of_games_conserve_the_deck_score_right_and_end() -> None:
    """2,000 whole games through observe -> bot -> validate -> resolve, every option and
    bot mix: the deck is conserved at every step, the marker and seat stay on the table,
    every game ends, and the scores equal a recount of the played sets.  (The heavier
    checks of every view and text run on fewer games above.)"""
    games = 2000
    for seed in range(games):
        players = 3 + seed % 2
        options = {
            "all-night-lab": seed % 17 == 0,
            "open-research": bool(seed & 4),
            "tens-always-move": not seed & 8,
            "parasite-discards-stop": bool(seed & 16),
            "last-taken-card": "discard" if seed & 32 else "keep",
        }
        bots = [["random", "greedy"][(seed >> k) & 1] for k in range(players)]
        state = GAME.setup(players, options, Rng(b"mass-setup/%d" % seed))
        deck = deck_of(state)
        size = sum(deck.values())
        steps = 0
        while GAME.outcome(state) is None:
            assert steps < MAX_STEPS, f"game {seed} did not end"
            (seat,) = GAME.to_act(state)
            view = GAME.observe(state, seat)
            texts = GAME.bots[bots[seat]](GAME, view, Rng(b"mass-bot/%d/%d" % (seed, steps)))
            state = GAME.resolve(
                state, {seat: GAME.validate(view, lines(*texts))}, Rng(b"mass-turn/%d/%d" % (seed, steps))
            ).state
            held = len(state["deck"]) + len(state["discard"]) + len(state["aside"])
            held += sum(map(len, state["hands"])) + sum(len(s) for mine in state["sets"] for s in mine)
            assert held == size, f"game {seed}, step {steps}: {held} cards instead of {size}"
            assert 0 <= state["host"] < players and 0 <= state["seat"] < players
            steps += 1
        assert all_cards(state) == deck
        outcome = GAME.outcome(state)
        assert outcome is not None and list(outcome.scores or ()) == _recount(state)
