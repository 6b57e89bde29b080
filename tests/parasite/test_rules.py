"""Scenario tests for the rules and rulings that only the property games covered: the variants,
the Dog, revive, infection priority, the end-game abilities, Test Results, several Events at
once, small decks, the end with all dead and the Leader's tie-breaks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from para_helpers import asked, edit, file, lines, new_game, texts

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.parasite import GAME, rules
from pbem_games.parasite.cards import LOCATION_DECKS, load_cards

CARDS = load_cards()
State = dict[str, Any]


def _set(**fields: Any):
    """A change that sets state fields (``hands_1=[...]`` sets seat 1's hand)."""

    def change(s: State) -> None:
        for key, value in fields.items():
            name, _, seat = key.rpartition("_")
            if seat.isdigit():
                s[name][int(seat)] = value
            else:
                s[key] = value

    return change


def _run(state: State, answers: dict[str, list[str]] | None = None, until: int = 40) -> State:
    """Answer every question with the seat's default orders (or ``answers[kind]`` for the
    first question of that kind) until seat 1's Turn or ``until`` questions."""
    answers = dict(answers or {})
    for _ in range(until):
        if state["over"]:
            return state
        seats, kind = asked(state)
        if kind == "turn" and seats != (0,):
            return state
        orders = {}
        for seat in seats:
            view = GAME.observe(state, seat)
            text = answers.pop(kind) if kind in answers else GAME.default_orders(view)
            orders[seat] = GAME.validate(view, lines(text))
        state = GAME.resolve(state, orders, Rng(b"run")).state
    return state


# ---------------------------------------------------------------------------- Events in order


def test_several_events_drawn_at_once_resolve_in_the_order_the_player_chooses() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "staff-meeting", "team-spirit"]))
    edit(s, _set(health_0="distressed"))
    result = file(s, {0: ["move office"]})
    assert asked(result.state) == ((0,), "first")
    assert GAME.observe(result.state, 0).private["ask"]["cards"] == ["team-spirit", "staff-meeting"]
    assert "ask" not in GAME.observe(result.state, 1).private
    form = GAME.order_form(GAME.observe(result.state, 0))
    assert any("first staff-meeting" in line for line in form)
    after = file(result.state, {0: ["first staff-meeting"]})
    told = texts(after)
    meeting = next(i for i, t in enumerate(told) if "Event Staff Meeting" in t)
    spirit = next(i for i, t in enumerate(told) if "Event Team Spirit" in t)
    assert meeting < spirit, "the Event named first resolves first"
    state = after.state
    # Staff Meeting first moved everyone to the Office, so Team Spirit healed them all there
    assert set(state["loc"]) == {"office"} and state["health"][0] == "healthy"
    assert state["drawing"] == [] and Counter(state["discards"]["office"]) >= Counter(
        ["staff-meeting", "team-spirit"]
    )


def test_the_other_order_gives_another_position_and_a_bad_answer_is_refused() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "staff-meeting", "team-spirit"]))
    edit(s, _set(health_1="distressed"))
    result = file(s, {0: ["move office"]})
    with pytest.raises(OrderErrors, match="not one of the Events waiting"):
        GAME.validate(GAME.observe(result.state, 0), lines(["first pep-talk"]))
    state = file(result.state, {0: ["first team-spirit"]}).state
    # Team Spirit first healed only those in the Office (player 1 alone); player 2 stays Distressed
    assert state["health"][1] == "distressed" and set(state["loc"]) == {"office"}


def test_identical_events_need_no_choice() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "staff-meeting", "staff-meeting"]))
    state = file(s, {0: ["move office"]}).state
    assert asked(state)[1] != "first"


def _from(s: State, proc: dict[str, Any], answers: list[dict[str, Any]] | None = None) -> State:
    """Run the game on from procedure ``proc`` of position ``s`` (its question dropped)."""
    base = {**s, "proc": proc, "pending": None}
    return rules._advance(base, answers or [], "00" * 16, 0, Rng(b"from"), []).state


