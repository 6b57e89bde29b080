"""Work a turn does once instead of again, or more cheaply (issue 13), each compared with the
plain way: public key cards rebuilt from their JSON, the Jinja2 context of a render, the test
that a private block is armour as age writes it, the JSON line of the sealed secret, the paths
of a turn's files."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import keys, render
from pbem import save as save_module
from pbem.engine import GameFolder
from pbem.errors import FormatError
from pbem.keys import Identity, PublicCard
from pbem.reports import _plain_armour
from pbem.save import _string_line
from pbem.wording import WIDTH

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))
AGE_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
AGE_END = "-----END AGE ENCRYPTED FILE-----"


# ---- public key cards from JSON -----------------------------------------------------------------
@pytest.fixture(scope="module")
def card() -> PublicCard:
    return Identity.generate("alice").public()


def test_a_card_from_json_is_built_once_and_is_the_plain_card(card: PublicCard) -> None:
    data = card.to_json()
    first = PublicCard.from_json(dict(data))
    assert first == PublicCard._from_json(data) == card
    assert PublicCard.from_json(dict(data)) is first  # the second read reuses it


@pytest.mark.parametrize(
    "change",
    [
        {"sign": "zz"},  # not hex
        {"sign": "ab" * 31},  # 31 bytes
        {"self_sig": 5},  # not a string
        {"name": None},  # not a string: never cached, still built the plain way
        {"age": ["age1"]},  # unhashable
    ],
)
def test_a_malformed_card_is_refused_or_built_as_before(card: PublicCard, change: dict[str, Any]) -> None:
    data = dict(card.to_json(), **change)
    try:
        plain: PublicCard | None = PublicCard._from_json(data)
    except FormatError as exc:
        with pytest.raises(FormatError) as got:
            PublicCard.from_json(data)
        assert got.value.message == exc.message
        plain = None
    if plain is not None:
        assert PublicCard.from_json(data) == plain
        assert all(type(part) is str for part in next(reversed(keys._cards)))  # only strings are keys


@pytest.mark.parametrize("data", [{}, [], "card", {"name": "a", "sign": "00"}])
def test_what_is_not_a_card_record_is_refused(data: Any) -> None:
    with pytest.raises(FormatError, match="malformed public key record"):
        PublicCard.from_json(data)


# ---- the Jinja2 context -------------------------------------------------------------------------
def test_a_render_context_is_what_new_context_makes() -> None:
    template = render._template("private.txt.j2")
    data = {"player": "bob", "turn": 2, "events": [], "private_text": "x", "press": ()}
    made: list[Any] = []
    real = template.environment.context_class

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    template.environment.context_class = Recording
    try:
        render._renderer.cache_clear()
        text = render.render("private.txt.j2", **data)
    finally:
        template.environment.context_class = real
        render._renderer.cache_clear()
    expected = template.new_context(dict(template.globals, **data), shared=True)
    (ctx,) = made
    assert text == template.render(**data)
    assert ctx.globals_keys == expected.globals_keys
    assert ctx.parent == expected.parent and ctx.name == expected.name
    assert ctx.blocks == expected.blocks and ctx.vars == expected.vars == {}


# ---- armour as age writes it ---------------------------------------------------------------------
_ASCII_SPACE = " \t\r\x0b\x0c\x1c\x1d\x1e\x1f"
"""ASCII white space but the newline (what str.strip and str.splitlines see besides it)."""


def _reference(block: str) -> bool:
    """The conditions :func:`_plain_armour` stands for, one by one."""
    head, tail = AGE_BEGIN + "\n", "\n" + AGE_END
    if not (block.isascii() and block.startswith(head) and block.endswith(tail)):
        return False
    body = block[len(head) : -len(tail)]
    lines = body.split("\n")
    return (
        not any(c in body for c in _ASCII_SPACE)
        and "" not in lines
        and all(len(line) <= WIDTH for line in lines)
        and "\x00" not in body
        and block.count(AGE_BEGIN) == 1
        and block.count(AGE_END) == 1
    )


_LINE = st.text(alphabet="AB+/=\x00 \t\r\x0b\x0c\x1c\x1f\u00a0é-", max_size=8) | st.sampled_from(
    ["A" * 64, "B" * WIDTH, "C" * (WIDTH + 1), AGE_BEGIN, AGE_END, "", "-----END"]
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=6), st.sampled_from(["", "\n", " "]))
def test_plain_armour_is_the_conditions_one_by_one(lines: list[str], end: str) -> None:
    block = "\n".join([AGE_BEGIN, *lines, AGE_END]) + end
    assert _plain_armour(block) == _reference(block)


# ---- the save file's lines -----------------------------------------------------------------------
@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.text(alphabet='AB+/=\n -"\\\t\x00\x7f\u00e9', max_size=40)
    | st.text(max_size=20)
    | st.sampled_from([AGE_BEGIN + "\nQUJD\n" + AGE_END + "\n", "", "\n\n"])
    | st.integers()
    | st.none()
)
def test_a_string_line_is_what_json_dumps_writes(value: Any) -> None:
    assert _string_line(value) == json.dumps(value, ensure_ascii=False, sort_keys=True)


def test_an_armoured_secret_takes_the_replacement(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(value: Any) -> str:
        raise AssertionError("json's walk was used")

    monkeypatch.setattr(save_module, "_LINE", refuse)
    armour = AGE_BEGIN + "\n" + "QUJD" * 16 + "\n" + AGE_END + "\n"
    assert save_module._string_line(armour) == json.dumps(armour)


# ---- a save read back by the process that wrote it ------------------------------------------------
@pytest.mark.parametrize("text", ["plain words", "naïve: non-ASCII text takes the plain way"])
def test_a_save_read_back_is_the_body_of_its_file_in_its_order(tmp_path: Path, text: str) -> None:
    moderator = Identity.generate("moderator")
    cards = [Identity.generate(name).public() for name in ("zed", "amy", "bo")]
    when = datetime(2026, 1, 1, tzinfo=UTC)
    folder = GameFolder.create(
        tmp_path / "g", "symbiote", moderator, cards, {}, now=when, home=tmp_path / "h"
    )
    body = dict(folder.read().body, events=[{"to": None, "text": text}], seq={"zed": 1, "amy": 2, "bo": 0})
    data, saved = save_module.encode_save(body, moderator)
    digest = saved.file_digest
    assert digest in save_module._verified
    assert (digest in save_module._bodies) == text.isascii()
    again = save_module._known_save(data, "save.json", digest, save_module._verified[digest], None)
    from_file = json.loads(data)["body"]
    assert again.body == from_file
    # the same layout, key order included, at every level
    assert json.dumps(again.body, ensure_ascii=False) == json.dumps(from_file, ensure_ascii=False)
