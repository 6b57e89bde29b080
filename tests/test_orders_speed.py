"""The shortcuts of reading an order file in a turn (issue 13, sixth session) give what the
plain way gives, cannot be fooled, and leave every check against a hostile file in place.

- a sealed file in standard armour is checked by decoding it once (strict base64) and finding
  its newlines by counting, where a pattern, a split into lines and a second decoding did it;
- that answer is remembered for the last few texts, by the text, so the archive copy of the
  file just opened is filed without decoding it again;
- age is handed the decoded bytes, not the armour;
- ``mailtext.unquoted`` skips the quoting pattern for a text with no ``>``;
- ``PublicCard.from_json`` answers a remembered card with one lookup.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import types
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import mailtext, orders, transit
from pbem.errors import FormatError
from pbem.keys import Identity, PublicCard, encrypt
from pbem.orders import AGE_BEGIN, AGE_END

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "150"))

_MODERATOR = Identity.generate("moderator")
_ALICE = Identity.generate("alice")
_SEALED = orders.seal(
    orders.sign(_ALICE, orders.OrderHeader("0123456789ABCDEF", 1, "alice", 1), ["take", "pair 3H 7H"]),
    [_MODERATOR.public()],
)


# ---- the plain way, as it was written before the shortcut ---------------------------------------
_ARMOUR_CHARS = re.compile(r"[A-Za-z0-9+/=]*")


def _pattern_way(text: str) -> list[str] | None:
    """The standard-armour check as the sixth session wrote it (pattern, split, widths)."""
    head, tail = AGE_BEGIN + "\n", "\n" + AGE_END
    if len(text) > orders.MAX_TEXT or not text.startswith(head):
        return None
    rest = text.rstrip("\n")
    if not rest.endswith(tail) or len(rest) <= len(head) + len(tail):
        return None
    lines = rest[len(head) : -len(tail)].split("\n")
    last = len(lines[-1])
    if not 0 < last <= 64 or not set(map(len, lines[:-1])) <= {64}:
        return None
    joined = "".join(lines)
    if not _ARMOUR_CHARS.fullmatch(joined) or "=" in joined.rstrip("=") or len(joined) % 4:
        return None
    return lines


def _decoded(lines: list[str]) -> bytes | None:
    try:
        return base64.b64decode("".join(lines), validate=True)
    except (binascii.Error, ValueError):
        return None


_CHARS = st.sampled_from([*"AQgw+/=", "*", " ", "\r", "é", "\n"])


@st.composite
def _armours(draw: st.DrawFn) -> str:
    """Texts near standard armour: lines of (mostly) 64 characters, edited."""
    count = draw(st.integers(0, 4))
    widths = [64] * count + [draw(st.integers(0, 66))]
    body = "\n".join(
        "".join(draw(st.lists(st.sampled_from("AQgw+/"), min_size=w, max_size=w))) for w in widths
    )
    for _ in range(draw(st.integers(0, 3))):
        if body:
            at = draw(st.integers(0, len(body) - 1))
            body = body[:at] + draw(_CHARS) + body[at + draw(st.integers(0, 1)) :]
    if draw(st.booleans()):
        body += draw(st.sampled_from(["=", "==", "===", "===="]))
    return f"{AGE_BEGIN}\n{body}\n{AGE_END}" + "\n" * draw(st.integers(0, 2))


@settings(max_examples=EXAMPLES, deadline=None)
@given(_armours())
def test_the_standard_check_agrees_with_the_pattern_way(text: str) -> None:
    found = orders._standard_plain(text)
    old = _pattern_way(text)
    if found is not None:  # never more than the old check takes, and the same bytes
        assert old is not None and list(found.lines) == old
        assert found.raw == _decoded(old)
    elif old is not None and _decoded(old) is not None:  # what it leaves to the general way
        assert "".join(old).endswith("===")


def test_the_standard_check_takes_a_real_sealed_file_and_refuses_a_long_last_line() -> None:
    found = orders._standard_plain(_SEALED)
    lines = _pattern_way(_SEALED)
    assert found is not None and lines is not None and list(found.lines) == lines
    assert found.raw == _decoded(lines)
    width = len(lines[-1])
    longer = _SEALED.replace(f"\n{AGE_END}", "A" * (65 - width) + f"\n{AGE_END}")  # a last line of 65
    assert orders._standard_plain(longer) is None and _pattern_way(longer) is None


# ---- the memo -------------------------------------------------------------------------------------
def test_the_memo_answers_by_the_text_and_stays_bounded() -> None:
    orders._STANDARD_MEMO.clear()
    first = orders._standard_block(_SEALED)
    assert first is not None and orders._STANDARD_MEMO[_SEALED] is first
    lines = _SEALED.split("\n")
    flipped = "B" if lines[3][10] != "B" else "C"
    other = _SEALED.replace(lines[3], lines[3][:10] + flipped + lines[3][11:], 1)  # one character
    second = orders._standard_block(other)
    assert second is not None and second.raw != first.raw and second == orders._standard_plain(other)
    assert orders._standard_block("".join(_SEALED)) is first  # an equal text built anew: the same answer
    for n in range(3 * orders._MEMO_ENTRIES):
        orders._standard_block(_SEALED + "\n" * (n + 1))
    assert len(orders._STANDARD_MEMO) <= orders._MEMO_ENTRIES
    huge = f"{AGE_BEGIN}\n" + "\n".join(["A" * 64] * 1100) + f"\n{AGE_END}\n"
    assert len(huge) > orders._MEMO_TEXT and orders._standard_block(huge) is not None
    assert huge not in orders._STANDARD_MEMO


def test_the_archive_copy_of_a_file_just_opened_is_not_decoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    orders._STANDARD_MEMO.clear()
    calls: list[int] = []
    plain = orders._standard_plain

    def spy(text: str) -> object:
        calls.append(len(text))
        return plain(text)

    monkeypatch.setattr(orders, "_standard_plain", spy)
    opened = orders.open_orders(_SEALED, _MODERATOR, "orders.txt")
    assert opened.header.player == "alice" and calls == [len(_SEALED)]
    assert orders.archive_copy(_SEALED, _MODERATOR, _MODERATOR.public(), "orders.txt") is _SEALED
    assert calls == [len(_SEALED)]


# ---- hostile files still refused, on the quick path --------------------------------------------
def _message(text: str, identity: Identity = _MODERATOR) -> str:
    with pytest.raises(FormatError) as caught:
        orders.open_sealed(text, identity, "orders.txt")
    return caught.value.message


def test_age_given_the_bytes_still_tells_a_wrong_key_from_damage() -> None:
    assert orders._standard_plain(_SEALED) is not None
    stranger = Identity.generate("stranger")
    assert "cannot be opened with the moderator's key" in _message(_SEALED, stranger)
    lines = _SEALED.split("\n")
    last_full = len(lines) // 2 + 5  # a full line of the payload, well past the age header
    flipped = "A" if lines[last_full][5] != "A" else "B"
    damaged = _SEALED.replace(lines[last_full], lines[last_full][:5] + flipped + lines[last_full][6:], 1)
    assert orders._standard_plain(damaged) is not None  # still standard armour: the quick path
    assert "the encrypted data does not check out" in _message(damaged)


def test_a_bad_character_in_standard_shape_is_named_by_the_general_way() -> None:
    lines = _SEALED.split("\n")
    bad = _SEALED.replace(lines[2], "*" + lines[2][1:], 1)
    assert orders._standard_plain(bad) is None
    assert "line 3 holds '*'" in _message(bad)


def test_a_header_damaged_in_standard_armour_is_damage() -> None:
    raw = base64.b64decode("".join(_SEALED.split("\n")[1:-3]))
    broken = raw.replace(b"-> X25519 ", b"-> X25519 !", 1)
    armour = base64.b64encode(broken).decode()
    text = "\n".join([AGE_BEGIN, *(armour[i : i + 64] for i in range(0, len(armour), 64)), AGE_END]) + "\n"
    assert orders._standard_plain(text) is not None
    assert "X25519 stanza is damaged" in _message(text)


def test_an_age_block_of_another_tool_opens_from_its_bytes() -> None:
    block = orders.sign(_ALICE, orders.OrderHeader("0123456789ABCDEF", 2, "alice", 3), ["discard KS"])
    sealed = encrypt(block.encode(), [_MODERATOR.public()], pad_to=16)  # unpadded to pbem's size
    opened = orders.open_sealed(sealed, _MODERATOR, "orders.txt")
    assert opened is not None and opened[0].startswith(block)


# ---- mail quoting ---------------------------------------------------------------------------------
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(st.sampled_from(list("a> \t\r\n\u00a0-")), max_size=60))
def test_unquoted_skips_the_pattern_only_where_it_cannot_match(text: str) -> None:
    plain = [mailtext.QUOTE_RE.sub("", raw) for raw in mailtext.lines(text.replace("\u00a0", " "))]
    assert mailtext.unquoted(text) == plain


# ---- cards ------------------------------------------------------------------------------------------
def test_a_remembered_card_is_the_card_the_plain_way_builds() -> None:
    data = _ALICE.public().to_json()
    first = PublicCard.from_json(dict(data))
    assert PublicCard.from_json(dict(data)) is first
    assert first == PublicCard._from_json(data) == _ALICE.public()
    other = dict(data, name="bob")
    assert PublicCard.from_json(other).name == "bob"


@pytest.mark.parametrize(
    "record",
    [
        None,
        "text",
        [],
        {"name": "alice"},
        {"name": ["alice"], "sign": "00", "age": "age1x", "self_sig": ""},
        {"name": "alice", "sign": "zz", "age": "age1x", "self_sig": ""},
        {"name": "alice", "sign": "00" * 31, "age": "age1x", "self_sig": ""},
    ],
)
def test_a_malformed_card_record_is_refused_as_before(record: object) -> None:
    PublicCard.from_json(_ALICE.public().to_json())  # a card remembered beside it
    with pytest.raises(FormatError):
        PublicCard.from_json(record)  # type: ignore[arg-type]
    with pytest.raises(FormatError):
        PublicCard._from_json(record)  # type: ignore[arg-type]


# ---- the padding of a sealed block --------------------------------------------------------------
_BLOCK = orders.sign(_ALICE, orders.OrderHeader("0123456789ABCDEF", 1, "alice", 1), ["take", "discard KS"])
_PIECES = st.sampled_from(
    [
        *_BLOCK.split("\n"),
        "",
        " ",
        "  \t",
        "> ",
        "\r",
        "\u00a0",
        "\x1c",
        "\u2028",
        "\x85",
        "\ufeff",
        "x\ufeff ",
        " \t\x0b",
        orders.BEGIN,
        orders.END,
        orders.SIGNATURE,
        "x",
    ]
)


def _parsed(text: str) -> object:
    try:
        return orders.parse(text, "orders.txt")
    except FormatError as exc:
        return exc.message


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(_PIECES, max_size=14),
    st.integers(0, 300),
    st.sampled_from(["\n", "", " \n", "\r\n", "\u2028", "\x1c\n"]),
)
def test_a_block_reads_the_same_without_its_padding(pieces: list[str], spaces: int, end: str) -> None:
    text = "\n".join(pieces) + "\n" + " " * spaces + end
    assert _parsed(orders._unpadded(text)) == _parsed(text)
    text = _BLOCK + text  # a whole block, then whatever follows it
    assert isinstance(_parsed(text), orders.SignedOrders) or orders.BEGIN in pieces
    assert _parsed(orders._unpadded(text)) == _parsed(text)


def test_a_sealed_block_is_parsed_without_its_padding(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    plain = orders.parse

    def spy(text: str, source: str = "orders") -> orders.SignedOrders:
        seen.append(text)
        return plain(text, source)

    monkeypatch.setattr(orders, "parse", spy)
    signed = orders.open_orders(_SEALED, _MODERATOR, "orders.txt")
    assert (
        seen
        and not seen[0].endswith("  \n")
        and signed == plain(_MODERATOR.decrypt(_SEALED).decode(), "orders.txt, sealed block")
    )


# ---- the age header ------------------------------------------------------------------------------
_B64_43 = "YSMZMbaCu9FyolbDCq+grILJ+Kcc38JysPq2dsAwxAM"
_GOOD_HEAD = st.sampled_from([f"-> X25519 {_B64_43}", "-> 6h.-grease >=Z Ed|_Qh2A GWS", "-> a  b"])
_BAD_HEAD = st.sampled_from(
    [
        f"-> X25519 {_B64_43[:-1]}",
        f"-> X25519 {_B64_43} x",
        "-> X25519",
        "-> X25519x a",
        "->  a",
        "-> ",
        "->",
        "-> scrypt \xff\r",
        "A" * 43,
    ]
)
_FULL = st.just("A" * 64) | st.sampled_from(["A" * 65, "A" * 63, "A=" * 32])
_LAST = st.sampled_from(["", "A" * 43]) | st.sampled_from(["A" * 63, "A" * 64, "A=", "-> x"])
_MACS = st.just(f"--- {_B64_43}") | st.sampled_from(
    [f"--- {_B64_43}A", f"--- {_B64_43[:-1]}", "---", f"---  {_B64_43}"]
)


def _mostly(good: st.SearchStrategy[str], bad: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``good`` nine times in ten, else ``bad``."""
    return st.integers(0, 9).flatmap(lambda n: good if n else bad)