def _answer(state: State, orders: dict[int, list[str]]) -> State:
    return file(state, orders).state


# ---------------------------------------------------------------------------- variants


def test_untidy_mixes_each_location_deck_12_of_its_own_and_6_of_each_other() -> None:
    s = new_game(4, untidy=True)
    for deck in LOCATION_DECKS:
        pile = list(s["decks"][deck]) + list(s["discards"][deck])
        for seat, char in enumerate(s["chars"]):
            pile += [
                card
                for card, home in zip(s["hands"][seat], CARDS.character(char).starting, strict=False)
                if home == deck
            ]
        origins = Counter(CARDS.cards[c].deck for c in pile)
        assert len(pile) == 24
        assert origins == Counter({d: 12 if d == deck else 6 for d in LOCATION_DECKS})
    plain = new_game(4)
    assert {CARDS.cards[c].deck for c in plain["decks"]["office"]} == {"office"}


def test_arctic_pot_luck_draws_the_standard_count_from_all_cards_whatever_their_side() -> None:
    humans, parasites = CARDS.composition[4]
    sides = set()
    for seed in range(40):
        s = rules.setup(4, {"arctic-pot-luck": True}, Rng(f"apl{seed}".encode()))
        dealt = [c for cards in s["infection"] for c in cards] + s["infection_deck"]
        assert len(dealt) == humans + parasites
        sides.add(sum(CARDS.infections[c].side == "parasite" for c in dealt))
    assert sides - {parasites}, "some deal differs from the standard mix of sides"
    for seed in range(10):
        s = rules.setup(4, {}, Rng(f"std{seed}".encode()))
        dealt = [c for cards in s["infection"] for c in cards] + s["infection_deck"]
        assert sum(CARDS.infections[c].side == "parasite" for c in dealt) == parasites


def test_unknown_infections_hide_tokens_from_everyone_but_their_carrier() -> None:
    s = new_game(4, **{"unknown-infections": True})
    edit(s, lambda s: s["decks"].__setitem__("helipad", []))  # then nothing but the final choice
    s = _from(s, {"kind": "infection"})  # everyone on the Helipad exchanges tokens
    assert s["tokens"][0] == [1, 2, 3]
    assert GAME.observe(s, None).public["tokens"] is None
    assert GAME.observe(s, 1).public["tokens"] is None and GAME.observe(s, 1).public["supply"] is None
    assert GAME.observe(s, 0).private["tokens"] == [1, 2, 3]
    assert "tokens" not in GAME.observe(s, 1).private or GAME.observe(s, 1).private["tokens"] == [0, 2, 3]
    # the report: the public part is the same whatever the tokens are; the private part shows them
    other = {**s, "tokens": [[], [], [], []], "supply": [8, 8, 8, 8]}
    assert GAME.describe(GAME.observe(s, 2))[0] == GAME.describe(GAME.observe(other, 2))[0]
    assert GAME.describe(GAME.observe(s, 2))[1] != GAME.describe(GAME.observe(other, 2))[1]
    plain = new_game(4)
    edit(plain, lambda s: s["decks"].__setitem__("helipad", []))
    plain = _from(plain, {"kind": "infection"})
    assert GAME.observe(plain, 1).public["tokens"][0] == [1, 2, 3]
    assert GAME.describe(GAME.observe(plain, 2))[0] != GAME.describe(GAME.observe(new_game(4), 2))[0]


def test_options_start_location_characters_and_leader() -> None:
    s = new_game(4, **{"start-location": "office"})
    assert set(s["loc"]) == {"office"}
    assert new_game(4)["chars"] == [c.id for c in CARDS.characters][:4]
    dealt = {tuple(rules.setup(4, {}, Rng(f"c{k}".encode()))["chars"]) for k in range(6)}
    assert len(dealt) > 1, "characters are dealt at random by default"
    leaders = {rules.setup(4, {"leader": "random"}, Rng(f"l{k}".encode()))["leader"] for k in range(20)}
    assert len(leaders) > 1 and new_game(4)["leader"] == 0
    with pytest.raises(ValueError, match="start-location"):
        rules.setup(4, {"start-location": "kitchen"}, Rng(b"x"))


