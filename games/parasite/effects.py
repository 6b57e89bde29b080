"""The effect executor: runs the steps of games/parasite/EFFECTS.md's vocabulary for a play.

:func:`run` does a card's, ability's or Helipad card's steps in order; :func:`do_step` handles
the verbs without a target (choose, draw, look, reveal, end-game, ...) and resolves the targets
of the others, and :func:`apply` does a targeted verb to one seat through games/parasite/verbs.py.
The context a procedure runs in is games/parasite/context.py; targets are resolved by
targets.py, Reactions and Interrupts by triggers.py, Win and Lose conditions by winning.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import targets, verbs, winning
from .cards import Step
from .context import Aborted, Ctx, GameOver, Play


def run(ctx: Ctx, play: Play, steps: Sequence[Step]) -> None:
    """Do ``steps`` in order for ``play``."""
    for step in steps:
        if play.me is not None and play.by_player and not ctx.alive(play.me):
            raise Aborted(play.me)
        do_step(ctx, play, step)


def do_step(ctx: Ctx, play: Play, step: Step) -> None:
    """Do one step."""
    s = ctx.s
    verb = step.do
    me = play.me
    source = me if play.by_player else None
    if verb == "choose":
        ok = [k for k, option in enumerate(step.options) if targets.feasible(ctx, play, option)]
        if not ok:
            ctx.say(f"{play.name}: no choice can be made; nothing happens.")
            return
        if play.option is not None and play.option in ok:
            pick = play.option
        elif len(ok) == 1:
            pick = ok[0]
        else:
            got = ctx.ask(
                [ctx.chooser(play)], {"kind": "option", "for": play.name, "choices": [k + 1 for k in ok]}
            )
            index = (
                got[ctx.chooser(play)].get("option", 0) - 1
                if isinstance(got[ctx.chooser(play)], dict)
                else -1
            )
            pick = index if index in ok else ok[0]
        ctx.say(f"{ctx.name(ctx.chooser(play))} chooses option {pick + 1} of {play.name}.")
        run(ctx, play, step.options[pick])
        return
    if verb in ("cancel", "prevent"):
        if verb == "cancel":
            play.cancelled = True
        else:
            play.prevented = True
        return
    if verb == "extra-action":
        ctx.extra += 1
        ctx.say(f"{ctx.name(me or 0)} may take one more Action this turn.")
        return
    if verb == "reveal":
        if me is not None and not s["revealed"][me]:
            s["revealed"][me] = True
            ctx.say(f"{ctx.name(me)} reveals their Infection card: {ctx.card_name(ctx.priority(me))}.")
        return
    if verb == "end-game":
        if me is not None and winning.wins_now(ctx, me):
            raise GameOver(f"{ctx.name(me)}'s {ctx.card_name(ctx.priority(me))} ends the game", me)
        ctx.say(f"{play.name}: its Win condition does not hold; the game goes on.")
        return
    if verb in ("draw", "draw-keep", "look-deck"):
        deck = step.deck
        if deck == "here":
            deck = ctx.deck_of_location(me) if me is not None else None
        if me is None or deck is None:
            return
        if verb == "look-deck":
            top = s["decks"][deck][-step.count :][::-1]
            ctx.say(f"{ctx.name(me)} looks at the top {step.count} {deck.capitalize()} cards.")
            shown = ", ".join(ctx.card_name(c) for c in top) or "nothing (the deck is empty)"
            ctx.say(f"You looked at the top of the {deck.capitalize()} deck: {shown}.", [me])
        elif verb == "draw":
            verbs.draw(ctx, me, deck, step.count)
        else:
            verbs.draw_keep(ctx, me, deck, step.count, step.keep, play.name)
        return
    for seat in targets.targets(ctx, play, step):
        if play.cancelled:
            return
        apply(ctx, play, step, seat, source)


def apply(ctx: Ctx, play: Play, step: Step, seat: int, source: int | None) -> None:
    """Do a targeted verb to one seat."""
    s = ctx.s
    verb = step.do
    me = play.me
    if verb == "distress":
        verbs.distress(ctx, seat, source)
    elif verb == "heal":
        if s["health"][seat] == "distressed":
            s["health"][seat] = "healthy"
            ctx.say(f"{ctx.name(seat)} becomes Healthy.")
    elif verb == "kill":
        if ctx.alive(seat):
            ctx.say(f"{ctx.name(seat)} is killed.")
            verbs.die(ctx, seat)
    elif verb == "revive":
        verbs.revive(ctx, seat, step.revive_as or "healthy")
    elif verb == "discard":
        verbs.discard_from(ctx, [seat], step.count, step.pick, play.name)
    elif verb == "steal" and me is not None:
        hand = s["hands"][seat]
        taken = [hand.pop(ctx.rng.randbelow(len(hand))) for _ in range(min(step.count, len(hand)))]
        s["hands"][me].extend(taken)
        ctx.say(f"{ctx.name(me)} takes {len(taken)} random card(s) from {ctx.name(seat)}.")
        if taken:
            names = ", ".join(ctx.card_name(c) for c in taken)
            ctx.say(f"{ctx.name(me)} took {names} from {ctx.name(seat)}.", [me, seat])
    elif verb == "give" and me is not None:
        verbs.give(ctx, me, seat, step.count, play)
    elif verb == "look-hand" and me is not None:
        shown = ", ".join(ctx.card_name(c) for c in s["hands"][seat]) or "no cards"
        ctx.say(f"{ctx.name(me)} looks at {ctx.name(seat)}'s hand.")
        ctx.say(f"{ctx.name(seat)}'s hand: {shown}.", [me])
    elif verb == "test":
        tester = me if me is not None else ctx.chooser(play)
        verbs.test(ctx, tester, seat)
    elif verb == "unreveal":
        if seat < ctx.n and s["revealed"][seat]:
            s["revealed"][seat] = False
            ctx.say(f"{ctx.name(seat)}'s Infection card is turned face down again.")
    elif verb == "infect":
        verbs.infect(ctx, seat)
    elif verb == "move":
        dest = step.to
        if dest == "here":
            dest = ctx.loc(me) if me is not None else None
        elif dest == "any":
            dest = play.to or verbs.choose_location(ctx, ctx.chooser(play), play.name)
            play.to = dest
        if dest is not None:
            verbs.move(ctx, seat, dest)
    elif verb == "take-token" and me is not None:
        verbs.exchange(ctx, me, seat)
    elif verb == "drop-token":
        verbs.drop_tokens(ctx, seat, step.count, play.name)
    elif verb == "pass-leader" and s["leader"] != seat and seat < ctx.n:
        s["leader"] = seat
        ctx.say(f"The Leader token goes to {ctx.name(seat)}.")
