"""Issue 12: one order round per phase (option order-rounds=phase), each phase written after
seeing the previous phase's result; the default stays one order file per turn."""

from __future__ import annotations

from typing import Any

import pytest
from symbioz_helpers import BLUE, RED, YELLOW, lines, orders_for, position

from pbem.game import IllegalOrderError, OrderErrors, OrderLine
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import PHASE_VERBS, options_of

PHASE = {"order-rounds": "phase"}
COUNTS = ("zerbs", "crapits", "kroguls", "symbioz", "supply", "turn", "first", "over", "winners")


def phased(phase: int, **kwargs: Any) -> dict[str, Any]:
    """A position in phase mode whose order round is ``phase``."""
    state = position(options=PHASE, **kwargs)
    state["phase"] = phase
    return state


def resolve(state: dict[str, Any], written: dict[int, list[str]] | None = None) -> Any:
    """Resolve the awaited order round; seats not in ``written`` send an empty file."""
    written = written or {}
    orders = {seat: orders_for(state, seat, *written.get(seat, ())) for seat in GAME.to_act(state)}
    return GAME.resolve(state, orders, Rng(b"phase"))


def test_the_default_is_one_order_round_per_turn() -> None:
    state = GAME.setup(3, {}, Rng(b"s"))
    assert options_of(state)["order-rounds"] == "turn" and "phase" not in state
    assert sorted(GAME.to_act(state)) == [0, 1, 2]
    after = resolve(state).state
    assert after["turn"] == 2, "one resolution plays the whole turn"
    old = dict(state, options={k: v for k, v in state["options"].items() if k != "order-rounds"})
    assert options_of(old)["order-rounds"] == "turn", "games saved before the option play on as they were"


def test_round_one_starts_with_multiplication_and_reads_only_grow_orders() -> None:
    state = GAME.setup(3, PHASE, Rng(b"s"))
    assert state["phase"] == 2 and state["turn"] == 1, "round 1 has no introduction"
    view = GAME.observe(state, YELLOW)
    assert view.public["phase"] == 2
    with pytest.raises(OrderErrors) as caught:
        GAME.validate(view, lines("grow C1 -> C1", "crapit C1 eat red"))
    [error] = caught.value.errors
    assert isinstance(error, IllegalOrderError) and error.line is not None and error.line.number == 2
    assert "phase 2 (multiplication): only grow orders" in str(error)
    assert "crapit orders are written in the Crapits phase's own round" in str(error)
    assert GAME.validate(view, lines("grow C1 -> C1"))["grow"]


def test_each_phase_is_written_after_seeing_the_previous_one() -> None:
    # Yellow holds 7 Zerbs in C2: 1 newborn at the start of the turn, 2 once it buys one.
    zerbs = {"C2": {YELLOW: 7}, "C6": {RED: 4}, "C10": {BLUE: 4}}
    state = phased(1, players=3, zerbs=zerbs)
    turn_form = GAME.order_form(GAME.observe(position(players=3, zerbs=zerbs), YELLOW))
    assert "#    C2: 7 Zerbs, 1 newborn -> C2 1, B1 1, B2 1, C1 1, C3 1" in turn_form
    intro_form = GAME.order_form(GAME.observe(state, YELLOW))
    assert not any(x.startswith("# 2. Multiplication") for x in intro_form), "only this phase"
    after = resolve(state, {YELLOW: ["buy 1 zerb C2"]})
    new = after.state
    assert new["phase"] == 2 and new["turn"] == 2 and new["zerbs"]["C2"][YELLOW] == 8
    form = GAME.order_form(GAME.observe(new, YELLOW))
    assert any(x.startswith("#    C2: 8 Zerbs, 2 newborns") for x in form), "the form sees the purchase"
    assert not any(x.startswith("# 1. Introduction") for x in form)
    grown = resolve(new, {YELLOW: ["grow C2 -> B1 B2"]}).state
    assert grown["zerbs"]["B1"][YELLOW] == 1 and grown["zerbs"]["B2"][YELLOW] == 1


