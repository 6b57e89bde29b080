"""The verbs of games/parasite/EFFECTS.md done to the position: drawing, giving, discarding,
Test Results, infecting, tokens, moving, becoming Distressed, dying and being Revived."""

from __future__ import annotations

from collections.abc import Sequence

from . import effects, triggers
from .cards import LOCATION_DECKS
from .context import Aborted, Ctx, GameOver, Play


def locations(ctx: Ctx) -> list[str]:
    """The Locations a marker may stand on now (the active Mission too)."""
    out = [*LOCATION_DECKS, "helipad"]
    if ctx.s["mission"] is not None and not ctx.s["mission_done"]:
        out.append("mission")
    return out


def choose_location(ctx: Ctx, chooser: int, why: str) -> str:
    """Ask ``chooser`` for a Location."""
    places = locations(ctx)
    got = ctx.ask([chooser], {"kind": "location", "for": why, "choices": places})[chooser]
    place = got.get("to") if isinstance(got, dict) else None
    return place if place in places else places[0]


def draw(ctx: Ctx, seat: int, deck: str, count: int) -> list[str]:
    """``seat`` draws ``count`` cards of ``deck`` into the hand; Events resolve at once.
    Returns the non-Event cards drawn."""
    s = ctx.s
    got: list[str] = []
    events: list[str] = []
    for _ in range(count):
        if not s["decks"][deck]:
            break
        card = s["decks"][deck].pop()
        (events if ctx.cards.cards[card].kind == "event" else got).append(card)
    s["drawing"].extend(events)
    ctx.say(f"{ctx.name(seat)} draws {len(got) + len(events)} {deck.capitalize()} card(s).")
    if got:
        ctx.say(f"You drew {', '.join(ctx.card_name(c) for c in got)}.", [seat])
    s["hands"][seat].extend(got)
    resolve_events(ctx, seat, events)
    return got


def resolve_events(ctx: Ctx, seat: int, events: Sequence[str]) -> None:
    """Resolve the Events ``seat`` drew at once (waiting in ``state.drawing``) in the order
    ``seat`` chooses: while two or more different Events wait, the living ``seat`` is asked
    which resolves first (identical ones need no choice)."""
    waiting = list(events)
    while waiting:
        first = waiting[0]
        if len(set(waiting)) > 1 and seat < ctx.n and ctx.alive(seat):
            got = ctx.ask(
                [seat],
                {"kind": "first", "for": "the Events you drew", "count": len(waiting)},
                {seat: {"cards": list(waiting)}},
            )[seat]
            wanted = got.get("card") if isinstance(got, dict) else None
            if wanted in waiting:
                first = wanted
        waiting.remove(first)
        ctx.s["drawing"].remove(first)
        resolve_event(ctx, seat, first)


def draw_keep(ctx: Ctx, seat: int, deck: str, count: int, keep: int, why: str) -> None:
    """Draw ``count``, keep ``keep`` of the non-Event cards, discard the rest."""
    s = ctx.s
    before = len(s["hands"][seat])
    got = draw(ctx, seat, deck, count)
    got = [c for c in got if c in s["hands"][seat][before:]]
    if len(got) <= keep:
        return
    answer = ctx.ask([seat], {"kind": "keep", "for": why, "keep": keep}, {seat: {"cards": list(got)}})[seat]
    chosen = list(answer.get("cards", ())) if isinstance(answer, dict) else []
    kept: list[str] = []
    pool = list(got)
    for card in chosen:
        if card in pool and len(kept) < keep:
            pool.remove(card)
            kept.append(card)
    while len(kept) < keep:
        kept.append(pool.pop(0))
    for card in pool:
        s["hands"][seat].remove(card)
        ctx.discard_card(card)
    ctx.say(f"{ctx.name(seat)} keeps {keep} and discards {len(pool)}.")


def resolve_event(ctx: Ctx, seat: int, card: str) -> None:
    """Reveal and resolve an Event ``seat`` drew or kept, then discard it."""
    info = ctx.cards.cards[card]
    ctx.say(f"{ctx.name(seat)} reveals the Event {info.name}: {info.text}")
    ctx.discard_card(card)
    play = Play(me=seat, chooser=seat, name=info.name)
    try:
        effects.run(ctx, play, info.effects)
    except Aborted as stop:
        if stop.seat != seat:
            raise


def test(ctx: Ctx, tester: int, seat: int) -> None:
    """Test Results: only ``tester`` learns the side of ``seat``'s priority card."""
    if seat == tester:
        return
    side = ctx.side(seat)
    ctx.say(f"{ctx.name(tester)} uses Test Results on {ctx.name(seat)}.")
    ctx.say(f"Test Results: {ctx.name(seat)} is {side.capitalize()}.", [tester])
    if tester < ctx.n:
        ctx.s["tests"][tester][str(seat)] = side
    triggers.fire(ctx, "tested", subject=seat, source=tester, before=False)


