"""Triggers: passive Items, then the Interrupts (before) or Reactions and triggered abilities
(after) that seats play at a trigger, from their standing reactions or a reaction window."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import effects, targets
from .cards import INTERRUPT_TRIGGERS, CardSet, Step
from .context import Aborted, Ctx, Play


def related(ctx: Ctx, trigger: str, seat: int, subject: int | None, source: int | None) -> bool:
    """Whether a trigger concerns ``seat`` (who may react to it)."""
    if not ctx.alive(seat) or seat >= ctx.n:
        return False
    if trigger in ("distressed-by", "targeted", "tested", "activate"):
        return seat == subject and (trigger == "activate" or (source is not None and source != seat))
    if trigger == "distress-here":
        return subject is not None and ctx.loc(seat) == ctx.loc(subject) and seat != source
    if trigger == "move-in":
        return subject is not None and seat != subject and ctx.loc(seat) == ctx.loc(subject)
    return True


_WINDOWS: dict[tuple[int, bool], tuple[CardSet, frozenset[str]]] = {}
"""window_triggers' answers by card set (the set is kept, so its id is never reused)."""


def window_triggers(cards: CardSet, before: bool) -> frozenset[str]:
    """Triggers some card or ability can answer in this pass (a public fact of the set)."""
    known = _WINDOWS.get((id(cards), before))
    if known is not None and known[0] is cards:
        return known[1]
    out: set[str] = set()
    for card in cards.cards.values():
        if card.kind == "basic" and card.trigger and (card.icon == "interrupt") == before:
            out.add(card.trigger)
    if not before:
        for char in cards.characters:
            for side in (char.healthy, char.distressed):
                if side.ability and side.ability.when != "action":
                    out.add(side.ability.when)
        for inf in cards.infections.values():
            if inf.ability and inf.ability.when != "action":
                out.add(inf.ability.when)
    found = frozenset(out)
    _WINDOWS[(id(cards), before)] = (cards, found)
    return found


def fire(ctx: Ctx, trigger: str, *, subject: int | None, source: int | None, before: bool) -> bool:
    """Let everyone answer a trigger: passive items (automatic), then the Interrupts
    (``before``) or the Reactions and triggered abilities (after) that seats play, from the
    Leader clockwise.  Returns True when it was cancelled or prevented."""
    s = ctx.s
    stopped = False
    interrupt_moment = trigger in INTERRUPT_TRIGGERS
    if before and source is None:
        return False
    # passive items
    if before == interrupt_moment or trigger in ("activate",):
        for seat in ctx.living():
            if not related(ctx, trigger, seat, subject, source):
                continue
            for item in list(s["items"][seat]):
                card = ctx.cards.cards[item]
                if card.trigger != trigger or not card.effects:
                    continue
                play = Play(me=seat, chooser=seat, name=card.name, source=source)
                ctx.say(f"{ctx.name(seat)}'s {card.name} takes effect.")
                effects.run(ctx, play, card.effects)
                if not card.keep and item in s["items"][seat]:
                    s["items"][seat].remove(item)
                    ctx.discard_card(item)
                stopped = stopped or play.cancelled or play.prevented
    if trigger == "activate":
        return stopped
    if trigger not in window_triggers(ctx.cards, before):
        return stopped
    plays = chosen_reactions(ctx, trigger, subject, source, before)
    for seat, entry in plays:
        if not ctx.alive(seat) or not related(ctx, trigger, seat, subject, source):
            continue
        if not _answers(ctx, seat, entry, trigger, before):
            continue
        stopped = play_reaction(ctx, seat, entry, trigger, source, before) or stopped
    return stopped


