"""The shortcuts of a turn's CPU work (issue 13) give exactly what the plain way gives.

Jinja2 templates render through the compiled template's root function with a context made
once per call (not ``Template.render``); the armour's normal form and a report's word
digest skip the walk line by line for the text pbem renders; JSON is encoded by the C
encoder built once; the save's sealed secret is encoded once for its canonical bytes and
its file line.  Each is checked against the plain way, on the shapes that take the
shortcut and on those that must not.
"""

from __future__ import annotations

import json
import os
from typing import Any

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical, orders, render, reports, save, transit
from pbem.errors import FormatError
from pbem.keys import Identity, encrypt
from pbem.orders import AGE_BEGIN, AGE_END

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "80"))


# ---- Jinja2 ------------------------------------------------------------------------------------
_REPORT = {
    "player": "alice",
    "seat": 0,
    "title": "Symbiote",
    "game_id": "0123456789ABCDEF",
    "turn": 3,
    "public_text": "The board.\n",
    "events": ["- one", "- two"],
    "outcome": None,
    "seed": None,
    "awaiting": ["bob", "carol"],
    "seed_commitment": "ab" * 32,
    "private_block": "",
    "press": (),
}


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    player=st.none() | st.text(max_size=12),
    events=st.lists(st.text(max_size=30), max_size=4),
    outcome=st.none() | st.text(max_size=30),
    awaiting=st.lists(st.text(max_size=8), max_size=3),
    press=st.lists(st.text(max_size=20), max_size=3),
    block=st.sampled_from(["", f"{AGE_BEGIN}\nQUJD\n{AGE_END}\n"]),
)
def test_a_template_renders_as_template_render_does(
    player: str | None,
    events: list[str],
    outcome: str | None,
    awaiting: list[str],
    press: list[str],
    block: str,
) -> None:
    context = dict(
        _REPORT, player=player, events=events, outcome=outcome, seed="s" if outcome else None,
        awaiting=awaiting, press=press, private_block=block,
    )  # fmt: skip
    assert render.render("report.txt.j2", **context) == render._template("report.txt.j2").render(**context)


