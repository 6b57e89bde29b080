"""A turn's reports rendered once for what every reader shares (issue 13) are the very bytes
each report gets when rendered on its own: the public text, the public events and the public
view's JSON are shared, nothing else changes."""

from __future__ import annotations

import base64
import hashlib
import os
import textwrap
import unicodedata
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import reports as reports_module
from pbem.game import Event, OrderLine, View
from pbem.keys import Identity
from pbem.orders import AGE_BEGIN, AGE_END
from pbem.registry import game_names, get_game
from pbem.reports import (
    ReportContext,
    _normal_line,
    _signed_data,
    prose_digest,
    render_report,
    render_reports,
)
from pbem.rng import Rng
from pbem.wording import WIDTH, wrap_line, wrap_lines

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))
NAMES = tuple(f"player{chr(97 + i)}" for i in range(26))


def _fake_encrypt(plain: bytes, recipients: Sequence[Any], pad_to: int = 0) -> str:
    """Deterministic stand-in for age, so two renderings can be compared byte for byte."""
    raw = base64.b64encode(hashlib.sha512(plain + str(pad_to).encode()).digest()).decode()
    return "-----BEGIN AGE ENCRYPTED FILE-----\n" + raw + "\n-----END AGE ENCRYPTED FILE-----\n"


@pytest.fixture(scope="module")
def moderator() -> Identity:
    return Identity.generate("moderator")


def _positions(name: str, steps: int) -> list[tuple[Any, list[Event], int]]:
    """(state, last events, players) of a bot game's first ``steps`` positions."""
    game = get_game(name)
    players = game.info.max_players
    state = game.setup(players, {v.name: v.default for v in game.info.variants}, Rng(b"reports-once"))
    rng = Rng(b"reports-once-play")
    events: list[Event] = []
    out = [(state, events, players)]
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        orders = {}
        for seat in game.to_act(state):
            view = game.observe(state, seat)
            texts = game.bots["greedy"](game, view, rng)
            lines = [OrderLine(i, t.split("#")[0].strip()) for i, t in enumerate(texts, 1)]
            orders[seat] = game.validate(view, [line for line in lines if line.text])
        result = game.resolve(state, orders, rng)
        state, events = result.state, list(result.events)
        out.append((state, events, players))
    return out


@pytest.mark.parametrize("name", game_names())
def test_a_turn_rendered_at_once_is_each_report_rendered_alone(
    name: str, moderator: Identity, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _fake_encrypt)
    game = get_game(name)
    cards = [Identity.generate(n).public() for n in NAMES[:2]]
    compared = 0
    for turn, (state, events, players) in enumerate(_positions(name, 12), 1):
        names = NAMES[:players]
        outcome = game.outcome(state)
        ctx = ReportContext(
            game_id="0123456789ABCDEF",
            turn=turn,
            revision=turn,
            names=names,
            awaiting=tuple(names[s] for s in game.to_act(state)),
            moderator=moderator.public(),
            seed_commitment="c" * 64,
            seed="s" * 64 if outcome else None,
            outcome=None if outcome is None else outcome.summary,
            seq={names[0]: turn},
        )
        views = [game.observe(state, s) for s in range(players)] + [game.observe(state, None)]
        recipients = [cards[s % 2] for s in range(players)] + [None]
        alone = [
            render_report(game, v, events, ctx, moderator, r) for v, r in zip(views, recipients, strict=True)
        ]
        assert render_reports(game, views, events, ctx, moderator, recipients) == alone
        compared += len(alone)
    assert compared >= 10


class _Counting:
    """A game wrapper that counts describe calls, with or without the describe_private hook."""

    def __init__(self, game: Any, hook: bool) -> None:
        self.game, self.calls = game, {"describe": 0, "private": 0}
        if hook:
            self.describe_private = self._private

    def __getattr__(self, name: str) -> Any:
        if name == "describe_private":  # only when set in __init__ (hook=True)
            raise AttributeError(name)
        return getattr(self.game, name)

    def describe(self, view: View) -> tuple[str, str]:
        self.calls["describe"] += 1
        result: tuple[str, str] = self.game.describe(view)
        return result

    def _private(self, view: View) -> str:
        self.calls["private"] += 1
        text: str = self.game.describe_private(view)
        return text


