"""The shortcuts of a turn's reports (issue 13, sixth session) against the plain way: the
greedy fold against textwrap, the armour test against its definition, members written
directly against canonical JSON, the private part from its template's shape against the
template, and the caches (Symbiote's private text, named text, a game's members) against
the plain computation, with values that must not share an entry."""

from __future__ import annotations

import base64
import hashlib
import os
import textwrap
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import reports as reports_module
from pbem.errors import FormatError
from pbem.game import Event, View
from pbem.keys import Identity, encrypt
from pbem.mailtext import AGE_BEGIN, AGE_END
from pbem.registry import get_game
from pbem.reports import ReportContext, _Turn, private_plaintext
from pbem.wording import WIDTH, fold, for_people

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "200"))

_WORDS = st.sampled_from(["word", "a", "bb", "-", "well-known", "x" * 30, "y" * 75, "Q--R", "é", "\u00a0"])
_GAPS = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", ""])


@st.composite
def _texts(draw: Any) -> str:
    words = draw(st.lists(_WORDS, max_size=25))
    return "".join(w + draw(_GAPS) for w in words).strip(draw(st.sampled_from(["", " ", "x"])))


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    text=_texts(),
    width=st.integers(8, 90),
    initial=st.sampled_from(["", "- ", "    "]),
    subsequent=st.sampled_from(["", "  ", "      "]),
    hyphens=st.booleans(),
)
def test_fold_gives_textwraps_lines(
    text: str, width: int, initial: str, subsequent: str, hyphens: bool
) -> None:
    expected = textwrap.wrap(
        text, width, initial_indent=initial, subsequent_indent=subsequent, break_on_hyphens=hyphens
    )
    assert fold(text, width, initial, subsequent, hyphens) == expected


def test_fold_fills_plain_words_without_textwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The greedy path is taken for plain words (textwrap is not called), lines as textwrap's."""
    text = "Discard pile, bottom to top: " + " ".join(["10H", "JS", "4C", "QD"] * 8)
    expected = textwrap.wrap(text, 68, subsequent_indent="  ", break_on_hyphens=False)

    def refuse(*args: Any, **kwargs: Any) -> list[str]:
        raise AssertionError("textwrap called for plain words")

    monkeypatch.setattr(textwrap, "wrap", refuse)
    assert fold(text, 68, "", "  ", False) == expected
    assert len(expected) > 1


def _defined_plain_armour(block: str) -> bool:
    """The definition the armour test stands for (the first version of it)."""
    lines = reports_module._armour_lines(block)
    if lines is None:
        return False
    body = "\n".join(lines)
    return (
        max(map(len, lines)) <= WIDTH and "\x00" not in body and AGE_BEGIN not in body and AGE_END not in body
    )


def _armour_of(raw: bytes, columns: int = 64) -> str:
    text = base64.b64encode(raw).decode()
    return "\n".join([AGE_BEGIN, *[text[i : i + columns] for i in range(0, len(text), columns)], AGE_END])


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(
    raw=st.binary(max_size=300),
    columns=st.sampled_from([64, 64, 60, 70, 71]),
    edit=st.none()
    | st.tuples(st.integers(0, 500), st.sampled_from([" ", "\n", "\n\n", "\x00", "é", "\t", "-"])),
)
def test_the_armour_test_is_its_definition(raw: bytes, columns: int, edit: tuple[int, str] | None) -> None:
    block = _armour_of(raw, columns)
    if edit is not None:
        at = min(edit[0], len(block))
        block = block[:at] + edit[1] + block[at:]
    fast = reports_module._plain_armour(block)
    assert fast == _defined_plain_armour(block)
    if edit is None and columns == 64 and raw:
        assert fast  # age's own form takes the shortcut


def test_the_armour_test_takes_age_output() -> None:
    card = Identity.generate("reader").public()
    block = encrypt(b"private", [card], pad_to=2048).rstrip()
    assert reports_module._plain_armour(block) and _defined_plain_armour(block)


_MEMBERS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**54), 2**54)
    | st.text(max_size=70)
    | st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)
    | st.lists(st.integers(), max_size=2)
)


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(value=_MEMBERS)
def test_a_member_written_directly_is_its_canonical_json(value: Any) -> None:
    try:
        expected = canonical.dumps(value)
    except FormatError:
        with pytest.raises(FormatError):
            reports_module._member_json(value)
        return
    assert reports_module._member_json(value) == expected


def test_a_member_canonical_json_refuses_is_refused() -> None:
    """The hostile values still meet canonical JSON's checks on the direct path."""
    for bad in ("a\ud800b", 2**53, -(2**53), 1.5):
        with pytest.raises(FormatError):
            reports_module._member_json(bad)


@pytest.fixture(scope="module")
def moderator() -> Identity:
    return Identity.generate("moderator")


class _Press:
    def __init__(self, inbox: dict[int, tuple[str, ...]]) -> None:
        self.data = None
        self.lines = ()
        self.inbox = inbox


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    names=st.lists(st.text(min_size=1, max_size=10), min_size=2, max_size=4, unique=True),
    text=st.text(max_size=60),
    event_texts=st.lists(st.text(max_size=90), max_size=3),
    press=st.none() | st.lists(st.text(max_size=40), max_size=3),
    turn=st.integers(0, 10**6),
)
def test_the_private_part_from_its_shape_is_the_templates(
    moderator: Identity,
    names: list[str],
    text: str,
    event_texts: list[str],
    press: list[str] | None,
    turn: int,
) -> None:
    game = get_game("symbiote")
    ctx = ReportContext(
        "0123456789ABCDEF", turn, turn + 2, tuple(names), tuple(names[:1]), moderator.public(), "c" * 64,
        None, None, {}, press=None if press is None else _Press({1: tuple(press)}),
    )  # fmt: skip
    events = [Event(t, to=(1,)) for t in event_texts] + [Event("public", None), Event("other", to=(0,))]
    view = View("symbiote", 1, {"x": 1}, {"hand": ["AH", text], "n": turn})
    assert _Turn(game, ctx).plaintext(view, events, text) == private_plaintext(game, view, events, ctx, text)


