"""What a player reads in the moderator's notices, as a new user met them.

* A refused order file's notice said "correct the lines named above", while the lines are
  named in the encrypted details below the hint.
* The stand-in and abandoned notices broke their sentences with hard line ends, so the
  70-column folding left one word on a line of its own and the sentence going on at column
  0 ("...by the end of the grace\\n  period,\\nso the stand-in played for you").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.moderator.notices import abandoned_notice, open_text, stand_in_notice
from pbem.timing import FixedClock
from pbem.wording import wrap_text

from .modkit import awaited, drop, new_game, order_block


def _message_lines(text: str) -> list[str]:
    """The folded lines of a notice between its header and the encrypted part."""
    lines = text.splitlines()[1:]
    end = next((i for i, line in enumerate(lines) if line.startswith("The details name")), len(lines))
    return lines[:end]


def _sentences_start_lines(text: str) -> None:
    """Every line at column 0 starts a sentence (a capital) or is blank: a folded sentence
    goes on indented, never at column 0 in lower case."""
    for line in _message_lines(text):
        assert not line[:1].islower(), f"a sentence broken at column 0: {line!r}\n{text}"
        assert len(line) <= 70, line


@pytest.mark.parametrize("rest", [False, True])
def test_stand_in_notice_folds_whole_sentences(rest: bool) -> None:
    notice = stand_in_notice("0123456789ABCDEF", 123, "2027-01-01T00:00:00+00:00", "alice", "bot:greedy",
                             ["draw"], 12, 3, rest=rest)  # fmt: skip
    text = wrap_text(notice.render())
    _sentences_start_lines(text)
    flat = " ".join(line.strip() for line in _message_lines(text))
    if rest:
        assert "to finish the go the stand-in began, so the stand-in finished it at once: the greedy" in flat
    else:
        assert "by the end of the grace period, so the stand-in played for you: the greedy bot." in flat


def test_abandoned_notice_folds_whole_sentences() -> None:
    notice = abandoned_notice(
        "0123456789ABCDEF", 123, "2027-01-01T00:00:00+00:00", "default", 12, "consecutive"
    )
    text = wrap_text(notice.render())
    _sentences_start_lines(text)
    flat = " ".join(line.strip() for line in _message_lines(text))
    assert "as many as this game allows, so your seat is marked abandoned as of turn 123." in flat


def test_refused_orders_notice_points_below_to_the_lines(
    root: Path, keys: dict[str, Identity], clock: FixedClock
) -> None:
    game = new_game(root, keys, "g1")
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0)
    mod.run_pass()
    [name] = awaited(game)
    drop(game, name, "o.txt", order_block(game, keys, name, lines=["draw", "discard ZZ"]))
    mod.run_pass()
    [notice] = sorted((game / "players" / name).glob("notice-*"))
    text = notice.read_text(encoding="utf-8")
    assert "REJECTED" in text and "named above" not in text
    flat = " ".join(line.strip() for line in text.splitlines())
    assert "correct the lines named in the encrypted details below, sign again and resend" in flat
    opened = open_text(text, keys[name])
    assert opened.index("What to do:") < opened.index("----- encrypted details -----")
    assert "discard ZZ" in opened.split("----- encrypted details -----")[1]  # the line is named there