def _symbiote_turn(moderator: Identity) -> tuple[Any, list[View], ReportContext, list[Any]]:
    game = get_game("symbiote")
    state, _events, players = _positions("symbiote", 3)[-1]
    views = [game.observe(state, s) for s in range(players)] + [game.observe(state, None)]
    ctx = ReportContext(
        "0123456789ABCDEF", 3, 3, NAMES[:players], (), moderator.public(), "c" * 64, None, None, {}
    )
    return game, views, ctx, [moderator.public()] * players + [None]


def test_the_public_text_is_described_once_a_turn(moderator: Identity, monkeypatch) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _fake_encrypt)
    game, views, ctx, recipients = _symbiote_turn(moderator)
    hooked, plain = _Counting(game, hook=True), _Counting(game, hook=False)
    first = render_reports(hooked, views, [], ctx, moderator, recipients)
    second = render_reports(plain, views, [], ctx, moderator, recipients)
    assert first == second
    assert hooked.calls == {"describe": 1, "private": len(views) - 1}
    assert plain.calls == {"describe": len(views), "private": 0}


def test_a_view_whose_public_part_differs_is_described_in_full(moderator: Identity, monkeypatch) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _fake_encrypt)
    game, views, ctx, recipients = _symbiote_turn(moderator)
    odd = View(views[0].game, 0, dict(views[0].public, deck=99), views[0].private)
    views = [odd, *views[1:]]
    hooked = _Counting(game, hook=True)
    texts = render_reports(hooked, views, [], ctx, moderator, recipients)
    assert hooked.calls == {"describe": 2, "private": len(views) - 2}
    assert "Draw pile: 99 cards" in texts[0] and "Draw pile: 99 cards" not in texts[1]
    assert texts[0] == render_report(game, odd, [], ctx, moderator, recipients[0])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(rest=st.dictionaries(st.text(max_size=6), json_values, max_size=5), public=json_values)
def test_the_public_json_put_in_is_the_canonical_json_of_the_whole(rest: dict[str, Any], public: Any) -> None:
    data = dict(rest, public=public)
    assert _signed_data(data, canonical.dumps(public)) == canonical.dumps(data)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40) | st.text(max_size=40))
def test_a_line_is_normalised_as_before(line: str) -> None:
    assert _normal_line(line) == unicodedata.normalize("NFC", line.replace("\u00a0", " ").strip())


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.text(alphabet=" -#*1.)abc\u00a0\u3000\t", max_size=3 * WIDTH), max_size=6))
def test_lines_are_folded_as_wrap_line_folds_each(lines: list[str]) -> None:
    assert wrap_lines(lines) == [part for line in lines for part in wrap_line(line)]
    assert wrap_lines(lines, 20) == [part for line in lines for part in wrap_line(line, 20)]


def test_a_line_that_fits_is_only_trimmed() -> None:
    line = "x" * WIDTH + "   "
    assert wrap_lines([line, "  a b  "]) == ["x" * WIDTH, "  a b"]
    assert wrap_lines(["word " * 30]) == textwrap.wrap("word " * 30, WIDTH, subsequent_indent="  ")


def _reference_digest(lines: list[str]) -> str:
    """The word signature's digest as written before issue 13 (every line normalised)."""
    kept, inside = [], False
    for raw in lines:
        line = unicodedata.normalize("NFC", raw.replace("\u00a0", " ").strip())
        if line == AGE_BEGIN:
            inside = True
        elif line == AGE_END:
            inside = False
        elif line and not inside:
            kept.append(line)
    start = next(
        (i for i, line in enumerate(kept) if line.startswith(("PBEM REPORT", "PBEM PUBLIC REPORT"))), 0
    )
    return hashlib.sha256(" ".join(" ".join(kept[start:]).split()).encode()).hexdigest()


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(
        st.text(max_size=30)
        | st.text(alphabet=" abc\t", max_size=30)
        | st.sampled_from([AGE_BEGIN, " " + AGE_END, "PBEM REPORT for x", "e\u0301 a\u00a0b"]),
        max_size=12,
    )
)
def test_the_word_digest_is_computed_as_before(lines: list[str]) -> None:
    assert prose_digest(lines) == _reference_digest(lines)
