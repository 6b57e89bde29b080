"""Fuzzed press input: whatever a file, a mail or a message holds, the readers answer with a
pbem error (a message for a person) or a result, never a traceback, and a refused message
writes nothing."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from pbem.errors import PbemError
from pbem.keys import Identity
from pbem.press import text as block
from pbem.press.read import read_letter
from pbem.press.relay import relay
from pbem.press.say import message_lines

from .conftest import FUZZ, PressTable

_LINES = st.lists(
    st.one_of(
        st.text(max_size=80),
        st.sampled_from(
            [
                block.begin(block.ENVELOPE),
                block.end(block.ENVELOPE),
                block.SIGNATURE,
                "-----BEGIN AGE ENCRYPTED FILE-----",
                "-----END AGE ENCRYPTED FILE-----",
                "Game: 0123456789ABCDEF",
                "From: alice",
                "To: all",
                "Grey: yes",
                "Turn: 1",
                "Id: " + "A" * 32,
                "Letter: " + "0" * 64,
                "- - -",
                "",
            ]
        ),
    ),
    max_size=30,
)


@FUZZ
@given(_LINES)
def test_block_parser_answers_every_text(lines: list[str]) -> None:
    try:
        found = block.parse("\n".join(lines), block.ENVELOPE, "fuzz")
    except PbemError as exc:
        assert exc.message.startswith("fuzz")
    else:
        assert found.kind == block.ENVELOPE


@FUZZ
@given(st.text(max_size=3000))
def test_message_text_is_lines_that_fit_or_a_clear_error(text: str) -> None:
    try:
        lines = message_lines(text, "msg")
    except PbemError as exc:
        assert exc.message.startswith("msg")
    else:
        assert lines and all(len(line) <= block.WIDTH for line in lines)


def _mutations() -> st.SearchStrategy[tuple[int, str]]:
    return st.tuples(st.integers(min_value=0, max_value=400), st.text(max_size=40))


@FUZZ.__class__(FUZZ, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_mutations(), min_size=1, max_size=4))
def test_a_damaged_envelope_is_refused_and_writes_nothing(
    table: PressTable, edits: list[tuple[int, str]]
) -> None:
    from pbem.press.relay import open_press

    said = table.say("alice", ("bob",), "the original")
    plain = open_press(said.text, table.moderator, "x")
    assert plain is not None
    lines = plain.split("\n")
    for at, text in edits:
        lines[at % len(lines)] = text
    before = sorted(p.name for p in (table.folder.path).rglob("*"))
    try:
        relay(table.folder, table.moderator, "\n".join(lines), "fuzz", "now")
    except PbemError as exc:
        assert exc.message
        assert sorted(p.name for p in (table.folder.path).rglob("*")) == before
    # an edit that changed nothing, or only the letter's armour bytes, may still be relayed


@FUZZ
@given(st.text(max_size=500))
def test_reading_any_text_as_press(text: str) -> None:
    identity = _bob()
    try:
        assert read_letter(text, "fuzz", identity, None, Path("/nonexistent-pbem-home")) is None
    except PbemError as exc:
        assert exc.message.startswith("fuzz")


_KEY: list[Identity] = []


def _bob() -> Identity:
    if not _KEY:
        _KEY.append(Identity.generate("bob"))
    return _KEY[0]
