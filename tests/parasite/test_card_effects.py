"""Every card entry of the data played through the effect executor, with each choice it offers:
each step's effect is checked on the position, by what the step's verb means in EFFECTS.md
(health, hands, piles, tokens, Infection cards, who stands where, the Leader, what one seat
alone saw).  The executor runs the steps as the engine does (games/parasite/effects.py), and
questions are answered the way a player would, replaying from the start as the engine does.

A card's timing (when a Reaction or Interrupt fires, when an Event resolves) is covered by the
scenario tests in test_scenarios.py and test_rules.py; here each card's effect is."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from para_helpers import new_game

from pbem.rng import Rng
from pbem_games.parasite import effects
from pbem_games.parasite.cards import CHOSEN_TARGETS, Step, load_cards
from pbem_games.parasite.context import Ctx, GameOver, Need, Play
from pbem_games.parasite.winning import wins_now

CARDS = load_cards()
State = dict[str, Any]
RANK = {"healthy": 2, "distressed": 1, "dead": 0}
ME, OTHER, AWAY, DEAD = 0, 1, 2, 3
"""Seats of the standard position: the player, another on the Mission beside them, the Leader
in the Laboratory, one dead."""


@dataclass(frozen=True)
class Case:
    """One card (or ability) with the steps it runs and how it is played."""

    name: str
    steps: tuple[Step, ...]
    kind: str  # player | event | reaction | helipad
    option: int | None = None
    infection: str | None = None


def _options(name: str, steps: tuple[Step, ...], kind: str, infection: str | None = None) -> list[Case]:
    """A case per option of a top-level choose, else one case."""
    for step in steps:
        if step.do == "choose":
            return [
                Case(f"{name}/option{k + 1}", steps, kind, k, infection) for k in range(len(step.options))
            ]
    return [Case(name, steps, kind, None, infection)]


def _cases() -> list[Case]:
    out: list[Case] = []
    for card in CARDS.cards.values():
        if card.kind == "mission":
            out += _options(f"{card.id}:pass", card.pass_, "helipad")
            out += _options(f"{card.id}:fail", card.fail, "helipad")
        elif card.kind == "crisis":
            out += _options(card.id, card.effects, "helipad")
        elif card.kind == "event":
            out += _options(card.id, card.effects, "event")
        elif card.use:
            out += _options(f"{card.id}:use", card.use, "player")
        elif card.trigger:
            out += _options(card.id, card.effects, "reaction")
        else:
            out += _options(card.id, card.effects, "player")
    for inf in CARDS.infections.values():
        if inf.ability is not None:
            kind = "player" if inf.ability.when == "action" else "reaction"
            out += _options(f"infection:{inf.id}", inf.ability.effects, kind, inf.id)
    for char in CARDS.characters:
        for side_name, side in (("healthy", char.healthy), ("distressed", char.distressed)):
            if side.ability is not None:
                kind = "player" if side.ability.when == "action" else "reaction"
                out += _options(f"{char.id}:{side_name}", side.ability.effects, kind)
    dog = CARDS.dog
    out += [
        Case("dog:pet", dog.healthy.action, "player"),
        Case("dog:activate", dog.healthy.activate, "event"),
        Case("dog:bite", dog.distressed.punish, "reaction"),
    ]
    return out


CASES = _cases()


def _position(case: Case) -> State:
    """The standard position: player 1 (seat 0) and player 2 on the Mission, player 3 (the
    Leader) in the Laboratory, all Distressed, player 4 dead; hands, tokens, piles and a
    revealed card to act on."""
    s = new_game(4)
    s["pending"] = None
    s.update(
        mission="fuel-run",
        loc=["mission", "mission", "laboratory", None],
        health=["distressed", "distressed", "distressed", "dead"],
        hands=[["crowbar", "pep-talk", "handshake"], ["sled", "handshake"], ["stitches"], []],
        items=[[], [], [], []],
        tokens=[[2], [2], [0, 1], [1]],
        supply=[7, 6, 6, 8],
        revealed=[False, True, False, False],
        infection=[["martyr"], ["mimic"], ["immune"], ["sleeper"]],
        infection_deck=["vaccinated", "researcher"],
        leader=AWAY,
    )
    s["decks"] = {
        "office": ["pep-talk", "pep-talk", "handshake", "buddy-system"],
        "storehouse": ["crowbar", "sled", "shotgun", "scavenge"],
        "laboratory": ["stitches", "blood-test", "bandage", "microscope"],
        "helipad": ["whiteout", "outbreak", "stampede"],
    }
    s["discards"] = {deck: [] for deck in s["discards"]}
    if any(step.deck == "here" for step in _flat(case.steps)):
        s["loc"][ME] = "office"  # a draw from "here" needs a Location with a deck
    if case.infection is not None:
        s["infection"][ME] = [case.infection]
        if any(step.do == "end-game" for step in case.steps):  # its Win condition holds
            human = CARDS.infections[case.infection].side == "human"
            s["infection"][OTHER:] = (
                [["caregiver"], ["immune"], ["sleeper"]] if human else [["mimic"], ["stowaway"], ["martyr"]]
            )
    return s


def _flat(steps: Sequence[Step]) -> list[Step]:
    out: list[Step] = []
    for step in steps:
        out.append(step)
        for option in step.options:
            out += _flat(option)
    return out


def _play(case: Case) -> Play:
    first = next((s for s in _flat(case.steps) if s.who in CHOSEN_TARGETS), None)
    target = AWAY if first is not None and first.do == "move" and first.to == "here" else OTHER
    if case.kind == "helipad":
        return Play(me=None, chooser=ME, name=case.name, helipad=True, option=case.option)
    if case.kind == "event":
        return Play(me=ME, chooser=ME, name=case.name, option=case.option)
    if case.kind == "reaction":
        return Play(me=ME, chooser=ME, name=case.name, source=OTHER, by_player=True, option=case.option)
    return Play(me=ME, chooser=ME, name=case.name, by_player=True, target=target, option=case.option)


def _answer(need: Need, seat: int) -> dict[str, Any]:
    """What a player answers: player 2 when they may be chosen, else the first choice."""
    q = need.question
    private = need.private.get(seat, {})
    kind = q["kind"]
    if kind == "target":
        return {"seat": OTHER if OTHER in q["choices"] else q["choices"][0]}
    if kind == "option":
        return {"option": q["choices"][0]}
    if kind == "location":
        return {"to": "storehouse" if "storehouse" in q["choices"] else q["choices"][0]}
    if kind in ("keep", "give", "discard"):
        pool = private.get("cards") or private.get("hand") or []
        return {"cards": list(pool[: q.get("keep", q.get("count", 1))])}
    if kind == "token":
        return {"tokens": list(private["tokens"][: q["count"]])}
    if kind == "first":
        return {"card": private["cards"][0]}
    raise AssertionError(f"unexpected question {q}")


def _execute(start: State, case: Case) -> tuple[State, Ctx, Play, str | None]:
    """Run the case's steps as the engine does: replay from the start with the answers so far."""
    answers: list[dict[str, Any]] = []
    for _ in range(30):
        state = copy.deepcopy(start)
        ctx = Ctx(state, CARDS, answers, Rng(b"cards"))
        play = _play(case)
        try:
            effects.run(ctx, play, case.steps)
        except Need as need:
            answers = [*answers, {str(seat): _answer(need, seat) for seat in need.seats}]
            continue
        except GameOver as over:
            return state, ctx, play, over.why
        return state, ctx, play, None
    raise AssertionError("the card never finished")