def test_render_does_not_go_through_template_render(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = render._template("private.txt.j2").render(
        player="bob", turn=2, events=[], private_text="Your hand: 3H", press=()
    )

    def refuse(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("Template.render was called")

    monkeypatch.setattr(jinja2.Template, "render", refuse)
    text = render.render(
        "private.txt.j2", player="bob", turn=2, events=[], private_text="Your hand: 3H", press=()
    )
    assert text == expected


def test_a_missing_variable_is_still_an_undefined_error() -> None:
    context = dict(_REPORT)
    del context["awaiting"]
    with pytest.raises(jinja2.UndefinedError, match="awaiting"):
        render.render("report.txt.j2", **context)


def test_a_template_variable_cannot_leak_into_the_next_render() -> None:
    first = render.render("private.txt.j2", player="bob", turn=2, events=["- x"], private_text="", press=())
    second = render.render("private.txt.j2", player="carol", turn=2, events=[], private_text="", press=())
    assert "bob" in first and "bob" not in second and "- x" not in second


# ---- the armour's normal form -------------------------------------------------------------------
_LINE = st.text(alphabet="AB+/= \t\r\x0b\x0c\x1c\x1f\u00a0é-", max_size=12)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(_LINE, max_size=6), st.sampled_from(["", "\n", "  \n", "\r\n"]), st.booleans())
def test_the_armour_normal_form_is_the_general_one(body: list[str], end: str, marked: bool) -> None:
    block = "\n".join([AGE_BEGIN, *body, AGE_END] if marked else body) + end
    assert reports._armour_normal(block) == reports._normal_block(block)


def test_real_armour_takes_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    card = Identity.generate("m").public()
    block = encrypt(b"hand", [card], pad_to=2048)
    expected = reports._normal_block(block)
    monkeypatch.setattr(reports, "_normal_block", lambda block: pytest.fail("walked line by line"))
    assert reports._armour_normal(block) == expected


# ---- the word digest of a rendered report -------------------------------------------------------
_PIECE = st.sampled_from(
    [
        "PBEM REPORT for alice",
        "PBEM PUBLIC REPORT",
        "  indented words",
        "trailing  ",
        "",
        "   ",
        "a\tb",
        "x\ry",
        "p\x0bq",
        "u\x1cv",
        "café",
        "e\u0301",
        "no\u00a0break",
        AGE_BEGIN,
        AGE_END,
        f"  {AGE_BEGIN}",
        f"{AGE_END}  ",
        "QUJDREVG",
        "-----BEGIN AGE",
    ]
)


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(st.lists(_PIECE, max_size=8), st.lists(_PIECE, max_size=8), st.booleans())
def test_the_report_digest_is_the_word_digest(before: list[str], after: list[str], sealed: bool) -> None:
    block = f"{AGE_BEGIN}\nQUJDREVG\nR0hJSktM\n{AGE_END}\n" if sealed else ""
    prose = "\n".join([*before, block.rstrip(), *after]) if sealed else "\n".join([*before, *after])
    assert reports._report_digest(prose, block) == reports.prose_digest(prose.splitlines())


def test_a_rendered_report_takes_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    block = f"{AGE_BEGIN}\nQUJDREVG\n{AGE_END}\n"
    prose = render.render("report.txt.j2", **dict(_REPORT, private_block=block))
    expected = reports.prose_digest(prose.splitlines())
    monkeypatch.setattr(reports, "prose_digest", lambda lines: pytest.fail("walked line by line"))
    assert reports._report_digest(prose, block) == expected


# ---- JSON encoders made once --------------------------------------------------------------------
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_JSON, st.sampled_from([(",", ":"), (", ", ": ")]))
def test_an_encoder_made_once_writes_what_json_dumps_writes(value: Any, separators: tuple[str, str]) -> None:
    expected = json.dumps(value, sort_keys=True, separators=separators, ensure_ascii=False)
    assert canonical.encoder(separators)(value) == expected


def test_an_encoder_made_once_refuses_what_json_refuses() -> None:
    encode = canonical.encoder((",", ":"))
    with pytest.raises(TypeError):
        encode({"a": {1, 2}})
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError):
        encode(loop)
    assert encode({"b": 1, "a": [1, "x"]}) == '{"a":[1,"x"],"b":1}'  # still usable after a failure


# ---- the save's secret, encoded once --------------------------------------------------------------
@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.dictionaries(st.text(max_size=8).filter(lambda k: k != "secret"), _JSON, max_size=5),
    st.text(max_size=40) | st.sampled_from([save._SECRET_MARK, f"{AGE_BEGIN}\nQUJD\n{AGE_END}\n"]),
    st.sampled_from([None, "", save._SECRET_MARK]),
)
def test_the_body_with_its_secret_put_in_is_the_canonical_body(
    rest: dict[str, Any], secret: str, decoy: str | None
) -> None:
    body = dict(rest, secret=secret)
    if decoy is not None:  # a field holding what the splice looks for
        body["public"] = {"secret": decoy}
    try:
        expected = canonical.dumps(body)
    except FormatError:
        with pytest.raises(FormatError):
            save._canonical_body(body, save._line(secret))
        return
    assert save._canonical_body(body, save._line(secret)) == expected


# ---- nesting depth, a level at a time -----------------------------------------------------------
def _depth_by_recursion(value: Any) -> int:
    if type(value) is dict:
        return 1 + max((_depth_by_recursion(v) for v in value.values()), default=0)
    if type(value) is list:
        return 1 + max((_depth_by_recursion(v) for v in value), default=0)
    return 0


@settings(max_examples=EXAMPLES, deadline=None)
@given(_JSON)
def test_depth_is_the_nesting_depth(value: Any) -> None:
    assert canonical.depth(value) == _depth_by_recursion(value)


