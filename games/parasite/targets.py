"""Who a step of a card is done to: legal chosen targets, feasible options, resolving ``who``."""

from __future__ import annotations

from collections.abc import Sequence

from . import triggers
from .cards import CHOSEN_TARGETS, Step
from .context import Aborted, Ctx, Play


def legal(ctx: Ctx, play: Play, step: Step) -> list[int]:
    """The seats a chosen target of ``step`` may be, for ``play``."""
    me = ctx.chooser(play) if play.helipad else play.me
    s = ctx.s
    who_ = step.who
    if who_ == "dead":
        pool = [p for p in range(ctx.n) if not ctx.alive(p)]
    elif who_ == "other-here":
        pool = ctx.here(me) if me is not None else []
    elif who_ == "any-other":
        pool = [p for p in ctx.living_all() if p != me]
    elif who_ in ("anyone", "leader-picks"):
        pool = ctx.living_all()
    else:
        pool = []
    if step.do == "unreveal":
        pool = [p for p in pool if p < ctx.n and s["revealed"][p]]
    elif step.do in ("give", "steal", "look-hand", "take-token", "revive", "move") or step.do == "infect":
        pool = [p for p in pool if p < ctx.n]
    elif step.do == "heal":
        pool = [p for p in pool if s["health"][p] == "distressed"] or pool
    elif step.do == "drop-token":
        pool = [p for p in pool if p < ctx.n and s["tokens"][p]]
    return pool


def feasible(ctx: Ctx, play: Play, steps: Sequence[Step]) -> bool:
    """Whether the requirements of a list of steps can be met (a chosen target exists, enough
    hand cards to discard or give); an option that cannot be met cannot be chosen."""
    me = play.me
    for step in steps:
        if step.who in CHOSEN_TARGETS and not legal(ctx, play, step):
            return False
        mine = me is not None and step.who == "self"
        if step.do in ("discard", "give") and mine and len(ctx.s["hands"][me]) < step.count:
            return False
        if step.do == "give" and me is not None and not ctx.s["hands"][me]:
            return False
    return True


def targets(ctx: Ctx, play: Play, step: Step) -> list[int]:
    """Resolve ``step.who`` to seats (asking the chooser when nothing was named)."""
    s = ctx.s
    me = play.me
    who_ = step.who
    if who_ == "self":
        return [me] if me is not None and ctx.alive(me) else []
    if who_ == "source":
        return [play.source] if play.source is not None and ctx.alive(play.source) else []
    if who_ == "leader":
        return [s["leader"]]
    if who_ == "dog":
        return [ctx.n] if s["dog"] and ctx.alive(ctx.n) else []
    if who_ == "others-here":
        return ctx.here(me) if me is not None else []
    if who_ == "all-here":
        return ctx.here(me, others=False) if me is not None else []
    if who_ == "everyone":
        return ctx.living()
    if who_ == "on-mission":
        return [p for p in ctx.living_all() if ctx.loc(p) == "mission"]
    if who_ == "off-mission":
        return [p for p in ctx.living() if ctx.loc(p) != "mission"]
    # a chosen target
    if who_ in play.chosen:
        seat = play.chosen[who_]
        return (
            [seat] if seat in legal(ctx, play, step) or (step.do == "revive" and not ctx.alive(seat)) else []
        )
    pool = legal(ctx, play, step)
    if not pool:
        ctx.say(f"{play.name}: nobody can be chosen; that part does nothing.")
        return []
    if play.target is not None and play.target in pool:
        seat = play.target
    elif len(pool) == 1:
        seat = pool[0]
    else:
        got = ctx.ask(
            [ctx.chooser(play)],
            {"kind": "target", "for": play.name, "verb": step.do, "choices": pool},
        )[ctx.chooser(play)]
        wanted = got.get("seat") if isinstance(got, dict) else None
        seat = wanted if wanted in pool else pool[0]
    play.chosen[str(who_)] = seat
    if play.by_player and me is not None and seat != me and not play.targeted:
        play.targeted = True
        triggers.fire(ctx, "targeted", subject=seat, source=me, before=True)
        if not ctx.alive(me):
            raise Aborted(me)
    return [seat]
