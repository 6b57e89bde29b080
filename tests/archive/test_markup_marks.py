"""Markup review (eleventh session): a player's text with hundreds of combining marks on one
letter ("Zalgo" text) is drawn up over the lines above it; in the archive's press section
the first line of a letter covered its own "Message 2, from bob to all:" header.  Now
:func:`pbem.inputs.visible` (press and order lines in the archive, letters read, notices)
shows marks past :data:`pbem.inputs.MAX_MARKS` in a row as escapes; the few that writing
needs stay.
"""

from __future__ import annotations

import os
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.inputs import FORGING, HIDDEN_CATEGORIES, MAX_MARKS, visible

FUZZ = settings(max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "200")), deadline=None)
ZALGO = "H" + "\u0336\u030d\u030e\u0304\u0305\u033f\u0311\u0306\u0310\u0352" * 30 + "ello"


def _longest_run(text: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        longest = max(longest, run)
    return longest


def test_zalgo_keeps_a_few_marks_and_shows_the_rest_as_escapes() -> None:
    shown = visible(ZALGO)
    assert _longest_run(shown) == MAX_MARKS
    assert shown.startswith("H\u0336\u030d\u030e\u0304\u0305\\u033f\\u0311")
    assert shown.endswith("ello")


def test_writing_that_needs_marks_is_left_as_it_is() -> None:
    for text in (
        unicodedata.normalize("NFD", "Tiếng Việt: người, chữ, nghĩa"),
        "\u05e9\u05c1\u05bc\u05b8\u05c1\u0591 \u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd",  # pointed Hebrew
        "\u0f56\u0f66\u0f92\u0fb2\u0f74\u0f56\u0f66",  # Tibetan stack
        "e\u20dd and a\u0301\u0302\u0303\u0304\u0305",  # an enclosing mark; five marks
    ):
        assert visible(text) == text


def _hidden(c: str) -> bool:
    return c in FORGING or (c != "\t" and unicodedata.category(c) in HIDDEN_CATEGORIES)


@FUZZ
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_what_is_shown_has_no_long_run_of_marks_and_nothing_hidden(text: str) -> None:
    shown = visible(text)
    assert _longest_run(shown) <= MAX_MARKS
    assert not any(_hidden(c) for c in shown)
    clean = _longest_run(text) <= MAX_MARKS and not any(_hidden(c) for c in text)
    assert (shown == text) == clean, "a text with nothing to hide is shown as it is, any other is not"


@FUZZ
@given(st.text(alphabet=st.sampled_from("a\u0301\u0336\u20dd "), max_size=60))
def test_runs_of_marks_are_cut_at_the_limit(text: str) -> None:
    assert _longest_run(visible(text)) == min(_longest_run(text), MAX_MARKS)