# ---------------------------------------------------------------------------- the Dog

DOG = 4


def _dog_game(**fields: Any) -> State:
    s = new_game(4, dog=True, **{"dog-first-move": "round-2"})  # the first Turn comes first
    edit(s, _set(**fields))
    return s


def test_the_healthy_dog_goes_to_a_distressed_player() -> None:
    s = _dog_game(health_2="distressed", loc_2="office")
    after = _from(s, {"kind": "round"})
    assert after["loc"][DOG] == "office"


def test_the_healthy_dog_goes_to_a_player_alone_when_nobody_is_distressed() -> None:
    s = _dog_game(loc_3="laboratory")
    assert _from(s, {"kind": "round"})["loc"][DOG] == "laboratory"


def test_the_dog_stays_when_a_matching_player_is_beside_it() -> None:
    s = _dog_game(health_1="distressed", health_2="distressed", loc_2="office")
    assert _from(s, {"kind": "round"})["loc"][DOG] == "helipad"


def test_the_leader_chooses_among_several_locations_and_where_nobody_matches() -> None:
    s = _dog_game(health_1="distressed", loc_1="office", health_2="distressed", loc_2="laboratory")
    asking = _from(s, {"kind": "round"})
    assert asked(asking) == ((0,), "location")
    assert asking["pending"]["ask"]["question"]["choices"] == ["laboratory", "office"]
    assert _answer(asking, {0: ["to office"]})["loc"][DOG] == "office"
    # nobody matches: everyone together, nobody Distressed
    free = _from(_dog_game(), {"kind": "round"})
    assert asked(free) == ((0,), "location") and "storehouse" in free["pending"]["ask"]["question"]["choices"]
    assert _answer(free, {0: ["to storehouse"]})["loc"][DOG] == "storehouse"


def test_the_distressed_dog_seeks_the_violent() -> None:
    s = _dog_game(health_4="distressed", loc_1="storehouse", violent=[1])
    assert _from(s, {"kind": "round"})["loc"][DOG] == "storehouse"


def test_the_healthy_dog_helps_an_activation_draw_one_more_card() -> None:
    s = _dog_game(loc_4="office", prefer_0=["action"])
    edit(s, lambda s: s["decks"].__setitem__("office", ["thermos", "handshake", "pep-talk", "buddy-system"]))
    edit(s, _set(hands_0=[]))
    state = file(s, {0: ["move office"]}).state
    assert len(state["hands"][0]) == 2, "one kept of two, and one more from the Dog"
    assert state["decks"]["office"] == ["thermos"]


def test_petting_the_healthy_dog_heals_you_and_the_distressed_dog_bites() -> None:
    s = _dog_game(health_0="distressed")
    state = file(s, {0: ["pet dog", "stay"]}).state
    assert state["health"][0] == "healthy"
    bitten = _dog_game(health_4="distressed")
    state = file(bitten, {0: ["distress player 2", "stay"]}).state
    assert state["health"][1] == "distressed"
    assert state["health"][0] == "distressed", "the Distressed Dog bites whoever made someone Distressed"
    calm = file(_dog_game(), {0: ["distress player 2", "stay"]}).state
    assert calm["health"][0] == "healthy"


def test_players_beside_the_dog_exchange_tokens_with_it() -> None:
    s = _dog_game(loc_3="office", loc_4="office")
    edit(s, lambda s: s["decks"].__setitem__("helipad", []))  # nothing after the phase but the end
    after = _from(s, {"kind": "infection"})
    assert DOG in after["tokens"][3] and 3 in after["tokens"][DOG]
    assert DOG not in after["tokens"][0] and after["supply"][DOG] == 7