def _answers(ctx: Ctx, seat: int, entry: dict[str, Any], trigger: str, before: bool) -> bool:
    """Whether a filed reaction ``entry`` of ``seat`` answers this trigger now."""
    s = ctx.s
    kind = entry["card"]
    if kind == "ability":
        side = ctx.cards.character(s["chars"][seat])
        ability = (side.healthy if s["health"][seat] == "healthy" else side.distressed).ability
        return not before and ability is not None and ability.when == trigger
    if kind == "infection":
        ability = ctx.cards.infections[ctx.priority(seat)].ability
        return not before and ability is not None and ability.when == trigger
    if kind not in s["hands"][seat]:
        return False
    card = ctx.cards.cards[kind]
    return card.trigger == trigger and (card.icon == "interrupt") == before


def chosen_reactions(
    ctx: Ctx, trigger: str, subject: int | None, source: int | None, before: bool
) -> list[tuple[int, dict[str, Any]]]:
    """Who plays what at this trigger: from the standing reactions, or by asking every living
    seat (option ``reactions = windows``), so that waiting says nothing about hands."""
    s = ctx.s
    out: list[tuple[int, dict[str, Any]]] = []
    if s["opt"]["reactions"] == "windows":
        seats = ctx.living()
        what = {
            "kind": "window",
            "trigger": trigger,
            "moment": "before" if before else "after",
            "subject": subject,
            "source": source,
        }
        got = ctx.ask(seats, what)
        for seat in seats:
            answer = got.get(seat)
            for entry in answer.get("plays", ()) if isinstance(answer, dict) else ():
                if _answers(ctx, seat, entry, trigger, before):
                    out.append((seat, entry))
                    break
        return out
    for seat in ctx.living():
        if not related(ctx, trigger, seat, subject, source):
            continue
        for entry in s["reactions"][seat]:
            if entry.get("from") and source not in entry["from"]:
                continue
            if entry.get("for") and subject not in entry["for"]:
                continue
            if _answers(ctx, seat, entry, trigger, before):
                out.append((seat, entry))
                break
    return out


def play_reaction(
    ctx: Ctx, seat: int, entry: dict[str, Any], trigger: str, source: int | None, before: bool
) -> bool:
    """Play one Reaction, Interrupt or triggered ability.  Returns True if it stopped the trigger."""
    s = ctx.s
    kind = entry["card"]
    if kind in ("ability", "infection"):
        if kind == "ability":
            char = ctx.cards.character(s["chars"][seat])
            side = char.healthy if s["health"][seat] == "healthy" else char.distressed
            ability = side.ability
            name = f"{char.role}'s ability"
        else:
            inf = ctx.cards.infections[ctx.priority(seat)]
            ability = inf.ability
            name = "an Infection card's ability" if not s["revealed"][seat] else f"{inf.name}'s ability"
        if ability is None:
            return False
        play = Play(
            me=seat, chooser=seat, name=name, source=source, by_player=True, target=entry.get("target")
        )
        if not targets.feasible(ctx, play, ability.effects):
            return False
        ctx.say(f"{ctx.name(seat)} uses {name}.")
        _guarded(ctx, seat, play, ability.effects)
        if kind == "infection":
            s["reactions"][seat] = [r for r in s["reactions"][seat] if r is not entry and r != entry]
        return play.cancelled or play.prevented
    card = ctx.cards.cards[kind]
    play = Play(
        me=seat, chooser=seat, name=card.name, source=source, by_player=True, target=entry.get("target")
    )
    if not targets.feasible(ctx, play, card.effects):
        return False
    s["hands"][seat].remove(kind)
    s["reactions"][seat] = [r for r in s["reactions"][seat] if r["card"] != kind or kind in s["hands"][seat]]
    label = "Interrupt" if before else "Reaction"
    ctx.say(f"{ctx.name(seat)} plays {card.name} ({label}): {card.text}")
    ctx.discard_card(kind)
    _guarded(ctx, seat, play, card.effects)
    return play.cancelled or play.prevented


def _guarded(ctx: Ctx, seat: int, play: Play, steps: Sequence[Step]) -> None:
    """Run a seat's card or ability; if the seat dies of an answer to it, it stops."""
    try:
        effects.run(ctx, play, steps)
    except Aborted as stop:
        if stop.seat != seat:
            raise
