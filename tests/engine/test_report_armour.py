"""The armour test of a turn's reports (issue 13, seventh session): age's own form recognised
by one translation (:func:`pbem.report_armour._base64_columns`), against the conditions
the test stands for, one by one, and the block age writes taking that way."""

from __future__ import annotations

import base64
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import report_armour
from pbem.keys import Identity, encrypt
from pbem.mailtext import AGE_BEGIN, AGE_END
from pbem.report_armour import _base64_columns, plain_armour

from .test_turn_reuse import _reference as _conditions  # the conditions, one by one

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "300"))


def _armour(raw: bytes, columns: int = 64) -> str:
    text = base64.b64encode(raw).decode()
    return "\n".join([AGE_BEGIN, *[text[i : i + columns] for i in range(0, len(text), columns)], AGE_END])


_EDITS = st.sampled_from([" ", "\n", "\n\n", "\x00", "é", "\t", "-", "A", "\r", "\x1f", AGE_END, AGE_BEGIN])


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    raw=st.binary(max_size=400),
    columns=st.sampled_from([64, 64, 64, 63, 65, 70]),
    edits=st.lists(st.tuples(st.integers(0, 700), _EDITS | st.just("")), max_size=3),
)
def test_the_armour_test_is_its_conditions(raw: bytes, columns: int, edits: list[tuple[int, str]]) -> None:
    """Blocks in age's form and near it (a character put in or taken out anywhere, lines of
    other lengths): the answer is the conditions', and age's form is recognised in one step
    exactly where the conditions hold for it."""
    block = _armour(raw, columns)
    for at, text in edits:
        at = min(at, len(block))
        block = block[:at] + text + block[at + (0 if text else 1) :]
    assert plain_armour(block) == _conditions(block)
    head, tail = len(AGE_BEGIN) + 1, len(AGE_END) + 1
    if block.startswith(AGE_BEGIN + "\n") and block.endswith("\n" + AGE_END) and len(block) >= head + tail:
        body = block[head:-tail]
        if _base64_columns(body):
            assert _conditions(block)
            lines = body.split("\n")
            assert all(len(line) == 64 for line in lines[:-1]) and 1 <= len(lines[-1]) <= 64
    if not edits and columns == 64 and raw:
        assert _base64_columns(_armour(raw)[head:-tail])


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("", "no line"),
        ("A" * 64 + "\n", "a blank last line"),
        ("A" * 64 + "\n" + "B" * 64 + "\n", "a blank last line after whole lines"),
        ("A" * 63 + "\nB", "a line break before column 64"),
        ("A" * 65, "a line of 65"),
        ("A" * 64 + "\n" + "B" * 30 + "\n" + "C", "a line break inside the last line"),
        ("A" * 30 + " " + "B" * 10, "a space"),
        ("A" * 30 + "-" + "B" * 10, "a hyphen"),
        ("A" * 30 + "\x00", "NUL"),
        ("A" * 30 + "é", "not ASCII"),
        ("A" * 64 + "\r\n" + "B" * 3, "a carriage return"),
        ("-----END AGE ENCRYPTED FILE-----", "a marker"),
    ],
)
def test_what_is_not_ages_form(body: str, why: str) -> None:
    assert not _base64_columns(body), why


def test_ages_block_takes_one_translation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The block age writes for a report is recognised without the test condition by
    condition; a block with a space in it still goes that way (and is refused)."""
    card = Identity.generate("reader").public()
    block = encrypt(b"private", [card, Identity.generate("moderator").public()], pad_to=2048).rstrip()
    calls: list[str] = []
    general = report_armour._plain_armour_general

    def counted(whole: str, body: str) -> bool:
        calls.append(whole)
        return general(whole, body)

    monkeypatch.setattr(report_armour, "_plain_armour_general", counted)
    assert plain_armour(block) and _conditions(block)
    assert calls == []
    at = len(AGE_BEGIN) + 1 + 64
    spaced = block[:at] + " " + block[at:]
    assert not plain_armour(spaced) and not _conditions(spaced)
    assert calls == [spaced]