def test_test_results_on_the_dog_show_only_its_side_blindly() -> None:
    s = _dog_game(hands_0=["remote-analysis"], infection_4=["mimic"])
    result = file(s, {0: ["play remote-analysis on dog", "stay"]})
    assert result.state["tests"][0] == {str(DOG): "parasite"}
    mine = texts(result, 0)
    assert any("the Dog is Parasite" in t for t in mine)
    assert not any("Mimic" in t for t in texts(result, 0) + texts(result, 1))
    assert result.state["tests"][1] == {}


def test_the_dog_never_takes_a_new_infection_card() -> None:
    s = _dog_game(loc_4="office", loc_0="office")
    from pbem_games.parasite.context import Ctx
    from pbem_games.parasite.verbs import infect

    ctx = Ctx(s, CARDS, [], Rng(b"x"))
    before = list(s["infection_deck"])
    infect(ctx, DOG)
    assert s["infection_deck"] == before and len(s["infection"][DOG]) == 1


def _dog_final(lover: int) -> State:
    s = _dog_game(infection_0=["immune"], infection_1=["evacuee"], infection_2=["martyr"])
    s["infection"][lover] = ["dog-lover"]
    s = _from(s, {"kind": "final"})
    for seat in range(4):
        assert asked(s) == ((seat,), "escape")
        s = _answer(s, {seat: ["stay behind"]})
    assert asked(s) == ((0, 1, 2, 3), "dog-escape"), "every living player is asked, lover or not"
    return s


def test_the_dog_escapes_at_the_dog_lovers_choice_or_the_leaders() -> None:
    s = _dog_final(lover=2)
    lover_says = _answer(s, {0: ["dog stays"], 1: ["dog stays"], 2: ["dog escapes"], 3: ["dog stays"]})
    assert DOG in lover_says["escaped"]
    leader_says = _answer(s, {0: ["dog escapes"], 1: ["dog stays"], 2: ["dog stays"], 3: ["dog stays"]})
    assert DOG in leader_says["escaped"]
    nobody = _answer(s, {0: ["dog stays"], 1: ["dog escapes"], 2: ["dog stays"], 3: ["dog escapes"]})
    assert DOG not in nobody["escaped"], "only the Leader's and the Dog Lover's answers count"


# ---------------------------------------------------------------------------- life and death


def test_defibrillator_revives_a_dead_player_distressed_where_they_choose() -> None:
    s = new_game(4)
    edit(s, _set(hands_0=["defibrillator"], health_2="dead", loc_2=None, hands_2=[], tokens_2=[0, 1]))
    result = file(s, {0: ["play defibrillator on player 3", "stay"]})
    assert asked(result.state) == ((2,), "location"), "the revived player places their marker"
    state = _answer(result.state, {2: ["to laboratory"]})
    assert state["health"][2] == "distressed" and state["loc"][2] == "laboratory"
    assert state["tokens"][2] == [0, 1] and state["infection"][2], "they kept tokens and Infection cards"


def test_a_higher_infection_card_takes_the_priority_and_turns_a_revealed_card_face_down() -> None:
    s = new_game(4)
    edit(
        s, _set(infection_0=["puppeteer"], infection_1=["martyr"], revealed_1=True, infection_deck=["immune"])
    )
    state = file(s, {0: ["reveal on player 2", "stay"]}).state
    assert state["revealed"][0] is True, "Puppeteer's ability reveals it"
    assert state["infection"][1] == ["martyr", "immune"]
    assert state["revealed"][1] is False, "the revealed Martyr lost the priority: face down again"
    assert GAME.observe(state, 3).public["revealed"][1] is None
    assert GAME.observe(state, 1).private["priority"] == "immune"
    low = new_game(4)
    edit(
        low,
        _set(infection_0=["puppeteer"], infection_1=["immune"], revealed_1=True, infection_deck=["martyr"]),
    )
    state = file(low, {0: ["reveal on player 2", "stay"]}).state
    assert state["revealed"][1] is True and GAME.observe(state, 3).public["revealed"][1] == "immune"