@st.composite
def _headers(draw: st.DrawFn) -> bytes:
    """age headers, mostly well formed, each part sometimes damaged."""
    lines = ["age-encryption.org/v1" if draw(st.integers(0, 9)) else "age-encryption.org/v2"]
    for _ in range(draw(st.integers(0, 3))):
        lines.append(draw(_mostly(_GOOD_HEAD, _BAD_HEAD)))
        lines += draw(st.lists(_mostly(st.just("A" * 64), _FULL), max_size=2))
        lines.append(draw(_mostly(st.sampled_from(["", "A" * 43]), _LAST)))
    lines.append(draw(_mostly(st.just(f"--- {_B64_43}"), _MACS)))
    return ("\n".join(lines) + "\n").encode("latin-1") + draw(st.binary(max_size=3))


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(_headers())
def test_the_header_pattern_passes_only_what_the_walk_passes(data: bytes) -> None:
    if transit._WELL_FORMED_HEADER.match(data):
        assert transit._header_walk(data) is None
    assert transit.age_header_damage(data) == transit._header_walk(data)


def test_a_real_header_takes_the_pattern() -> None:
    found = orders._standard_plain(_SEALED)
    assert found is not None and transit._WELL_FORMED_HEADER.match(found.raw)
    grease = f"age-encryption.org/v1\n-> X25519 {_B64_43}\n{'A' * 43}\n-> x-grease a b\n\n--- {_B64_43}\n"
    assert transit._WELL_FORMED_HEADER.match(grease.encode())