def test_every_shape_of_the_private_template_stands() -> None:
    """The shortcut is taken for each combination (events or not, press or not)."""
    for events in (False, True):
        for press in (False, True):
            shape = reports_module._private_shape(events, press)
            assert shape is not None
            literals, slots = shape
            assert len(literals) == len(slots) + 1
            assert ("events" in slots) == events and ("press" in slots) == press


def test_a_value_that_is_not_a_string_goes_the_template_way(moderator: Identity) -> None:
    class Text(str):
        def rstrip(self, chars: str | None = None) -> str:
            return "what the template's own call gives"

    game = get_game("symbiote")
    ctx = ReportContext(
        "0123456789ABCDEF", 3, 4, ("alice", "bob"), ("alice",), moderator.public(), "c" * 64, None, None, {},
    )  # fmt: skip
    view = View("symbiote", 1, {}, {"hand": []})
    plain = private_plaintext(game, view, [], ctx, Text("text"))
    assert b"what the template's own call gives" in plain
    assert _Turn(game, ctx).plaintext(view, [], Text("text")) == plain


def _symbiote_report() -> Any:
    from pbem_games.symbiote import report

    return report


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    seat=st.integers(0, 3),
    hand=st.lists(st.sampled_from(["AH", "10S", "KD", "2C", "JH", "QS"]), max_size=8),
    drawn=st.none() | st.sampled_from(["AH", "3D"]),
    sets=st.lists(st.sampled_from([["3H", "7H"], ["4D", "6C"], ["JH", "QH", "KH"]]), max_size=2),
)
def test_symbiotes_kept_private_text_is_the_rendered_one(
    seat: int, hand: list[str], drawn: str | None, sets: list[list[str]]
) -> None:
    report = _symbiote_report()
    view = View("symbiote", seat, {}, {"hand": hand, "drawn": drawn, "sets": sets})
    first = report.describe_private(view)
    assert first == report._render_private(view)
    assert report.describe_private(view) == first  # from the cache when kept


def test_symbiotes_private_text_cache_is_not_fooled_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    report = _symbiote_report()

    class Card(str):
        def __str__(self) -> str:
            return "XX"

    plain = View("symbiote", 0, {}, {"hand": ["AH"], "drawn": None, "sets": []})
    other = View("symbiote", 0, {}, {"hand": [Card("AH")], "drawn": None, "sets": []})
    assert report._private_key(other) is None  # not a plain string: never a key
    assert report.describe_private(plain) == report._render_private(plain)
    assert report.describe_private(other) == report._render_private(other)
    assert report._private_key(View("symbiote", True, {}, {"hand": ["AH"]})) is None
    monkeypatch.setattr(report, "_PRIVATE_TEXTS_MAX", 3)
    report._PRIVATE_TEXTS.clear()
    for n in range(10):
        report.describe_private(View("symbiote", n % 4, {}, {"hand": ["AH"] * n}))
        assert len(report._PRIVATE_TEXTS) <= 3


def test_named_text_and_game_members_kept_are_the_plain_ones(moderator: Identity) -> None:
    text = "Player 1 gave player 2 a card; player 12 is no seat.\n" + "long " * 30
    for names in (("alice", "bob"), ["alice", "bob"], ("bob", "alice")):
        assert reports_module._for_people(text, names) == for_people(text, names)
    card = moderator.public()
    for names in (("a", "b"), ["a", "b"], ("b", "a")):
        kept = reports_module._game_members("symbiote", "ID", names, card)
        assert kept == reports_module._encode_game_members("symbiote", "ID", names, card)
        assert kept["names"] == b'"names":' + canonical.dumps(list(names))
    other = Identity.generate("another").public()
    assert (
        reports_module._game_members("symbiote", "ID", ("a",), other)["moderator"]
        != (reports_module._game_members("symbiote", "ID", ("a",), card)["moderator"])
    )


def test_a_turns_reports_digest_as_the_plain_way(
    moderator: Identity, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The word digest continued from the words before the name is the whole prose's."""

    def armour(plain: bytes, recipients: Any, pad_to: int = 0) -> str:
        return _armour_of(hashlib.sha512(plain).digest() * 3) + "\n"

    monkeypatch.setattr(reports_module, "encrypt", armour)
    game = get_game("symbiote")
    from pbem.rng import Rng

    state = game.setup(4, {v.name: v.default for v in game.info.variants}, Rng(b"fast"))
    names = ("alice", "bob", "carol", "dave")
    ctx = ReportContext(
        "0123456789ABCDEF", 1, 2, names, names[:1], moderator.public(), "c" * 64, None, None, {"bob": 3},
    )  # fmt: skip
    views = [game.observe(state, s) for s in range(4)] + [game.observe(state, None)]
    cards = [moderator.public()] * 4
    texts = reports_module.render_reports(game, views, [], ctx, moderator, [*cards, None])
    for text, view, card in zip(texts, views, [*cards, None], strict=True):
        assert text == reports_module.render_report(game, view, [], ctx, moderator, card)
        report = reports_module.parse_report(text, "r.txt", None, moderator.public())
        assert report.data["seat"] == view.seat