def test_an_empty_infection_deck_infects_nobody() -> None:
    s = new_game(4)
    edit(s, _set(infection_0=["puppeteer"], infection_deck=[]))
    state = file(s, {0: ["reveal on player 2", "stay"]}).state
    assert len(state["infection"][1]) == 1 and state["infection_deck"] == []


def test_exterminator_ends_the_game_only_when_every_parasite_is_dead() -> None:
    s = new_game(4)
    edit(s, _set(infection_0=["exterminator"], infection_1=["immune"], infection_2=["mimic"]))
    edit(s, _set(infection_3=["martyr"], health_2="dead", loc_2=None))
    state = file(s, {0: ["reveal", "stay"]}).state
    assert state["over"] and 0 in state["winners"] and "Exterminator" in state["why"]
    alive = new_game(4)
    edit(alive, _set(infection_0=["exterminator"], infection_2=["mimic"]))
    result = file(alive, {0: ["reveal", "stay"]})
    assert not result.state["over"] and result.state["revealed"][0]
    assert any("does not hold" in t for t in texts(result))


def test_hive_queen_ends_the_game_when_a_death_leaves_no_human() -> None:
    s = new_game(4)
    edit(s, _set(infection_0=["hive-queen"], infection_1=["immune"], infection_2=["mimic"]))
    edit(s, _set(infection_3=["martyr"], health_3="dead", loc_3=None))
    edit(s, _set(hands_0=["shotgun", "pep-talk"], reactions_0=[{"card": "infection"}]))
    state = file(s, {0: ["play shotgun on player 2 with pep-talk", "stay"]}).state
    assert state["over"] and state["winners"] == [0] and state["revealed"][0]
    # without the standing reaction the game goes on
    quiet = new_game(4)
    edit(quiet, _set(infection_0=["hive-queen"], infection_1=["immune"], infection_3=["martyr"]))
    edit(quiet, _set(health_3="dead", loc_3=None, hands_0=["shotgun", "pep-talk"], infection_2=["mimic"]))
    assert not file(quiet, {0: ["play shotgun on player 2 with pep-talk", "stay"]}).state["over"]


def test_all_players_dead_means_no_winner_whatever_the_cards_say() -> None:
    s = new_game(4)
    edit(s, _set(infection_0=["hive-queen"], health_0="distressed"))
    for seat in (1, 2, 3):
        edit(s, _set(**{f"health_{seat}": "dead", f"loc_{seat}": None, f"infection_{seat}": ["martyr"]}))
    edit(s, lambda s: s["decks"].__setitem__("storehouse", ["collapsing-shelf"]))
    state = file(s, {0: ["move storehouse"]}).state
    assert state["over"] and state["winners"] == [] and all(h == "dead" for h in state["health"])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ()


def test_the_final_choice_goes_from_the_leader_clockwise_and_each_sees_the_choices_before() -> None:
    s = new_game(4)
    edit(s, _set(leader=2, health_0="dead", loc_0=None))
    s = _from(s, {"kind": "final"})
    order = []
    while not s["over"]:
        seats, kind = asked(s)
        assert kind == "escape"
        order.append(seats[0])
        assert s["pending"]["ask"]["question"]["escaped"] == [p for p in order[:-1] if p != 3]
        s = _answer(s, {seats[0]: ["stay behind" if seats[0] == 3 else "escape"]})
    assert order == [2, 3, 1], "the Leader first, clockwise, the dead skipped"
    assert s["escaped"] == [2, 1]
    final = GAME.observe(s, None).public
    assert final["infection"] and final["hands"] is not None and final["tests"] is not None


# ---------------------------------------------------------------------------- what each sees


