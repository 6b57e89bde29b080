"""Win and Lose conditions (EFFECTS.md's condition table) as they hold for a seat now."""

from __future__ import annotations

from .context import Ctx


def holds(ctx: Ctx, seat: int, word: str, n: int) -> bool:
    """Whether condition ``word`` holds for ``seat`` now (escape facts from the state)."""
    s = ctx.s
    escaped = set(s["escaped"])
    alive = ctx.alive(seat)
    parasites = {p for p in ctx.seats() if ctx.side(p) == "parasite"}
    if word == "escaped":
        return seat in escaped
    if word == "stayed":
        return alive and seat not in escaped
    if word == "alive":
        return alive
    if word == "dead":
        return not alive
    if word == "healthy":
        return s["health"][seat] == "healthy"
    if word == "no-parasite-escaped":
        return not escaped & parasites
    if word == "parasite-escaped":
        return bool(escaped & parasites)
    if word == "carrying-parasite-token":
        return seat in escaped and any(t in parasites for t in s["tokens"][seat])
    if word == "your-token-escaped":
        return sum(1 for p in escaped if seat in s["tokens"][p]) >= n
    if word == "humans-escaped":
        return sum(1 for p in escaped if p < ctx.n and p not in parasites) >= n
    if word == "escaped-at-most":
        return len([p for p in escaped if p < ctx.n]) <= n
    if word == "all-humans-dead":
        return all(not ctx.alive(p) for p in range(ctx.n) if p not in parasites)
    if word == "all-parasites-dead":
        return all(not ctx.alive(p) for p in parasites)
    if word == "dog-escaped":
        return ctx.n in escaped
    raise ValueError(f"unknown condition {word!r}")


def wins_now(ctx: Ctx, seat: int) -> bool:
    """Whether ``seat`` Wins if the game ended now: every Win condition and no Lose condition."""
    card = ctx.cards.infections[ctx.priority(seat)]
    if not all(holds(ctx, seat, c.word, c.n) for c in card.win):
        return False
    return not any(holds(ctx, seat, c.word, c.n) for c in card.lose)
