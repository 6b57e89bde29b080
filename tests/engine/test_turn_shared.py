"""A turn's players' reports made from what they share (issue 13, pbem.reports._Turn): the
prose rendered once with marks for the name and the private block, the signed data's shared
members encoded once.  Each report must be byte for byte what the plain way
(:func:`pbem.reports.render_report`, one report alone) writes, and anything the marks cannot
stand for must go the plain way."""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import reports as reports_module
from pbem.game import Event, OrderLine
from pbem.keys import Identity
from pbem.registry import game_names, get_game
from pbem.reports import ReportContext, _Turn, render_report, render_reports
from pbem.rng import Rng

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "40"))
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"


def _armour(plain: bytes, recipients: Sequence[Any], pad_to: int = 0) -> str:
    """A deterministic stand-in for age with its armour: 64-column base64 lines."""
    raw = base64.b64encode(hashlib.sha512(plain + str(pad_to).encode()).digest() * 3).decode()
    lines = [raw[i : i + 64] for i in range(0, len(raw), 64)]
    return "\n".join([AGE_BEGIN, *lines, AGE_END]) + "\n"


def _wide_armour(plain: bytes, recipients: Sequence[Any], pad_to: int = 0) -> str:
    """Armour with a line wider than the reports' 70 columns (folding would change it)."""
    raw = base64.b64encode(hashlib.sha512(plain).digest()).decode()
    return f"{AGE_BEGIN}\n{raw}\n{AGE_END}\n"


@pytest.fixture(scope="module")
def moderator() -> Identity:
    return Identity.generate("moderator")