def infect(ctx: Ctx, seat: int) -> None:
    """``seat`` takes the top Infection card face down; a revealed card that loses the
    priority is turned face down.  The Dog never takes a new one (the rulebook)."""
    s = ctx.s
    if seat >= ctx.n:
        return
    if not s["infection_deck"]:
        ctx.say(f"The Infection deck is empty: {ctx.name(seat)} takes nothing.")
        return
    before = ctx.priority(seat)
    card = s["infection_deck"].pop()
    s["infection"][seat].append(card)
    ctx.say(f"{ctx.name(seat)} takes the top card of the Infection deck face down.")
    ctx.say(f"Your new Infection card: {ctx.card_name(card)}.", [seat])
    if ctx.priority(seat) != before and seat < ctx.n and s["revealed"][seat]:
        s["revealed"][seat] = False
        ctx.say(
            f"{ctx.name(seat)}'s revealed Infection card no longer has the priority: it is turned face down."
        )


def give(ctx: Ctx, me: int, seat: int, count: int, play: Play) -> None:
    """``me`` gives ``count`` hand cards of their choice to ``seat``, unseen by others."""
    s = ctx.s
    hand = s["hands"][me]
    count = min(count, len(hand))
    if count == 0:
        return
    # Whether to ask depends only on the order and the hand size (public), never on whether a
    # card named with "with" is still in the hand: it may have left it unseen (a theft), and a
    # question asked then would tell the table.  A named card no longer held is replaced by
    # the first card of the hand.
    named = [c for c in play.cards if c in hand][:count]
    if len(play.cards) < count and len(hand) > count:  # not len(set(hand)): a pair is hidden
        got = ctx.ask([me], {"kind": "give", "for": play.name, "count": count}, {me: {"hand": list(hand)}})[
            me
        ]
        named = [c for c in (got.get("cards", ()) if isinstance(got, dict) else ()) if c in hand][:count]
    pool = list(hand)
    chosen = []
    for card in named:
        if card in pool:
            pool.remove(card)
            chosen.append(card)
    while len(chosen) < count:
        chosen.append(pool.pop(0))
    for card in chosen:
        hand.remove(card)
        s["hands"][seat].append(card)
    ctx.say(f"{ctx.name(me)} gives {count} card(s) to {ctx.name(seat)}.")
    ctx.say(
        f"{ctx.name(me)} gave {', '.join(ctx.card_name(c) for c in chosen)} to {ctx.name(seat)}.", [me, seat]
    )


def discard_from(ctx: Ctx, seats: Sequence[int], count: int, pick: str, why: str) -> None:
    """Each seat discards ``count`` hand cards, chosen by its owner or at random."""
    s = ctx.s
    asking = [
        p
        for p in seats
        if p < ctx.n and pick == "owner" and len(s["hands"][p]) > count  # a pair in hand is no reason to skip
    ]
    answers = {}
    if asking:
        answers = ctx.ask(
            asking,
            {"kind": "discard", "for": why, "count": count},
            {p: {"hand": list(s["hands"][p])} for p in asking},
        )
    for p in seats:
        if p >= ctx.n:
            continue
        hand = s["hands"][p]
        k = min(count, len(hand))
        chosen: list[str] = []
        wanted = answers.get(p, {}).get("cards", ()) if isinstance(answers.get(p), dict) else ()
        for card in wanted:
            if card in hand and len(chosen) < k:
                hand.remove(card)
                chosen.append(card)
        while len(chosen) < k:
            chosen.append(hand.pop(ctx.rng.randbelow(len(hand)) if pick == "random" else 0))
        for card in chosen:
            ctx.discard_card(card)
        if k:
            ctx.say(f"{ctx.name(p)} discards {k} card(s).")
            ctx.say(f"You discarded {', '.join(ctx.card_name(c) for c in chosen)}.", [p])


def exchange(ctx: Ctx, a: int, b: int) -> None:
    """``a`` takes a token of ``b``'s colour if they have none, and ``b`` one of ``a``'s."""
    s = ctx.s
    if a == b:
        return
    changed = False
    for carrier, colour in ((a, b), (b, a)):
        if colour not in s["tokens"][carrier] and s["supply"][colour] > 0:
            s["tokens"][carrier].append(colour)
            s["supply"][colour] -= 1
            changed = True
    if s["opt"]["unknown-infections"]:
        # Announced whether or not a token changed hands: that depends on hidden tokens.
        ctx.say(f"{ctx.name(a)} and {ctx.name(b)} exchange tokens in secret.")
        if changed:
            ctx.say(f"You exchanged tokens with {ctx.name(b)}.", [a])
            ctx.say(f"You exchanged tokens with {ctx.name(a)}.", [b])
    elif changed:
        ctx.say(f"{ctx.name(a)} and {ctx.name(b)} exchange tokens.")


