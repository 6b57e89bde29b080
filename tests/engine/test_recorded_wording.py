"""What the rules record keeps its wording, so that games saved before still verify.

The texts of a game's events, its public position and its outcome are part of every signed
save; ``pbem verify`` and ``pbem archive`` re-play a finished game from its seed and compare
them with the saves.  A wording change there (this session's "1 points" -> "1 point" in
Symbiote's events, "player 1 and player 2 and player 4 won" -> "player 1, player 2 and
player 4 won" in Parasite's outcome) made every game saved before it fail both commands:
"re-playing the published orders ... does not reach the final position".  Those texts keep
their wording; reports, order forms and pbem's own messages read as English
(tests/engine/test_wording_counts.py).  Changing recorded wording needs a way for older saves
to re-play with their own wording first.

The digests below are of fixed-seed games of every shipped game (each step's public view,
every event's text and reader, the outcome), computed with the code before the wording work;
a digest that moves means a recorded text changed.  The bots play these games, so a bot
that plays differently moves its game's digests too: Parasite's were recomputed when its bots
learnt ``place ITEM`` (twelfth session), on rules code whose old digests still passed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from pbem import canonical
from pbem.game import Event, bot_orders
from pbem.registry import get_game
from pbem.rng import Rng
from pbem_games.symbiote import rules as symbiote_rules

CASES = {
    "symbiote": ("symbiote", 4, "random"),
    "symbiote-3": ("symbiote", 3, "greedy"),
    "jovian-syzygy": ("jovian-syzygy", 4, "random"),
    "jovian-syzygy-solo": ("jovian-syzygy", 1, "greedy"),
    "symbioz": ("symbioz", 4, "random"),
    "symbioz-2": ("symbioz", 2, "greedy"),
    "parasite": ("parasite", 5, "random"),
    "parasite-8": ("parasite", 8, "greedy"),
}

EXPECTED = {
    "symbiote": ["2edb49610efc75c524806c0e", "d529b01c31b2e46c823e3fe1", "94e86953234b3288e2de8734"],
    "symbiote-3": ["213739379f74cc6b7afa35b7", "a06ab196541516fe34eaa076", "34be4384a8ffefa79a239c84"],
    "jovian-syzygy": ["1b0d48aae7ba94875eaf29a7", "3a6523583d67081640e48b7c", "5f9d89edfd9346b4bcb51438"],
    "jovian-syzygy-solo": [
        "5200f4998b09a8a1e4dc96c2",
        "2994a4a944b6e2eb07c2da61",
        "ac12b8ffec041e911a8a891d",
    ],
    "symbioz": ["610f590a05d562cd94ef666c", "230d703bcb173c9fb9280234", "693219cc294d2b7c37455b59"],
    "symbioz-2": ["5e15b1b23200d8a22a783b6a", "ba06f805893807578390cd9e", "8c8081d4e9a8771d929f5efb"],
    "parasite": ["7ced2f8cddb2cf399e7b64f1", "50660d5e3e40ac29aca5d777", "a7bafcf4721da0e353f7a524"],
    "parasite-8": ["fbd9514931779ae73fc834aa", "6f8008b8e8ee61979aee2dfe", "45a804d2b4c5ce666a7f1aad"],
}


ADDED_SINCE = {"parasite": ("round-order", "dog-first-move", "hand-limit")}
"""Each game's options newer than the digests (a save from before holds none of them)."""


def _seat_rng(prefix: str) -> Callable[[int], Rng]:
    """Each seat's bot randomness at one step."""
    return lambda seat: Rng(f"{prefix}/{seat}".encode())


def recorded(case: str, seed: int) -> str:
    """A digest of what one fixed-seed game records: each public view, each event, the end."""
    name, players, bot = CASES[case]
    game = get_game(name)
    # Options added after these digests are not in the games saved before them, which keep
    # their old rule (Parasite's rules audit: games/parasite/rules.py LEGACY).
    options = {v.name: v.default for v in game.info.variants if v.name not in ADDED_SINCE.get(name, ())}
    if players == 1:
        options["solo"] = "timed"
    digest = hashlib.sha256()
    state = game.setup(players, options, Rng(f"recorded/{case}/{seed}".encode()))
    step = 0
    while game.outcome(state) is None and step < 2000:
        digest.update(canonical.dumps(game.observe(state, None).public))
        orders = bot_orders(game, state, bot, _seat_rng(f"recorded/{case}/{seed}/{step}"))
        result = game.resolve(state, orders, Rng(f"recorded-turn/{case}/{seed}/{step}".encode()))
        state = result.state
        digest.update(
            canonical.dumps([[e.text, None if e.to is None else list(e.to)] for e in result.events])
        )
        step += 1
    outcome = game.outcome(state)
    digest.update(
        canonical.dumps([game.observe(state, None).public, None if outcome is None else outcome.summary])
    )
    return digest.hexdigest()[:24]


@pytest.mark.parametrize("case", sorted(CASES))
def test_fixed_seed_games_record_the_same_texts(case: str) -> None:
    assert [recorded(case, seed) for seed in range(3)] == EXPECTED[case]


def test_symbiotes_recorded_scores_and_winners_keep_their_wording() -> None:
    """The texts the wording work changed, which no fixed-seed game above reaches."""
    game = get_game("symbiote")
    state = dict(game.setup(4, {v.name: v.default for v in game.info.variants}, Rng(b"wording")))
    state.update(sets=[[["3H", "7S"]], [], [], []], host=0, parasite=True)
    events: list[Event] = []
    symbiote_rules.finish(state, events)
    assert "player 1: 3H 7S: 1 points." in [e.text for e in events]
    state.update(sets=[[["3H", "7H"]], [["4H", "6H"]], [], [["2S", "8S"]]], host=2, parasite=False)
    events = []
    symbiote_rules.finish(state, events)
    assert events[-1].text == "Winners: player 1 and player 2 and player 4."


def test_parasites_recorded_outcome_keeps_its_wording() -> None:
    outcome = get_game("parasite").outcome({"over": True, "winners": [0, 1, 3], "why": "the helicopter left"})
    assert (
        outcome is not None
        and outcome.summary == "player 1 and player 2 and player 4 won (the helicopter left)."
    )