def test_depth_stops_a_level_past_the_limit() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(10_000):
        inner.append([])
        inner = inner[0]
    assert canonical.depth(deep) == canonical.MAX_DEPTH + 1
    assert canonical.depth([[], {"a": [1]}, "x"]) == 3


# ---- a sealed order file as pbem sign writes it ---------------------------------------------------
def _sealed_file() -> str:
    return orders.seal("-----BEGIN PBEM ORDERS-----\nx\n", [Identity.generate("m").public()])


_EDITS = st.sampled_from(
    ["none", "crlf", "bom", "trailing space", "indent", "rewrap", "quote", "text before", "blank lines",
     "no end", "equals inside", "bad char", "short last", "cut"]
)  # fmt: skip


def _edit(text: str, edit: str) -> str:
    lines = text.split("\n")
    if edit == "crlf":
        return text.replace("\n", "\r\n")
    if edit == "bom":
        return "\ufeff" + text
    if edit == "trailing space":
        return text.replace("\n", " \n", 3)
    if edit == "indent":
        return "  " + text
    if edit == "rewrap":
        body = "".join(lines[1:-3])
        return "\n".join([lines[0], *(body[i : i + 60] for i in range(0, len(body), 60)), *lines[-3:]])
    if edit == "quote":
        return "".join(f"> {line}\n" for line in lines)
    if edit == "text before":
        return "Hello\n" + text
    if edit == "blank lines":
        return text + "\n\n\n"
    if edit == "no end":
        return "\n".join(lines[:-3]) + "\n"
    if edit == "equals inside":
        return text.replace(lines[2], "=" + lines[2][1:], 1)
    if edit == "bad char":
        return text.replace(lines[2], "*" + lines[2][1:], 1)
    if edit == "short last":
        return text.replace(lines[-3], lines[-3][:-1], 1) if len(lines[-3]) > 1 else text
    if edit == "cut":
        return text[: len(text) // 2]
    return text


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(_EDITS, max_size=3))
def test_the_standard_armour_shortcut_agrees_with_is_sealed(edits: list[str]) -> None:
    text = _SEALED
    for edit in edits:
        text = _edit(text, edit)
    standard = orders._standard_block(text)
    if standard is not None:
        assert orders.is_sealed(text)
        assert transit.age_plaintext_length(standard.lines) == orders._sealed_length(text)
    elif not edits:
        pytest.fail("a file exactly as pbem sign writes it takes the shortcut")


_SEALED = _sealed_file()


def test_an_order_file_as_signed_is_filed_as_it_is_without_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    moderator = Identity.generate("moderator")
    text = orders.seal("-----BEGIN PBEM ORDERS-----\nx\n", [moderator.public()])
    monkeypatch.setattr(orders, "is_sealed", lambda text: pytest.fail("walked line by line"))
    assert orders.archive_copy(text, moderator, moderator.public(), "orders.txt") is text


_MODERATOR = Identity.generate("moderator")
_SEALED_ORDERS = orders.seal(
    orders.sign(Identity.generate("alice"), orders.OrderHeader("0123456789ABCDEF", 1, "alice", 1), ["x"]),
    [_MODERATOR.public()],
)


def _opened(text: str) -> tuple[str, int] | str | None:
    try:
        return orders.open_sealed(text, _MODERATOR, "orders.txt")
    except FormatError as exc:
        return exc.message


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(st.lists(_EDITS, max_size=2))
def test_a_sealed_file_opens_as_the_general_way_opens_it(edits: list[str]) -> None:
    text = _SEALED_ORDERS
    for edit in edits:
        text = _edit(text, edit)
    quick = _opened(text)
    plain = orders._standard_block
    try:
        orders._standard_block = lambda text: None
        general = _opened(text)
    finally:
        orders._standard_block = plain
    assert quick == general
    if not edits:
        assert isinstance(quick, tuple) and quick[1] == 1
