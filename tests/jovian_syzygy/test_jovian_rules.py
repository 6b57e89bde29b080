"""Scenario tests: one position, one round of orders, the outcome, for every rule and ruling."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from jov_helpers import make_state, orders_for, play_round, rng_with_coins, texts

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board
from pbem_games.jovian_syzygy.lines import Body, any_syzygy
from pbem_games.jovian_syzygy.rules import _centres_aligned, award_for, best_line_at, bodies_key, moved

# Satellites that, after moving, all sit in their first segment: a radial line from Callisto
# through Ganymede, Europa and Io into Jupiter is possible (see test_jovian_lines for geometry).
ALIGNING = [2, 5, 11, 27]


# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup(players: int) -> None:
    state = GAME.setup(players, {"corners": "dealt"}, Rng(b"setup%d" % players))
    assert state["psi"] == [3] * players
    assert len(set(state["where"])) == players and set(state["where"]) <= set(board.CORNERS)
    assert 0 <= state["first"] < players
    assert not _centres_aligned(state["sats"])
    assert state["storms"] == {} and state["last_gain"] == [None] * players


def test_setup_draws_vary_first_player_and_corners() -> None:
    firsts = {GAME.setup(4, {}, Rng(b"s%d" % i))["first"] for i in range(40)}
    corners = {GAME.setup(4, {"corners": "dealt"}, Rng(b"s%d" % i))["where"][0] for i in range(40)}
    assert firsts == {0, 1, 2, 3} and corners == set(board.CORNERS)


def test_setup_check_defaults_to_the_literal_centres_reading() -> None:
    """Ruling 11: the default keeps the first draw (no three centres in line on this board),
    so positions the 'slide' check would redraw do occur."""
    assert GAME.setup(2, {}, Rng(b"c"))["options"]["setup-check"] == "centres"
    drawn = [GAME.setup(2, {}, Rng(b"c%d" % i))["sats"] for i in range(12)]
    assert any(any_syzygy([Body(*k) for k in bodies_key(sats)]) for sats in drawn)
    everything = [[a, b, c, d] for a in range(3) for b in range(6) for c in range(12) for d in range(28)]
    assert not any(_centres_aligned(sats) for sats in everything)


def test_setup_slide_check_option() -> None:
    for i in range(4):
        state = GAME.setup(2, {"setup-check": "slide"}, Rng(b"s%d" % i))
        assert not any_syzygy([Body(*k) for k in bodies_key(state["sats"])])


def test_setup_refuses_bad_counts_and_options() -> None:
    with pytest.raises(ValueError):
        GAME.setup(5, {}, Rng(b"x"))
    with pytest.raises(ValueError):
        GAME.setup(1, {"solo": "forever"}, Rng(b"x"))
    with pytest.raises(ValueError):
        GAME.setup(2, {"max-rounds": -1}, Rng(b"x"))


# --- moving ----------------------------------------------------------------------------------


def test_move_one_space_is_free() -> None:
    state = make_state(["NE", "SW"])
    new = play_round(state, {0: ["move D-1"]}).state
    assert new["where"] == ["D-1", "SW"] and new["psi"][0] == 3


def test_extra_moves_cost_one_psi_each() -> None:
    state = make_state(["NE", "SW"])
    new = play_round(state, {0: ["move D-1 C-1 B-1"]}).state
    assert new["where"][0] == "B-1" and new["psi"][0] == 1


def test_cannot_spend_psi_you_do_not_have() -> None:
    state = make_state(["NE", "SW"], psi=[1, 3])
    with pytest.raises(OrderErrors) as info:
        orders_for(state, 0, "move D-1", "move C-1", "move B-1")
    (err,) = info.value.errors
    assert err.kind == "illegal" and err.line is not None and err.line.number == 3 and "Psi" in err.message


def test_board_a_satellite_from_an_adjacent_space() -> None:
    state = make_state(["NE", "SW"], sats=[0, 0, 0, 3])
    new = play_round(state, {0: ["board callisto"]}).state
    assert new["where"][0] == "callisto"
    # Carried along when the satellites move.
    assert new["sats"][3] == 4


def test_cannot_board_a_satellite_whose_segment_is_not_adjacent() -> None:
    state = make_state(["NE", "SW"], sats=[0, 0, 0, 10])
    with pytest.raises(OrderErrors) as info:
        orders_for(state, 0, "board callisto")
    assert info.value.errors[0].kind == "illegal"


def test_from_a_satellite_step_into_any_space_bordering_its_segment() -> None:
    state = make_state(["ganymede", "SW"], sats=[0, 0, 1, 0])
    # Ganymede segment 2 (30-60 degrees) borders C-1 (inside) and D-2 (outside).
    assert set(board.spaces_by_segment("ganymede", 1)) == {"C-1", "D-2"}
    new = play_round(state, {0: ["leave ganymede to C-1"]}).state
    assert new["where"][0] == "C-1" and new["psi"][0] == 3
    with pytest.raises(OrderErrors):
        orders_for(state, 0, "leave to D-5")


def test_off_the_satellite_you_may_spend_for_more_moves() -> None:
    state = make_state(["ganymede", "SW"], sats=[0, 0, 1, 0])
    new = play_round(state, {0: ["leave to C-1", "move B-1"]}).state
    assert new["where"][0] == "B-1" and new["psi"][0] == 2


def test_no_extra_move_while_on_a_satellite() -> None:
    state = make_state(["NE", "SW"], sats=[0, 0, 0, 3])
    with pytest.raises(OrderErrors) as info:
        orders_for(state, 0, "board callisto", "leave to D-1")
    assert "off a satellite" in info.value.errors[0].message


def test_ride_stays_aboard_and_is_the_whole_move() -> None:
    state = make_state(["europa", "SW"], sats=[0, 2, 0, 0])
    new = play_round(state, {0: ["ride"]}).state
    assert new["where"][0] == "europa" and new["sats"][1] == 3
    with pytest.raises(OrderErrors):
        orders_for(state, 0, "leave to C-3", "ride")


def test_ride_push_variant_moves_the_satellite_at_once() -> None:
    state = make_state(["europa", "C-4"], sats=[0, 2, 0, 0], ride="push")
    # Player 2 plans to board Europa in segment 3 (bordering C-4? no: C-3); use a bordering space.
    state["where"][1] = "C-3"
    res = play_round(state, {0: ["ride"], 1: ["board europa"]})
    new = res.state
    # Europa was pushed to segment 4 by player 1, so player 2 could not board; then it moved on.
    assert new["sats"][1] == 4 and new["where"] == ["europa", "C-3"]
    assert any("cannot board europa" in t for t in texts(res))


def test_ride_order_is_refused_off_a_satellite() -> None:
    state = make_state(["NE", "SW"])
    with pytest.raises(OrderErrors):
        orders_for(state, 0, "ride")


# --- storms ----------------------------------------------------------------------------------


def test_storm_goes_in_your_space_once_per_turn() -> None:
    state = make_state(["NE", "SW"])
    new = play_round(state, {0: ["storm", "move D-1"]}).state
    assert new["storms"] == {"NE": 1} and new["where"][0] == "D-1"
    with pytest.raises(OrderErrors):
        orders_for(state, 0, "storm", "move D-1", "storm")


def test_no_storm_from_a_satellite() -> None:
    state = make_state(["callisto", "SW"])
    with pytest.raises(OrderErrors) as info:
        orders_for(state, 0, "storm")
    assert "off a satellite" in info.value.errors[0].message


def test_heads_removes_the_storm_and_the_move_goes_on() -> None:
    state = make_state(["NE", "SW"], storms={"D-1": 1})
    res = play_round(state, {0: ["move D-1"]}, rng_with_coins(True))
    assert res.state["where"][0] == "D-1" and res.state["storms"] == {}
    assert any("heads" in t for t in texts(res))


def test_tails_keeps_the_storm_and_wastes_the_move() -> None:
    state = make_state(["NE", "SW"], storms={"D-1": 1})
    res = play_round(state, {0: ["move D-1 C-1"]}, rng_with_coins(False))
    assert res.state["where"][0] == "NE" and res.state["storms"] == {"D-1": 1}
    assert res.state["psi"][0] == 3  # stopped: the paid second move never happened
    assert any("tails" in t for t in texts(res)) and any("wasted" in t for t in texts(res))


def test_each_storm_is_flipped_in_turn() -> None:
    state = make_state(["NE", "SW"], storms={"D-1": 3})
    res = play_round(state, {0: ["move D-1"]}, rng_with_coins(True, False))
    assert res.state["where"][0] == "NE" and res.state["storms"] == {"D-1": 2}
    flips = [t for t in texts(res) if "flips" in t]
    assert len(flips) == 2  # the third storm is not flipped once the move is wasted
    res = play_round(state, {0: ["move D-1"]}, rng_with_coins(True, True, True))
    assert res.state["where"][0] == "D-1" and res.state["storms"] == {}


def test_your_own_storm_also_stops_you() -> None:
    state = make_state(["D-1", "SW"], psi=[3, 3])
    res = play_round(state, {0: ["storm", "move NE", "move D-1"]}, rng_with_coins(False))
    assert res.state["where"][0] == "NE" and res.state["storms"] == {"D-1": 1} and res.state["psi"][0] == 2


def test_boarding_never_flips() -> None:
    state = make_state(["NE", "SW"], sats=[0, 0, 0, 3], storms={"NE": 2})
    res = play_round(state, {0: ["board callisto"]}, rng_with_coins(False))
    assert res.state["where"][0] == "callisto" and not any("flips" in t for t in texts(res))


def test_fallback_route_after_a_wasted_move() -> None:
    state = make_state(["NE", "SW"], storms={"D-1": 1})
    res = play_round(state, {0: ["move D-1", "if wasted: try D-2"]}, rng_with_coins(False))
    assert res.state["where"][0] == "D-2" and res.state["psi"][0] == 2
    assert any("fallback" in t for t in texts(res))


def test_fallback_wasted_too_ends_the_turn() -> None:
    state = make_state(["NE", "SW"], storms={"D-1": 1, "D-2": 1})
    res = play_round(state, {0: ["move D-1", "if wasted: try D-2, move C-1"]}, rng_with_coins(False, False))
    assert res.state["where"][0] == "NE" and res.state["psi"][0] == 2


def test_an_earlier_players_storm_wastes_a_later_move() -> None:
    state = make_state(["D-1", "NE"], first=0)
    res = play_round(state, {0: ["storm", "move C-1"], 1: ["move D-1"]}, rng_with_coins(False))
    assert res.state["where"] == ["C-1", "NE"]


def test_fallback_stop_is_the_default_and_can_be_written() -> None:
    state = make_state(["NE", "SW"])
    assert orders_for(state, 0, "move D-1", "if wasted: stop") == {
        "steps": [["move", "D-1"]],
        "fallback": None,
    }


def test_psi_never_goes_below_zero_even_in_a_fallback() -> None:
    state = make_state(["NE", "SW"], psi=[1, 3], storms={"D-2": 1})
    res = play_round(state, {0: ["move D-1 D-2", "if wasted: try D-3"]}, rng_with_coins(False))
    assert res.state["psi"][0] == 0 and res.state["where"][0] == "D-1"
    assert any("cannot" in t for t in texts(res))


# --- satellites and Psi ----------------------------------------------------------------------


def test_satellites_move_clockwise_and_wrap() -> None:
    state = make_state(["NE"], sats=[2, 5, 11, 27])
    assert play_round(state, {}).state["sats"] == [0, 0, 0, 0]


def test_award_for_the_best_line_with_eclipse() -> None:
    state = make_state(["callisto", "io", "europa", "NE"], sats=ALIGNING)
    res = play_round(state, {})
    after = moved(ALIGNING)
    expected = [best_line_at(after, m) for m in ("callisto", "io", "europa")]
    assert all(line is not None for line in expected)
    assert res.state["psi"][:3] == [3 + line.value for line in expected if line]
    assert expected[0] is not None and expected[0].eclipse and len(expected[0].moons) == 4
    assert res.state["psi"][3] == 3
    assert res.state["last_gain"] == ["callisto", "io", "europa", None]
    assert res.state["awards"][0]["eclipse"] is True


def test_same_satellite_as_last_gain_gives_one() -> None:
    state = make_state(["callisto", "callisto"], sats=ALIGNING, last_gain=["callisto", "io"])
    new = play_round(state, {}).state
    assert new["psi"] == [4, 3 + award_for(moved(ALIGNING), "callisto", None)[0]]
    assert new["awards"][0]["same"] is True


def test_no_line_no_award_and_last_gain_kept() -> None:
    sats = None
    for i in range(1000):
        cand = [i % 3, (i // 3) % 6, (i // 18) % 12, (i * 7) % 28]
        if best_line_at(moved(cand), "callisto") is None:
            sats = cand
            break
    assert sats is not None
    state = make_state(["callisto"], sats=sats, last_gain=["io"])
    new = play_round(state, {}).state
    assert new["psi"] == [3] and new["last_gain"] == ["io"] and new["awards"] == [None]


def test_first_player_moves_left_each_round() -> None:
    state = make_state(["NE", "SE", "SW"], first=2)
    res = play_round(state, {})
    assert res.state["first"] == 0
    order = [t.split()[1] for t in texts(res) if t.endswith("does nothing.")]
    assert order == ["3", "1", "2"]


# --- the end ---------------------------------------------------------------------------------


def test_more_than_fifteen_ends_and_all_above_win() -> None:
    state = make_state(["callisto", "io", "NE"], sats=ALIGNING, psi=[12, 14, 16])
    new = play_round(state, {}).state
    outcome = GAME.outcome(new)
    assert new["over"] and outcome is not None
    assert set(outcome.winners) == {s for s, p in enumerate(new["psi"]) if p > 15}
    assert GAME.to_act(new) == ()


def test_exactly_fifteen_does_not_end() -> None:
    state = make_state(["NE", "SW"], psi=[15, 15])
    assert not play_round(state, {}).state["over"]


def test_solo_timed_lasts_twenty_five_rounds() -> None:
    state = make_state(["NE"], psi=[30], rounds_played=23, solo="timed")
    new = play_round(state, {}).state
    assert not new["over"]
    new = play_round(new, {}).state
    outcome = GAME.outcome(new)
    assert new["over"] and outcome is not None and outcome.winners == (0,) and outcome.scores == (30,)


def test_solo_scored_ends_on_reaching_twenty() -> None:
    state = make_state(["callisto"], sats=ALIGNING, psi=[14], solo="scored")
    new = play_round(state, {}).state
    assert new["psi"][0] == 20 and new["over"]
    outcome = GAME.outcome(new)
    assert outcome is not None and outcome.winners == (0,) and "in 1 round" in outcome.summary
    state = make_state(["NE"], psi=[25], solo="scored")
    assert play_round(state, {}).state["over"]  # more than 20 already: the first round's end


def test_round_cap_ends_with_no_winner_by_default() -> None:
    """Ruling 12: only players above 15 Psi win, so the cap ends the game without a winner."""
    options: dict[str, Any] = {"max-rounds": 10}
    state = make_state(["NE", "SW", "SE"], psi=[5, 7, 7], rounds_played=9, **options)
    res = play_round(state, {})
    outcome = GAME.outcome(res.state)
    assert res.state["over"] and outcome is not None and outcome.winners == ()
    assert "no winner" in outcome.summary and "7 Psi" in outcome.summary
    assert outcome.scores == (5, 7, 7)
    assert any("no winner" in e.text for e in res.events)


def test_round_cap_option_highest_psi_wins() -> None:
    options: dict[str, Any] = {"max-rounds": 10, "at-cap": "highest"}
    state = make_state(["NE", "SW", "SE"], psi=[5, 7, 7], rounds_played=9, **options)
    new = play_round(state, {}).state
    outcome = GAME.outcome(new)
    assert new["over"] and outcome is not None and outcome.winners == (1, 2)


def test_above_fifteen_at_the_cap_still_wins() -> None:
    options: dict[str, Any] = {"max-rounds": 10}
    state = make_state(["NE", "SW"], psi=[16, 7], rounds_played=9, **options)
    outcome = GAME.outcome(play_round(state, {}).state)
    assert outcome is not None and outcome.winners == (0,)


def test_at_cap_option_is_checked() -> None:
    with pytest.raises(ValueError):
        GAME.setup(2, {"at-cap": "everyone"}, Rng(b"x"))


def test_resolve_does_not_change_its_input() -> None:
    state = make_state(["NE", "callisto"], sats=ALIGNING, storms={"D-1": 2})
    before = copy.deepcopy(state)
    orders = {0: orders_for(state, 0, "storm", "move D-1 D-2"), 1: orders_for(state, 1, "ride")}
    GAME.resolve(state, orders, rng_with_coins(True, True))
    assert json.dumps(state, sort_keys=True) == json.dumps(before, sort_keys=True)


def test_resolving_a_finished_game_is_refused() -> None:
    state = make_state(["NE"])
    state["over"] = True
    with pytest.raises(ValueError):
        GAME.resolve(state, {}, Rng(b"x"))


def test_max_extra_moves_option_limits_paid_moves() -> None:
    options: dict[str, Any] = {"max-extra-moves": 1}
    state = make_state(["NE", "SW"], psi=[3, 3], **options)
    assert orders_for(state, 0, "move D-1 C-1")["steps"][-1] == ["move", "C-1"]
    with pytest.raises(OrderErrors) as info:
        orders_for(state, 0, "move D-1 C-1 B-1")
    assert "at most 1 extra" in info.value.errors[0].message
    with pytest.raises(ValueError):
        GAME.setup(2, {"max-extra-moves": -2}, Rng(b"x"))


def test_a_step_made_impossible_by_an_earlier_player_takes_the_fallback() -> None:
    state = make_state(["europa", "C-3"], sats=[0, 2, 0, 0], ride="push", first=0)
    res = play_round(state, {0: ["ride"], 1: ["board europa", "if wasted: try C-4"]})
    # The impossible boarding was not a move, so the fallback's move is the free first one.
    assert res.state["where"] == ["europa", "C-4"] and res.state["psi"][1] == 3
    assert any("cannot board europa" in t for t in texts(res))
