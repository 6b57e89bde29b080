"""The views of a turn's reports observed at once (issue 13, seventh session): Symbiote's
``observe_all`` gives exactly the views ``observe`` gives one by one, sharing the public
part, and the engine's reports take it (the same bytes: the report digests of
tests/symbiote/test_same_games.py)."""

from __future__ import annotations

import os
from datetime import UTC
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.game import ObservedOnce, bot_orders
from pbem.registry import get_game
from pbem.rng import Rng

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "25"))


def _states(seed: int, players: int, steps: int, options: dict[str, Any]) -> list[Any]:
    game = get_game("symbiote")
    defaults = {v.name: v.default for v in game.info.variants}
    state = game.setup(players, {**defaults, **options}, Rng(f"views{seed}".encode()))
    rng = Rng(f"views-play{seed}".encode())
    out = [state]
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        orders = bot_orders(game, state, "random", lambda seat: rng)
        state = game.resolve(state, orders, rng).state
        out.append(state)
    return out


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 4),
    steps=st.integers(0, 80),
    open_research=st.booleans(),
)
def test_the_views_at_once_are_the_views_one_by_one(
    seed: int, players: int, steps: int, open_research: bool
) -> None:
    game = get_game("symbiote")
    observe_all: ObservedOnce = game  # type: ignore[assignment]
    for state in _states(seed, players, steps, {"open-research": open_research})[-3:]:
        seats = [*range(players), None]
        together = observe_all.observe_all(state, seats)
        assert together == [game.observe(state, seat) for seat in seats]
        assert all(view.public is together[-1].public for view in together)


def test_the_engine_observes_a_turns_views_at_once(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Publishing a turn asks the game for all its views in one call (no observe per view)."""
    from pbem.engine import GameFolder
    from pbem.keys import Identity

    moderator = Identity.generate("moderator")
    seats = [Identity.generate(n) for n in ("alice", "bob", "carol")]
    game = get_game("symbiote")
    calls: list[list[Any]] = []
    every = game.observe_all  # type: ignore[attr-defined]

    def counted(state: Any, asked: list[Any]) -> Any:
        calls.append(list(asked))
        return every(state, asked)

    monkeypatch.setattr(type(game), "observe_all", staticmethod(counted))
    from datetime import datetime

    folder = GameFolder.create(
        tmp_path / "g", "symbiote", moderator, [s.public() for s in seats], {},
        now=datetime(2026, 1, 1, tzinfo=UTC), home=tmp_path / "home", entropy=lambda n: b"\x01" * n,
    )  # fmt: skip
    assert calls == [[0, 1, 2, None]]
    assert sorted(p.name for p in folder.reports_dir(1).iterdir()) == [
        "alice.txt",
        "bob.txt",
        "carol.txt",
        "public.txt",
    ]


def test_a_private_text_is_kept_only_by_plain_values() -> None:
    """Symbiote's private texts are kept by seat, hand, drawn card and sets: lists of plain
    strings only (a set given as a tuple, a card of a str subclass, or a number is no key,
    and its text is rendered the plain way)."""
    from pbem.game import View
    from pbem_games.symbiote import report

    class Card(str):
        pass

    def key(private: dict[str, Any]) -> Any:
        return report._private_key(View("symbiote", 1, {}, private))

    plain = {"hand": ["AH", "3D"], "drawn": "3D", "sets": [["4D", "6C"]]}
    assert key(plain) == (1, ("AH", "3D"), "3D", (("4D", "6C"),))
    for odd in (
        dict(plain, sets=[("4D", "6C")]),
        dict(plain, sets=[["4D", Card("6C")]]),
        dict(plain, hand=["AH", 3]),
        dict(plain, drawn=Card("3D")),
        dict(plain, sets=("4D",)),
    ):
        assert key(odd) is None, odd
    view = View("symbiote", 1, {}, dict(plain, sets=[("4D", "6C")]))
    assert report.describe_private(view) == report._render_private(view)