class _Calls:
    """Counts the plain-way reports :func:`render_reports` falls back to."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.plain_players = 0
        real = reports_module._assemble

        def counted(game: Any, view: Any, *args: Any, **kwargs: Any) -> str:
            if view.seat is not None:
                self.plain_players += 1
            return real(game, view, *args, **kwargs)

        monkeypatch.setattr(reports_module, "_assemble", counted)


def _turns(name: str, steps: int) -> list[tuple[Any, list[Event], int]]:
    game = get_game(name)
    players = game.info.max_players
    state = game.setup(players, {v.name: v.default for v in game.info.variants}, Rng(b"turn-shared"))
    rng = Rng(b"turn-shared-play")
    events: list[Event] = []
    out = [(state, events, players)]
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        orders = {}
        for seat in game.to_act(state):
            view = game.observe(state, seat)
            lines = [
                OrderLine(i, t.split("#")[0].strip())
                for i, t in enumerate(game.bots["greedy"](game, view, rng), 1)
            ]
            orders[seat] = game.validate(view, [line for line in lines if line.text])
        result = game.resolve(state, orders, rng)
        state, events = result.state, list(result.events)
        out.append((state, events, players))
    return out


def _context(game: Any, state: Any, turn: int, names: Sequence[str], moderator: Identity) -> ReportContext:
    outcome = game.outcome(state)
    return ReportContext(
        game_id="0123456789ABCDEF",
        turn=turn,
        revision=turn + 3,
        names=tuple(names),
        awaiting=tuple(names[s] for s in game.to_act(state)),
        moderator=moderator.public(),
        seed_commitment="c" * 64,
        seed="s" * 64 if outcome else None,
        outcome=None if outcome is None else outcome.summary,
        seq={names[0]: turn, names[-1]: 2},
    )


def _compare(game: Any, state: Any, events: list[Event], ctx: ReportContext, moderator: Identity) -> int:
    players = len(ctx.names)
    cards = [moderator.public()] * players
    views = [game.observe(state, s) for s in range(players)] + [game.observe(state, None)]
    recipients = [*cards, None]
    alone = [
        render_report(game, v, events, ctx, moderator, r) for v, r in zip(views, recipients, strict=True)
    ]
    together = render_reports(game, views, events, ctx, moderator, recipients)
    assert together == alone
    return players


@pytest.mark.parametrize("name", game_names())
def test_players_reports_from_the_shared_prose_are_the_plain_ones(
    name: str, moderator: Identity, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _armour)
    game = get_game(name)
    calls = _Calls(monkeypatch)
    compared = 0
    for turn, (state, events, players) in enumerate(_turns(name, 8), 1):
        names = [f"p{chr(97 + i)}-{'x' * i}" for i in range(players)]
        compared += _compare(game, state, events, _context(game, state, turn, names, moderator), moderator)
    assert compared >= 8
    # the comparison above counts the plain way's own reports: as many as the shared way made
    assert calls.plain_players == compared


@pytest.mark.parametrize(
    ("names", "plain"),
    [
        (("alice", "bob", "carol", "dave"), 0),  # every name can stand in the mark's place
        (("alice", "b" * 60, "carol", "dave"), 1),  # too long for its line to fit 70 columns
        (("alice", "bo b", "carol", "dave"), 1),  # two words
        (("alice", "bøb", "carol", "dave"), 4),  # not ASCII: in the awaiting line, so in every report
        (("alice", "FILE-----", "carol", "dave"), 0),  # an age marker word alone is no marker line
    ],
)
def test_a_name_the_mark_cannot_stand_for_goes_the_plain_way(
    names: tuple[str, ...], plain: int, moderator: Identity, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _armour)
    game = get_game("symbiote")
    state, events, _ = _turns("symbiote", 3)[-1]
    ctx = _context(game, state, 3, names, moderator)
    cards = [moderator.public()] * 4
    views = [game.observe(state, s) for s in range(4)] + [game.observe(state, None)]
    calls = _Calls(monkeypatch)
    texts = render_reports(game, views, events, ctx, moderator, [*cards, None])
    assert calls.plain_players == plain
    alone = [
        render_report(game, v, events, ctx, moderator, r) for v, r in zip(views, [*cards, None], strict=True)
    ]
    assert texts == alone


def test_a_block_folding_would_change_goes_the_plain_way(
    moderator: Identity, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _wide_armour)
    game = get_game("symbiote")
    state, events, _ = _turns("symbiote", 2)[-1]
    ctx = _context(game, state, 2, ("alice", "bob", "carol", "dave"), moderator)
    calls = _Calls(monkeypatch)
    cards = [moderator.public()] * 4
    views = [game.observe(state, s) for s in range(4)] + [game.observe(state, None)]
    texts = render_reports(game, views, events, ctx, moderator, [*cards, None])
    assert calls.plain_players == 4
    assert texts[0] == render_report(game, views[0], events, ctx, moderator, cards[0])


def test_a_text_holding_a_mark_goes_the_plain_way(
    moderator: Identity, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports_module, "encrypt", _armour)
    game = get_game("symbiote")
    state, events, _ = _turns("symbiote", 2)[-1]
    ctx = _context(game, state, 2, ("alice", "bob", "carol", "dave"), moderator)
    marked = [Event(f"a public event naming {reports_module._PLAYER_MARK} itself"), *events]
    calls = _Calls(monkeypatch)
    _compare(game, state, marked, ctx, moderator)
    assert calls.plain_players == 2 * 4  # the shared way fell back for each, then the plain way


def test_the_report_template_reads_nothing_else_of_a_player() -> None:
    """The prose is rendered once for every player with only ``player`` and ``private_block``
    marked: the template may read no other variable that differs from one player to another
    (``seat`` is passed, and must stay unread)."""
    import jinja2.meta

    from pbem.render import _environment

    env = _environment()
    source = env.loader.get_source(env, "report.txt.j2")[0]
    read = jinja2.meta.find_undeclared_variables(env.parse(source))
    shared = {"title", "game_id", "turn", "public_text", "events", "outcome", "seed", "awaiting"}
    assert read <= shared | {"seed_commitment", "press", "player", "private_block"}
    assert "seat" not in read


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    player=st.text(max_size=12),
    seat=st.integers(0, 30),
    seq=st.integers(0, 2**53 - 1),
    public=json_values,
    press=st.none() | json_values,
    names=st.lists(st.text(max_size=6), max_size=4),
)
def test_the_signed_data_from_shared_members_is_the_canonical_json_of_the_whole(
    moderator: Identity, player: str, seat: int, seq: int, public: Any, press: Any, names: list[str]
) -> None:
    game = get_game("symbiote")

    class Press:
        data = press
        lines = ()

    ctx = ReportContext(
        "0123456789ABCDEF", 4, 9, tuple(names), tuple(names[:1]), moderator.public(), "c" * 64,
        None, None, {}, press=None if press is None else Press(),
    )  # fmt: skip
    turn = _Turn(game, ctx)
    values = {"player": player, "private_sha256": "a" * 64, "seat": seat, "seq": seq, "text_sha256": "b" * 64}
    data = {
        "format": reports_module.REPORT_FORMAT,
        "game": "symbiote",
        "game_id": ctx.game_id,
        "turn": 4,
        "revision": 9,
        "names": names,
        "awaiting": names[:1],
        "moderator": moderator.public().to_json(),
        "public": public,
        **values,
    }
    if press is not None:
        data["press"] = press
    assert turn.signed_data(values, canonical.dumps(public)) == canonical.dumps(data)