def test_only_seats_with_a_choice_are_asked_and_empty_phases_get_no_round() -> None:
    zerbs = {"C2": {YELLOW: 8}, "C6": {RED: 4}, "C10": {BLUE: 2}, "C9": {BLUE: 1}}
    state = phased(2, players=3, zerbs=zerbs, kroguls={"C6": {RED: 1}}, crapits={"C6": {YELLOW: 1}})
    assert GAME.to_act(state) == (YELLOW, RED), "Blue has no square that breeds"
    after = resolve(state)
    assert after.state["phase"] == 3 and GAME.to_act(after.state) == (RED,), "only Red has a Krogul"
    form = GAME.order_form(GAME.observe(after.state, YELLOW))
    assert form[-1] == "# You have nothing to decide in this phase: no orders."
    # Red's Krogul eats Yellow's only Crapit: nobody has a Crapit, so phase 4 has no round
    # and the resolution goes on to round 3's introduction.
    last = resolve(after.state, {RED: ["krogul C6 eat yellow"]})
    text = "\n".join(e.text for e in last.events)
    assert "Round 2, phase 4 of 4: Crapits (crapit orders): no order round, nobody has" in text
    assert last.state["phase"] == 1 and last.state["turn"] == 3


def test_reports_and_forms_say_round_and_phase_never_a_second_turn() -> None:
    state = phased(3, players=3, zerbs={"C2": {YELLOW: 4}}, kroguls={"C2": {YELLOW: 1}})
    text = GAME.describe(GAME.observe(state, YELLOW))[0]
    assert "SYMBIOZ - round 2 of 12, phase 3 of 4: Kroguls (krogul orders)" in text
    assert "Play order this round:" in text and "10 points a round" in text
    assert "turn 2" not in text.lower(), "the pbem turn is the only turn"
    assert "one order round per phase" in text
    form = GAME.order_form(GAME.observe(state, YELLOW))
    assert form[0].startswith("# Symbioz, round 2 of 12, phase 3 of 4: Kroguls")
    assert all(len(x) < 72 for x in form) and not any("turn 2" in x for x in form)
    plain = GAME.describe(GAME.observe(position(players=3, zerbs={"C2": {YELLOW: 4}}), YELLOW))[0]
    assert "SYMBIOZ - turn 2 of 12" in plain and "round" not in plain


def test_the_last_round_ends_the_game_in_rounds() -> None:
    state = phased(4, players=2, zerbs={"C2": {YELLOW: 5}, "C5": {RED: 4}}, crapits={"C5": {YELLOW: 1}})
    state["turn"] = 12
    end = resolve(state).state
    assert end["over"] and "phase" not in GAME.observe(end, None).public
    assert "round 12 played" in end["result"]
    assert "game over after round 12 of 12" in GAME.describe(GAME.observe(end, None))[0]


def _split(written: list[str], state: dict[str, Any], seat: int) -> Any:
    """The lines of ``written`` for the phase of ``state``, each kept if the phase's view
    accepts it; only orders for animals eaten earlier in the turn may be refused."""
    verb = PHASE_VERBS[state["phase"] - 1]
    view = GAME.observe(state, seat)
    kept = []
    for text in written:
        if text.split()[0] != verb:
            continue
        try:
            GAME.validate(view, [OrderLine(1, text)])
        except OrderErrors as exc:
            assert verb == "crapit" and "you have no Crapit" in str(exc), exc
            continue
        kept.append(text)
    return GAME.validate(view, lines(*kept))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_phase_rounds_play_the_same_game_as_whole_turns(players: int) -> None:
    """The same choices give the same game: a whole turn's files, cut into their phases,
    leave the same position after every round."""
    for seed in range(8):
        whole = GAME.setup(players, {"purchase-limit": "none"}, Rng(b"same/%d" % seed))
        cut = dict(whole, options={**whole["options"], "order-rounds": "phase"}, phase=2)
        while not whole["over"]:
            written = {
                seat: GAME.bots["random"](GAME, GAME.observe(whole, seat), Rng(b"w/%d/%d" % (seed, seat)))
                for seat in GAME.to_act(whole)
            }
            orders = {seat: orders_for(whole, seat, *texts) for seat, texts in written.items()}
            round_ = whole["turn"]
            whole = GAME.resolve(whole, orders, Rng(b"x")).state
            while cut["turn"] == round_ and not cut["over"]:
                split = {seat: _split(written[seat], cut, seat) for seat in GAME.to_act(cut)}
                cut = GAME.resolve(cut, split, Rng(b"x")).state
            if cut["over"] and not whole["over"]:
                # Nobody had a choice left, so every later phase was played at once: so are
                # the remaining whole turns, whatever would have been written.
                while not whole["over"]:
                    whole = GAME.resolve(whole, {}, Rng(b"x")).state
            assert {k: cut[k] for k in COUNTS} == {k: whole[k] for k in COUNTS}, (seed, round_)