def test_test_results_are_seen_only_by_their_player() -> None:
    s = new_game(4)
    edit(s, _set(hands_0=["blood-test"], infection_1=["mimic"]))
    result = file(s, {0: ["play blood-test on player 2", "stay"]})
    state = result.state
    assert any("player 2 is Parasite" in t for t in texts(result, 0))
    for seat in (None, 2, 3):
        assert not any("Parasite" in t for t in texts(result, seat))
        if seat is not None:
            assert GAME.observe(state, seat).private["tests"] == {}
            assert "player 2 is Parasite" not in GAME.describe(GAME.observe(state, seat))[1]
    assert GAME.observe(state, 0).private["tests"] == {"1": "parasite"}
    assert "player 2 is Parasite" in GAME.describe(GAME.observe(state, 0))[1]
    assert "player 2 is Parasite" not in GAME.describe(GAME.observe(state, 0))[0]


def test_items_lie_face_up_and_hand_and_discard_sizes_are_public_but_not_contents() -> None:
    s = new_game(4)
    edit(s, _set(items_0=["headlamp"], hands_0=["scalpel", "crowbar"]))
    edit(s, lambda s: s["discards"].__setitem__("storehouse", ["shotgun"]))
    view = GAME.observe(s, 2)
    assert view.public["items"][0] == ["headlamp"]
    assert view.public["hand_sizes"][0] == 2 and view.public["discards"]["storehouse"] == 1
    assert "scalpel" not in repr(view.public) and "shotgun" not in repr(view.public)


# ---------------------------------------------------------------------------- decks


def test_a_single_card_deck_may_be_kept_or_discarded() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk"]))
    result = file(s, {0: ["move office"]})
    assert asked(result.state) == ((0,), "keep")
    assert result.state["pending"]["ask"]["question"]["may_discard"] is True
    state = _answer(result.state, {0: ["keep none"]})
    assert state["decks"]["office"] == [] and state["discards"]["office"][-1] == "pep-talk"
    kept = _answer(result.state, {0: ["keep pep-talk"]})
    assert "pep-talk" in kept["hands"][0]
    heli = new_game(4)
    edit(heli, lambda s: s["decks"].__setitem__("helipad", ["whiteout"]))
    result = file(heli, {0: ["stay"]})
    assert asked(result.state) == ((0,), "leave")
    state = _answer(result.state, {0: ["leave none"]})
    assert state["decks"]["helipad"] == [] and state["discards"]["helipad"] == ["whiteout"]


def test_an_empty_deck_draws_nothing_and_its_discard_pile_is_never_reshuffled() -> None:
    s = new_game(4)
    edit(s, _set(hands_0=[]))
    edit(s, lambda s: s["decks"].__setitem__("office", []))
    edit(s, lambda s: s["discards"].__setitem__("office", ["pep-talk", "handshake"]))
    result = file(s, {0: ["move office"]})
    state = result.state
    assert state["hands"][0] == [] and state["decks"]["office"] == []
    assert state["discards"]["office"] == ["pep-talk", "handshake"]
    assert any("deck is empty" in t for t in texts(result))


def test_an_item_drawn_by_a_card_goes_to_the_hand() -> None:
    s = new_game(4)
    edit(s, _set(hands_0=["scavenge"], prefer_0=["item"]))
    edit(s, lambda s: s["decks"].__setitem__("storehouse", ["crowbar", "headlamp", "body-armour", "sled"]))
    result = file(s, {0: ["play scavenge", "stay"]})
    state = _answer(result.state, {0: ["keep body-armour, headlamp"]})
    assert sorted(state["hands"][0]) == ["body-armour", "headlamp"] and state["items"][0] == []
    assert "sled" in state["discards"]["storehouse"]


# ---------------------------------------------------------------------------- rulings