def _targets(step: Step, before: State, play: Play) -> list[int]:
    """Who a step was done to, from the position before and the choices recorded."""
    me = play.me
    living = [p for p in range(4) if before["health"][p] != "dead"]
    who = step.who
    if who == "self":
        return [me] if me is not None else []
    if who == "source":
        return [OTHER]
    if who == "leader":
        return [before["leader"]]
    if who == "everyone":
        return living
    if who in ("others-here", "all-here"):
        where = before["loc"][me]
        return [p for p in living if before["loc"][p] == where and (who == "all-here" or p != me)]
    if who == "on-mission":
        return [p for p in living if before["loc"][p] == "mission"]
    if who == "off-mission":
        return [p for p in living if before["loc"][p] != "mission"]
    assert who in CHOSEN_TARGETS, who
    assert who in play.chosen, f"{who}: nobody was chosen"
    return [play.chosen[who]]


def _private(ctx: Ctx, seat: int) -> str:
    return " ".join(e.text for e in ctx.events if e.to is not None and seat in e.to)


def _check(step: Step, before: State, after: State, ctx: Ctx, play: Play, why: str | None) -> None:
    """Assert the effect of one step, by its verb's meaning in EFFECTS.md."""
    verb = step.do
    me = play.me if play.me is not None else before["leader"]
    if verb == "choose":
        picked = [int(m) for m in re.findall(r"chooses option (\d+)", " ".join(e.text for e in ctx.events))]
        assert picked, "an option was chosen"
        for inner in step.options[picked[0] - 1]:
            _check(inner, before, after, ctx, play, why)
        return
    if verb == "reveal":
        assert after["revealed"][me]
        return
    if verb == "end-game":
        holds = wins_now(Ctx(copy.deepcopy(before), CARDS, [], Rng(b"w")), me)
        assert (why is not None) == holds and holds, "the game ends when its Win condition holds"
        return
    if verb == "extra-action":
        assert ctx.extra == 1
        return
    if verb in ("cancel", "prevent"):
        assert play.cancelled if verb == "cancel" else play.prevented
        return
    if verb in ("draw", "draw-keep", "look-deck"):
        deck = step.deck if step.deck != "here" else before["loc"][me]
        if verb == "look-deck":
            assert after["decks"][deck] == before["decks"][deck]
            top = CARDS.cards[before["decks"][deck][-1]].name
            assert top in _private(ctx, me) and not any(top in e.text for e in ctx.events if e.to is None)
        elif verb == "draw":
            assert len(before["decks"][deck]) - len(after["decks"][deck]) >= step.count
            assert before["decks"][deck][-1] in after["hands"][me]
        else:
            assert len(before["decks"][deck]) - len(after["decks"][deck]) == step.count
            assert len(after["discards"][deck]) - len(before["discards"][deck]) == step.count - step.keep
            assert len(after["hands"][me]) - len(before["hands"][me]) == step.keep
        return
    seats = _targets(step, before, play)
    assert seats, f"{verb}: a target"
    for t in seats:
        if verb == "distress":
            assert RANK[after["health"][t]] < RANK[before["health"][t]]
        elif verb == "heal":
            assert after["health"][t] == "healthy"
        elif verb == "kill":
            assert after["health"][t] == "dead" and after["hands"][t] == []
        elif verb == "revive":
            assert before["health"][t] == "dead" and after["health"][t] == (step.revive_as or "healthy")
            assert after["loc"][t] is not None
        elif verb == "discard":
            gone = min(step.count, len(before["hands"][t]))
            assert len(after["hands"][t]) <= len(before["hands"][t]) - gone + (1 if t == me else 0)
            piles = sum(len(p) for p in after["discards"].values()) - sum(
                len(p) for p in before["discards"].values()
            )
            assert piles >= gone
        elif verb == "steal":
            assert len(after["hands"][t]) == len(before["hands"][t]) - step.count
            assert len(after["hands"][me]) >= len(before["hands"][me]) + step.count - 1
        elif verb == "give":
            assert len(after["hands"][t]) == len(before["hands"][t]) + step.count
        elif verb == "look-hand":
            for card in before["hands"][t]:
                assert CARDS.cards[card].name in _private(ctx, me)
        elif verb == "test":
            side = CARDS.infections[
                max(before["infection"][t], key=lambda c: CARDS.infections[c].priority)
            ].side
            assert after["tests"][me][str(t)] == side
            assert f"is {side.capitalize()}" in _private(ctx, me)
        elif verb == "unreveal":
            assert before["revealed"][t] and not after["revealed"][t]
        elif verb == "infect":
            assert after["infection"][t] == [*before["infection"][t], before["infection_deck"][-1]]
        elif verb == "move":
            dest = {"here": before["loc"][me], "any": play.to}.get(step.to or "", step.to)
            assert dest is not None and after["loc"][t] == dest
        elif verb == "take-token":
            assert t in after["tokens"][me] and me in after["tokens"][t]
        elif verb == "drop-token":
            assert len(after["tokens"][t]) == len(before["tokens"][t]) - min(
                step.count, len(before["tokens"][t])
            )
        elif verb == "pass-leader":
            assert after["leader"] == t
        else:
            raise AssertionError(f"no check for {verb}")


def test_every_card_entry_is_covered() -> None:
    names = {case.name.split("/")[0] for case in CASES}
    for card in CARDS.cards.values():
        assert any(n == card.id or n.startswith(card.id + ":") for n in names), card.id
    assert len(CASES) > 100


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_card_does_what_its_data_says(case: Case) -> None:
    before = _position(case)
    after, ctx, play, why = _execute(before, case)
    if not case.steps:
        assert after["health"] == before["health"] and after["hands"] == before["hands"]
        return
    if any(step.do not in ("cancel", "prevent") for step in case.steps):
        assert ctx.events, "something was reported"
    for step in case.steps:
        _check(step, before, after, ctx, play, why)
