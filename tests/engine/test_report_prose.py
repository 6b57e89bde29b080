"""The report template's text from its shape (issue 13, seventh session) against Jinja2's
render of the template: every combination of its branches stands, any values give the same
text, values the shape cannot stand for go the template's way, and the shape helper refuses
templates whose marks do not stand for the values."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import render as render_module
from pbem import report_prose
from pbem.keys import Identity
from pbem.registry import get_game
from pbem.render import render, shape
from pbem.reports import ReportContext, _report_prose, _shaped_prose

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "150"))
MODERATOR = Identity.generate("moderator").public()


@dataclass(frozen=True)
class _Press:
    lines: tuple[Any, ...]
    data: Any = None


def _ctx(turn: Any, awaiting: tuple[Any, ...], seed: Any, press: tuple[Any, ...] | None) -> ReportContext:
    return ReportContext(
        "0123456789ABCDEF", turn, 1, ("alice", "bob"), awaiting, MODERATOR, "c" * 64, seed, None, {},
        press=None if press is None else _Press(press),
    )  # fmt: skip


def test_every_shape_of_the_report_template_stands() -> None:
    """The shortcut is there for each of the 64 combinations of branches."""
    for flags in itertools.product((False, True), repeat=6):
        found = report_prose.prose_shape(*flags)
        assert found is not None, flags
        assert len(found.literals) == len(found.slots) + 1
        player, events, outcome, awaiting, press, block = flags
        assert ("player" in found.slots) == player and ("events" in found.slots) == events
        assert ("outcome" in found.slots) == outcome and ("awaiting" in found.slots) == (
            awaiting and not outcome
        )
        assert ("press" in found.slots) == press and ("private_block" in found.slots) == block


_TEXT = st.text(alphabet=st.sampled_from("ab \n\t{}%-\x00é\u00a0"), max_size=12)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    player=st.none() | _TEXT,
    public_text=_TEXT,
    events=st.lists(_TEXT, max_size=3),
    outcome=st.none() | _TEXT,
    seed=st.none() | _TEXT,
    awaiting=st.lists(_TEXT, max_size=3),
    press=st.none() | st.lists(_TEXT, max_size=2),
    block=_TEXT,
    turn=st.integers(0, 10**6),
)
def test_the_prose_from_its_shape_is_the_templates(
    player: str | None,
    public_text: str,
    events: list[str],
    outcome: str | None,
    seed: str | None,
    awaiting: list[str],
    press: list[str] | None,
    block: str,
    turn: int,
) -> None:
    game = get_game("symbiote")
    ctx = _ctx(turn, tuple(awaiting), seed, None if press is None else tuple(press))
    texts = (public_text, "", events)
    expected = _report_prose(game, ctx, player, 1, texts, outcome, block)
    shaped = report_prose.prose(ctx, game.info.title, player, texts, outcome, block)
    if seed is not None or not outcome:  # seed None in a finished game: Jinja2 writes "None"
        assert shaped == expected
    assert _shaped_prose(game, ctx, player, 1, texts, outcome, block) == expected


class _Text(str):
    """A string whose own methods the template would call: the shape cannot stand for it."""

    def rstrip(self, chars: str | None = None) -> str:
        return "what the template's own call gives"

    def __str__(self) -> str:
        return "what str gives"


@pytest.mark.parametrize(
    "case",
    ["turn", "public_text", "player", "event", "awaiting", "press", "seed", "block"],
)
def test_a_value_that_is_not_a_string_goes_the_template_way(case: str) -> None:
    game = get_game("symbiote")
    odd = _Text("x")
    turn: Any = "7" if case == "turn" else 7
    ctx = _ctx(
        turn,
        (odd,) if case == "awaiting" else ("bob",),
        odd if case == "seed" else "s",
        (odd,) if case == "press" else ("news",),
    )
    texts: tuple[str, str, list[str]] = (
        odd if case == "public_text" else "text",
        "",
        [odd] if case == "event" else ["e"],
    )
    player = odd if case == "player" else "alice"
    outcome = "over" if case == "seed" else None
    block = odd if case == "block" else "BLOCK"
    assert report_prose.prose(ctx, game.info.title, player, texts, outcome, block) is None
    expected = _report_prose(game, ctx, player, 1, texts, outcome, block)
    assert _shaped_prose(game, ctx, player, 1, texts, outcome, block) == expected


def test_the_fill_is_the_render(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shape's fill puts each value in its slot (a value holding a mark, or text that looks
    like a slot, stays as it is, as in Jinja2's render)."""
    found = report_prose.prose_shape(True, True, False, True, False, True)
    assert found is not None
    game = get_game("symbiote")
    ctx = _ctx(3, ("a", "\x00pbem:slot title\x00"), None, None)
    texts = ("{{ title }} %(x)s", "", ["\x00pbem:second item\x00"])
    assert report_prose.prose(ctx, game.info.title, "p", texts, None, "B") == _report_prose(
        game, ctx, "p", 0, texts, None, "B"
    )


def _with_template(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.DictLoader({"t.j2": source}),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    monkeypatch.setattr(render_module, "_renderer", lambda name: env.get_template(name).render)
    monkeypatch.setattr(render_module, "render", lambda name, **c: env.get_template(name).render(**c))


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("{{ a }} {{ a }}\n", "a slot written twice"),
        ("{{ b }}\n", "a slot never written"),
        ("{{ a }} {{ seat }}\n", "a variable that must stay unread is written"),
        ("{{ a | upper }}\n", "a value changed before it is written"),
        ("{% for x in items %}{{ x }}, {% endfor %}{{ a }}\n", "a list not written with its separator"),
        ("{{ items | reverse | join('\\n') }} {{ a }}\n", "a list written in another order"),
        ("{{ a }}{{ items[0] }}\n", "a list written in part"),
    ],
)
def test_a_shape_that_does_not_stand_is_refused(
    monkeypatch: pytest.MonkeyPatch, source: str, why: str
) -> None:
    _with_template(monkeypatch, source)
    lists = {"items": ("\n", (list,))} if "items" in source else {}
    assert shape("t.j2", {}, ["a", "b"] if "b" in source else ["a"], lists, unread=("seat",)) is None, why


def test_a_shape_that_stands_fills_as_the_template(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_template(monkeypatch, "A {{ a }}\n{% for x in items %}\n  {{ x }}\n{% endfor %}\nend\n")
    found = shape("t.j2", {}, ["a"], {"items": ("\n  ", (list,))})
    assert found is not None
    filled = found.fill({"a": "value", "items": "\n  ".join(["one", "two", "three"])})
    assert filled == render("t.j2", a="value", items=["one", "two", "three"])