def test_activation_events_kept_option_resolves_an_event_only_if_kept() -> None:
    s = new_game(4, **{"activation-events": "kept"})
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "handshake", "staff-meeting"]))
    result = file(s, {0: ["move office"]})
    assert asked(result.state) == ((0,), "keep")
    assert GAME.observe(result.state, 0).private["ask"]["cards"] == ["staff-meeting", "handshake"]
    state = _answer(result.state, {0: ["keep handshake"]})
    assert state["loc"][1] == "helipad" and "staff-meeting" in state["discards"]["office"]
    state = _answer(result.state, {0: ["keep staff-meeting"]})
    assert set(state["loc"]) == {"office"}, "the kept Event resolves"
    drawn = new_game(4)
    edit(drawn, lambda s: s["decks"].__setitem__("office", ["pep-talk", "handshake", "staff-meeting"]))
    assert set(file(drawn, {0: ["move office"]}).state["loc"]) == {"office"}


def test_events_and_helipad_cards_are_nobodys_card_but_reactions_answer_them() -> None:
    s = new_game(4)
    edit(s, _set(hands_1=["scalpel"], hands_2=["bandage"], leader=0))
    edit(s, _set(reactions_1=[{"card": "scalpel"}], reactions_2=[{"card": "bandage", "target": 1}]))
    base = {**s, "decks": {**s["decks"], "helipad": ["suspicion", "whiteout"]}}
    asking = _from(base, {"kind": "escape"})  # Whiteout: the Leader chooses
    assert asked(asking) == ((0,), "option")
    asking = _answer(asking, {0: ["option 1"]})
    assert asked(asking) == ((0,), "target")
    state = _answer(asking, {0: ["target player 2"]})
    assert "scalpel" in state["hands"][1], "no Interrupt answers a Helipad card: nobody to strike"
    assert state["health"][0] == "healthy"
    assert state["health"][1] == "healthy" and "bandage" not in state["hands"][2], "Bandage answered it"


def test_several_interrupts_resolve_from_the_leader_clockwise_one_card_each() -> None:
    s = new_game(4)
    edit(s, _set(leader=3, hands_2=["ice-pick"], hands_3=["ice-pick"]))
    edit(s, _set(reactions_2=[{"card": "ice-pick", "from": [0]}], reactions_3=[{"card": "ice-pick"}]))
    result = file(s, {0: ["distress player 2", "stay"]})
    plays = [t for t in texts(result) if "plays Ice Pick" in t]
    assert [t.split()[1] for t in plays] == ["4", "3"], "the Leader (player 4) first, then clockwise"
    assert result.state["health"][0] == "dead" and result.state["health"][1] == "healthy"


def test_a_named_target_that_is_no_longer_legal_is_not_affected() -> None:
    from pbem_games.parasite.context import Ctx, Play
    from pbem_games.parasite.targets import targets

    s = new_game(4)
    ctx = Ctx(s, CARDS, [], Rng(b"x"))
    step = CARDS.cards["pep-talk"].effects[0]
    play = Play(me=0, chooser=0, name="Pep Talk", by_player=True, chosen={"other-here": 1})
    assert targets(ctx, play, step) == [1]
    s["loc"][1] = "office"  # moved away in between
    assert targets(ctx, play, step) == []


def test_helipad_choices_are_the_current_leaders() -> None:
    from pbem_games.parasite.context import Ctx, Play

    s = new_game(4)
    ctx = Ctx(s, CARDS, [], Rng(b"x"))
    play = Play(me=None, chooser=0, name="Whiteout", helipad=True)
    s["leader"] = 2  # the Leader died of the card, or passed the token
    assert ctx.chooser(play) == 2
    assert ctx.chooser(Play(me=1, chooser=1, name="Pep Talk")) == 1


