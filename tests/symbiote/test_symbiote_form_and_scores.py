"""Issue 12: the form shows each discard's effect after `take` too; the final report shows
each score with its breakdown."""

from __future__ import annotations

from sym_helpers import make_state, view_of

from pbem_games.symbiote import GAME
from pbem_games.symbiote.forms import discard_effect
from pbem_games.symbiote.rules import score


def test_form_shows_each_discard_effect_after_take() -> None:
    state = make_state([["2D", "3D", "4D"], ["5H", "9C", "KS"], ["6S", "8S", "QD"]], discard=["4H", "7C"])
    view = view_of(state)
    form = GAME.order_form(view)
    at = form.index("# After take, it lands on 4H instead:")
    after = form[at + 1 : at + 4]
    assert after == [f"#   discard {c:<4} ({discard_effect(view, c, '4H')})" for c in ("5H", "9C", "KS")]
    # The effects differ from those onto the top card, so the block says something new.
    assert "#   discard 5H   (the marker stays)" in form[:at]
    assert after[0] != "#   discard 5H   (the marker stays)"


def test_form_without_take_has_no_after_take_block() -> None:
    state = make_state([["2D"], ["5H", "9C"], ["6S"]], discard=[])
    assert not any("After take" in line for line in GAME.order_form(view_of(state)))


def _final(parasite: bool) -> dict:
    sets = [[["3H", "7H"], ["JH", "QH", "KH"]], [["2C", "8C"]], []]
    state = make_state([[], [], []], sets=sets, host=0, parasite=parasite, deck=[])
    state["phase"] = "over"
    state["scores"] = score(state)
    state["winners"] = [0]
    return state


def test_final_report_breaks_each_score_down() -> None:
    public = GAME.describe(view_of(_final(False), None))[0]
    assert "player 1: 12 = 10 from 2 sets + 2 symbiote bonus (+1 a set)" in public
    assert "player 2: 4 = 4 from 1 set\n" in public and "player 3: 0 = 0 from 0 sets" in public
    public = GAME.describe(view_of(_final(True), None))[0]
    assert "player 1: 8 = 10 from 2 sets - 2 parasite penalty (-1 a set)" in public
    assert all(len(line) < 72 for line in public.splitlines())


def test_reports_before_the_end_show_no_scores() -> None:
    public = GAME.describe(view_of(make_state([["2D"], ["5H"], ["6S"]]), None))[0]
    assert "Scores" not in public