# ---- an ASCII line is only stripped (seventh session) -------------------------------------------
def _plain_normalize(line: str) -> str:
    """What _normalize did for every line before the ASCII shortcut."""
    return unicodedata.normalize("NFC", line.replace("\u00a0", " ").replace("\ufeff", "").strip())


_ASCII = st.text(st.characters(max_codepoint=127), max_size=40)
_MARKS = st.text(st.sampled_from(" \t\x0b\x0c\x1c\x1f\u00a0\ufeff\u0301e\u00e9A-#"), max_size=12)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_ASCII | _MARKS | st.text(max_size=40))
def test_normalize_is_the_plain_way(line: str) -> None:
    assert orders._normalize(line) == _plain_normalize(line)


def test_an_ascii_block_is_read_without_the_unicode_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = orders.sign(_ALICE, orders.OrderHeader("0123456789ABCDEF", 1, "alice", 1), ["take", "pair 3H 7H"])
    expected = orders.parse(plain, "orders.txt")

    def refused(form: str, text: str) -> str:
        raise AssertionError(f"unicodedata.normalize({text!r})")

    # orders' own name for the module (the module itself is shared: pytest uses it too)
    monkeypatch.setattr(orders, "unicodedata", types.SimpleNamespace(normalize=refused))
    assert orders.parse(plain, "orders.txt") == expected
    assert [line.text for line in expected.lines] == ["take", "pair 3H 7H"]