def drop_tokens(ctx: Ctx, seat: int, count: int, why: str) -> None:
    """``seat`` gives back ``count`` tokens of other colours, chosen by them.  Under Unknown
    Infections the tokens are hidden, so a player is asked whatever they carry (even none)
    and the table only hears that tokens went back in secret."""
    s = ctx.s
    mine = s["tokens"][seat]
    hidden = s["opt"]["unknown-infections"]
    asked = count
    count = min(count, len(mine))
    if count == 0 and not hidden:
        return
    chosen: list[int] = []
    if seat < ctx.n and ctx.alive(seat) and (len(mine) > count or hidden):
        got = ctx.ask([seat], {"kind": "token", "for": why, "count": asked}, {seat: {"tokens": list(mine)}})[
            seat
        ]
        chosen = [t for t in (got.get("tokens", ()) if isinstance(got, dict) else ()) if t in mine][:count]
    for colour in list(mine):
        if len(chosen) >= count:
            break
        if colour not in chosen:
            chosen.append(colour)
    for colour in chosen:
        mine.remove(colour)
        s["supply"][colour] += 1
    if hidden:
        ctx.say(f"{ctx.name(seat)} gives back tokens in secret.")
        if seat < ctx.n:
            ctx.say(f"You gave back {len(chosen)} token(s).", [seat])
    else:
        ctx.say(f"{ctx.name(seat)} gives back {len(chosen)} token(s).")


def move(ctx: Ctx, seat: int, dest: str) -> None:
    """Move a marker; players already there may react to the arrival."""
    if not ctx.alive(seat) or ctx.loc(seat) == dest:
        return
    ctx.s["loc"][seat] = dest
    ctx.say(f"{ctx.name(seat)} moves to the {place_name(dest)}.")
    if seat < ctx.n:
        triggers.fire(ctx, "move-in", subject=seat, source=seat, before=False)


def place_name(loc: str) -> str:
    return "Mission" if loc == "mission" else loc.capitalize()


def revive(ctx: Ctx, seat: int, how: str) -> None:
    """A dead player comes back and places their marker where they choose."""
    s = ctx.s
    if ctx.alive(seat):
        return
    s["health"][seat] = how
    ctx.say(f"{ctx.name(seat)} is Revived, {how.capitalize()}.")
    s["loc"][seat] = choose_location(ctx, seat, "where you come back")
    ctx.say(f"{ctx.name(seat)} places their marker on the {place_name(s['loc'][seat])}.")


def distress(ctx: Ctx, seat: int, source: int | None) -> None:
    """``seat`` becomes Distressed (or Dies if already Distressed).  With a ``source`` player,
    Interrupts and passives may first strike or stop it; when the source dies of them, their
    Action never finishes (Aborted)."""
    s = ctx.s
    if not ctx.alive(seat):
        return
    if source is not None and source != seat:
        a = triggers.fire(ctx, "distressed-by", subject=seat, source=source, before=True)
        b = triggers.fire(ctx, "distress-here", subject=seat, source=source, before=True)
        if not ctx.alive(source):
            raise Aborted(source)
        if a or b:
            ctx.say(f"{ctx.name(seat)} does not become Distressed.")
            return
        if not ctx.alive(seat):
            return
    if source is not None and source != seat:
        s["violent"].append(source)
    where = ctx.loc(seat)
    if s["health"][seat] == "distressed":
        ctx.say(f"{ctx.name(seat)} is Distressed again and Dies.")
        die(ctx, seat)
    else:
        s["health"][seat] = "distressed"
        ctx.say(f"{ctx.name(seat)} becomes Distressed.")
        triggers.fire(ctx, "distress-here", subject=seat, source=source, before=False)
    dog_punish(ctx, where, source)


def dog_punish(ctx: Ctx, where: str | None, source: int | None) -> None:
    """A Distressed Dog bites whoever made someone Distressed in its Location."""
    s = ctx.s
    if not s["dog"] or source is None or source >= ctx.n or not ctx.alive(ctx.n) or not ctx.alive(source):
        return
    if s["health"][ctx.n] != "distressed" or ctx.loc(ctx.n) != where or s.get("punishing"):
        return
    ctx.say(f"{ctx.cards.dog.name} bites {ctx.name(source)}.")
    s["punishing"] = True
    try:
        play = Play(me=ctx.n, chooser=s["leader"], name=ctx.cards.dog.name, source=source)
        effects.run(ctx, play, ctx.cards.dog.distressed.punish)
    finally:
        s["punishing"] = False


def die(ctx: Ctx, seat: int) -> None:
    """``seat`` Dies: their cards are discarded, their marker leaves the board, the Leader
    token moves on; they keep their Infection cards and tokens."""
    s = ctx.s
    s["health"][seat] = "dead"
    s["loc"][seat] = None
    if seat < ctx.n:
        for card in s["hands"][seat] + s["items"][seat]:
            ctx.discard_card(card)
        s["hands"][seat] = []
        s["items"][seat] = []
    ctx.say(f"{ctx.name(seat)} is dead.")
    if not ctx.living():
        raise GameOver("every player is dead")
    if s["leader"] == seat:
        nxt = ctx.next_living(seat)
        if nxt is not None:
            s["leader"] = nxt
            ctx.say(f"The Leader token moves on to {ctx.name(nxt)}.")
    triggers.fire(ctx, "death", subject=seat, source=None, before=False)