def test_one_turn_each_per_game_phase_even_when_the_leader_token_moves() -> None:
    s = new_game(4)
    edit(s, _set(hands_0=["vote-of-confidence"], mission="fuel-run", loc=["mission"] * 4))
    state = file(s, {0: ["play vote-of-confidence on player 3", "stay"]}).state
    assert state["leader"] == 2 and asked(state) == ((1,), "turn")
    result = file(state, {1: ["stay"]})
    told = texts(result)
    phase = next(i for i, t in enumerate(told) if t.startswith("Infection Phase of round 1"))
    assert not any("Player 3's Turn" in t or "Player 4's Turn" in t for t in told[:phase]), (
        "the next Turn would go to the new Leader: the Game Phase ends"
    )


def test_a_standing_reaction_for_some_players_answers_only_for_them() -> None:
    s = new_game(4)
    edit(s, _set(hands_2=["ice-pick"], health_0="distressed"))
    view = GAME.observe(_from(s, {"kind": "turn", "seat": 2}), 2)
    filed = GAME.validate(view, lines(["react ice-pick for player 4", "stay"]))
    assert filed["react"] == [{"card": "ice-pick", "for": [3]}]
    edit(s, _set(reactions_2=filed["react"]))
    state = file(s, {0: ["distress player 2", "stay"]}).state
    assert state["health"][1] == "distressed" and "ice-pick" in state["hands"][2], "not for player 2"
    guarded = new_game(4)
    edit(guarded, _set(hands_2=["ice-pick"], health_0="distressed", reactions_2=filed["react"]))
    state = file(guarded, {0: ["distress player 4", "stay"]}).state
    assert state["health"][0] == "dead" and state["health"][3] == "healthy", "for player 4: it strikes"


def test_reveal_and_ability_name_their_target_in_the_turn_file() -> None:
    s = new_game(4)
    edit(s, _set(infection_0=["puppeteer"]))
    assert GAME.validate(GAME.observe(s, 0), lines(["reveal on player 3", "stay"]))["actions"] == [
        {"type": "infection", "target": 2}
    ]
    medic = new_game(4)
    edit(medic, _set(leader=1, proc={"kind": "turn", "seat": 1}))
    medic = _from(medic, {"kind": "turn", "seat": 1})
    orders = GAME.validate(GAME.observe(medic, 1), lines(["ability on player 1", "stay"]))
    assert orders["actions"] == [{"type": "ability", "target": 0}]


def test_under_untidy_a_card_is_discarded_to_the_pile_of_its_own_deck() -> None:
    s = new_game(4, untidy=True)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "crowbar", "stitches"]))
    result = file(s, {0: ["move office"]})
    state = _answer(result.state, {0: ["keep stitches"]})
    assert "crowbar" in state["discards"]["storehouse"] and "crowbar" not in state["discards"]["office"]


def test_whether_a_gift_is_asked_never_depends_on_a_card_that_left_the_hand_unseen() -> None:
    """A card named with "with" may have been stolen before the give (unseen by the table):
    asking the giver only then would tell everyone.  The question depends on the order and the
    public hand size alone; a named card no longer held is replaced by the first in the hand."""
    from pbem_games.parasite.cards import load_cards
    from pbem_games.parasite.context import Ctx, Play
    from pbem_games.parasite.verbs import give

    cards = load_cards()
    ids = sorted(cards.decks["office"])[:3]

    def gift(hand: list[str], named: tuple[str, ...]) -> tuple[list[str], list[str]]:
        state = new_game(4)
        state["hands"][0] = list(hand)
        state["hands"][1] = []
        give(Ctx(state, cards, [], Rng(b"g")), 0, 1, 1, Play(me=0, chooser=0, name="Gift", cards=named))
        return state["hands"][0], state["hands"][1]

    # The named card is still held: it is the one given, and nobody is asked.
    assert gift(ids, (ids[1],)) == ([ids[0], ids[2]], [ids[1]])
    # The named card left the hand unseen: still nobody is asked (no Need raised), a card goes.
    kept, got = gift(ids, ("stolen-card",))
    assert got == [ids[0]] and kept == ids[1:]
