"""The rules of Parasite as pure functions of (state, orders, rng).

State (JSON only; the top of a deck is its last element).  Per-seat lists have one entry per
player, and one more for the Dog (seat ``n``) when it is in play::

    n, opt          players; the options (OPTION_DEFAULTS)
    chars           each player's character id
    decks           office / storehouse / laboratory / helipad draw piles (hidden)
    discards        one face-down discard pile per deck (hidden; sizes public)
    boxed           the Helipad cards left out of the game at setup (hidden)
    infection_deck  the Infection deck (hidden)
    infection       each seat's Infection cards (hidden; the highest priority counts)
    revealed        whether each seat's priority card is face up
    hands, items    hand cards (hidden) and Items on the character (public)
    health          "healthy" | "distressed" | "dead"
    loc             office | storehouse | laboratory | helipad | mission | None (dead)
    tokens, supply  tokens each seat carries (by colour = seat) and each colour left in supply
    leader, round   the Leader's seat and the round number (1-based)
    mission         the Mission card in play (None); mission_done once resolved this round
    upcoming        a Mission revealed this Escape Phase, placed at the next round's start
    played          seats that had their Turn this Game Phase
    drawing         cards drawn and not yet placed (an activation before the keep, Events in turn)
    violent         who made someone Distressed this and last Game Phase (the Dog's memory)
    reactions       each seat's standing reactions (sealed); prefer: standing keep preference
    notes, tests    what each seat privately learnt (texts; Test Results by seat)
    escaped         who Escaped at the end; winners, why, over
    proc            the procedure under way: {"kind": turn|infection|escape|round|final, ...}
    pending         the question awaited: {"ask", "base", "answers", "key", "reported"}

Every question to a seat goes through context.Ctx.ask; the engine keeps the state the
procedure began from (``base``), replays it with the answers so far and the same random key,
and saves the state as it stands at the question for the views.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game import Event, Resolution
from pbem.rng import Rng

from . import effects, triggers, verbs, winning
from .cards import LOCATION_DECKS, CardSet, load_cards
from .context import HAND_LIMIT, Aborted, Ctx, GameOver, Need, Play

State = dict[str, Any]

OPTION_DEFAULTS: dict[str, Any] = {
    "dog": False,
    "arctic-pot-luck": False,
    "untidy": False,
    "unknown-infections": False,
    "difficulty": "standard",
    "reactions": "standing",
    "leader": "first-seat",
    "start-location": "helipad",
    "activation-events": "drawn",
    "characters": "random",
    "round-order": "rulebook",
    "dog-first-move": "round-1",
    "hand-limit": "end-of-turn",
}
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "reactions": ("standing", "windows"),
    "leader": ("first-seat", "random"),
    "start-location": ("helipad", "office", "storehouse", "laboratory"),
    "activation-events": ("drawn", "kept"),
    "characters": ("random", "seat-order"),
    "round-order": ("rulebook", "infection-first"),
    "dog-first-move": ("round-1", "round-2"),
    "hand-limit": ("end-of-turn", "start-of-turn"),
}
LEGACY: dict[str, Any] = {
    "round-order": "infection-first",
    "dog-first-move": "round-2",
    "hand-limit": "start-of-turn",
}
"""Options added by the rules audit (README, "Rules audit (eleventh session)"), with the rule a
game saved before them was played under: pbem saves every option a game was created with, so
an option set holding every older option but not these is such a game, and its re-play
(``pbem verify``) and its rest keep that rule."""


def rule(state: Mapping[str, Any], name: str) -> Any:
    """The value of option ``name`` in force in ``state`` (:data:`LEGACY` for a game saved
    before the option existed)."""
    opt = state["opt"]
    return opt[name] if name in opt else LEGACY[name]


def options_of(options: Mapping[str, Any], cards: CardSet | None = None) -> dict[str, Any]:
    """The full option set.  Raises ValueError for an unknown option or a bad value."""
    cards = cards or load_cards()
    out = dict(OPTION_DEFAULTS)
    if all(name in options for name in OPTION_DEFAULTS if name not in LEGACY):
        # Every older option given, the new ones not: a game saved before them.  They stay out
        # of its options (its public view must not change), and rule() reads LEGACY for them.
        for name in LEGACY:
            del out[name]
    for name, value in options.items():
        if name not in OPTION_DEFAULTS:
            raise ValueError(f"parasite has no option {name!r}; options: {', '.join(OPTION_DEFAULTS)}")
        if type(value) is not type(OPTION_DEFAULTS[name]):
            raise ValueError(f"option {name!r} takes a {type(OPTION_DEFAULTS[name]).__name__}")
        out[name] = value
    for name, choices in OPTION_CHOICES.items():
        if name in out and out[name] not in choices:
            raise ValueError(f"option {name!r} is one of {', '.join(choices)}")
    if out["difficulty"] not in cards.adjust:
        raise ValueError(f"option 'difficulty' is one of {', '.join(cards.adjust)}")
    return out


# ---------------------------------------------------------------------------- setup


def setup(players: int, options: Mapping[str, Any], rng: Rng) -> State:
    """A new game for 4-8 players, up to the Leader's first Turn.  Raises ValueError for a
    bad player count or option."""
    cards = load_cards()
    if not 4 <= players <= 8:
        raise ValueError(f"Parasite is for 4 to 8 players, not {players}")
    opt = options_of(options, cards)
    dog = opt["dog"]
    seats = players + (1 if dog else 0)
    helipad = list(cards.decks["helipad"])
    rng.shuffle(helipad)
    in_play = 10 if players <= 6 else 12
    decks: dict[str, list[str]] = {"helipad": helipad[:in_play]}
    boxed = helipad[in_play:]
    if opt["untidy"]:
        pools = {d: list(cards.decks[d]) for d in LOCATION_DECKS}
        for d in LOCATION_DECKS:
            rng.shuffle(pools[d])
        for d in LOCATION_DECKS:
            decks[d] = []
            for other in LOCATION_DECKS:
                take = 12 if other == d else 6
                decks[d] += pools[other][:take]
                pools[other] = pools[other][take:]
    else:
        for d in LOCATION_DECKS:
            decks[d] = list(cards.decks[d])
    for d in LOCATION_DECKS:
        rng.shuffle(decks[d])
    discards: dict[str, list[str]] = {d: [] for d in (*LOCATION_DECKS, "helipad")}
    chars = [c.id for c in cards.characters]
    chars = rng.sample(chars, players) if opt["characters"] == "random" else chars[:players]
    hands: list[list[str]] = [[] for _ in range(seats)]
    for seat, char in enumerate(chars):
        for deck in cards.character(char).starting:
            while decks[deck]:
                card = decks[deck].pop()
                if cards.cards[card].kind == "event":
                    discards[deck].append(card)
                    continue
                hands[seat].append(card)
                break
    humans, parasites = cards.composition[players]
    add_h, add_p = cards.adjust[opt["difficulty"]]
    humans, parasites = humans + add_h, parasites + add_p
    if opt["arctic-pot-luck"]:
        pool = [*cards.humans(), *cards.parasites()]
        infection_pool = rng.sample(pool, humans + parasites)
    else:
        infection_pool = rng.sample(list(cards.humans()), humans) + rng.sample(
            list(cards.parasites()), parasites
        )
    if dog:
        infection_pool += [i for i in cards.infections if cards.infections[i].dog_only]
    rng.shuffle(infection_pool)
    infection = [[infection_pool.pop()] for _ in range(seats)]
    leader = 0 if opt["leader"] == "first-seat" else rng.randbelow(players)
    start = opt["start-location"]
    state: State = {
        "n": players,
        "opt": opt,
        "dog": dog,
        "chars": chars,
        "decks": decks,
        "discards": discards,
        "boxed": boxed,
        "infection_deck": infection_pool,
        "infection": infection,
        "revealed": [False] * seats,
        "hands": hands,
        "items": [[] for _ in range(seats)],
        "health": ["healthy"] * seats,
        "loc": [start] * seats,
        "tokens": [[] for _ in range(seats)],
        "supply": [8] * seats,
        "leader": leader,
        "round": 1,
        "mission": None,
        "mission_done": False,
        "upcoming": None,
        "played": [],
        "violent": [],
        "violent_prev": [],
        "reactions": [[] for _ in range(players)],
        "prefer": [None] * players,
        "notes": [[] for _ in range(players)],
        "tests": [{} for _ in range(players)],
        "escaped": [],
        "winners": None,
        "why": None,
        "over": False,
        "punishing": False,
        "drawing": [],
        "proc": {"kind": "turn", "seat": leader},
        "pending": None,
    }
    if dog and rule(state, "dog-first-move") == "round-1":
        state["proc"] = {"kind": "dog"}  # "At the start of the Game Phase, the Dog moves"
    for seat in range(players):
        state["notes"][seat].append(
            f"Round 1: you are {cards.character(chars[seat]).role}; your Infection card is "
            f"{cards.infections[infection[seat][0]].name}."
        )
    where = start.capitalize()
    opening = [Event(f"The game begins; player {leader + 1} is the Leader; everyone stands on the {where}.")]
    return _advance(state, [], _key(rng), 0, rng, opening).state


# ---------------------------------------------------------------------------- the engine


def _key(rng: Rng) -> str:
    return "".join(f"{rng.randbelow(1 << 32):08x}" for _ in range(4))


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (marshal copies plain dicts, lists, strings, numbers,
    booleans and None exactly, several times faster than walking them in Python)."""
    return marshal.loads(marshal.dumps(value))


def resolve(state: State, orders: Mapping[int, Any], rng: Rng) -> Resolution:
    """Apply the answers of the seats asked and run the game on to the next question.
    Raises ValueError for orders from the wrong seats (a bug: the engine asks ``to_act``)."""
    pending = state["pending"]
    if state["over"] or pending is None:
        raise ValueError("the game is over: no orders are awaited")
    seats = pending["ask"]["seats"]
    if sorted(orders) != sorted(seats):
        raise ValueError(f"orders from seats {sorted(orders)}, awaited {seats}")
    answers = [*pending["answers"], {str(seat): orders[seat] for seat in seats}]
    return _advance(pending["base"], answers, pending["key"], pending["reported"], rng, [])


def _advance(
    base: State, answers: list[dict[str, Any]], key: str, reported: int, rng: Rng, events: list[Event]
) -> Resolution:
    """Run procedures from ``base`` until one asks a question or the game ends."""
    cards = load_cards()
    while True:
        ctx = Ctx(_copy(base), cards, answers, Rng(bytes.fromhex(key)))
        try:
            try:
                run_procedure(ctx)
            except GameOver as end:
                finish(ctx, end.why, end.by)
        except Need as need:
            events += ctx.events[reported:]
            state = ctx.s
            state["pending"] = {
                "ask": {
                    "seats": list(need.seats),
                    "question": need.question,
                    "private": {str(k): v for k, v in need.private.items()},
                },
                "base": base,
                "answers": answers,
                "key": key,
                "reported": len(ctx.events),
            }
            return Resolution(state, tuple(events))
        events += ctx.events[reported:]
        state = ctx.s
        state["pending"] = None
        if state["over"]:
            return Resolution(state, tuple(events))
        base, answers, key, reported = state, [], _key(rng), 0


def run_procedure(ctx: Ctx) -> None:
    """Run the procedure ``proc`` names, then set the next one."""
    s = ctx.s
    proc = s["proc"]
    kind = proc["kind"]
    if kind == "turn":
        seat = proc["seat"]
        if ctx.alive(seat):
            turn(ctx, seat)
        s["played"].append(seat)
        nxt = ctx.next_living(seat)
        if nxt is None:
            raise GameOver("every player is dead")
        rulebook = rule(s, "round-order") == "rulebook"
        if nxt == s["leader"] or nxt in s["played"]:
            s["proc"] = {"kind": "escape" if rulebook else "infection"}
        else:
            s["proc"] = {"kind": "turn", "seat": nxt}
    elif kind == "infection":
        infection_phase(ctx)
        s["proc"] = {"kind": "round" if rule(s, "round-order") == "rulebook" else "escape"}
    elif kind == "escape":
        if escape_phase(ctx):
            s["proc"] = {"kind": "final"}
        else:
            s["proc"] = {"kind": "infection" if rule(s, "round-order") == "rulebook" else "round"}
    elif kind == "round":
        round_start(ctx)
        s["proc"] = {"kind": "turn", "seat": s["leader"]}
    elif kind == "dog":
        dog_moves(ctx)
        s["proc"] = {"kind": "turn", "seat": s["leader"]}
    elif kind == "final":
        final(ctx)
    else:
        raise ValueError(f"unknown procedure {kind!r}")


# ---------------------------------------------------------------------------- the Game Phase


def turn(ctx: Ctx, seat: int) -> None:
    """One player's Turn: Items placed from the hand, Action(s), movement, activation, then
    the hand limit (at the start instead under ``hand-limit=start-of-turn``)."""
    s = ctx.s
    order = ctx.ask([seat], {"kind": "turn", "seat": seat, "round": s["round"]})[seat]
    ctx.say(f"Player {seat + 1}'s Turn.")
    for card in order.get("place", ()):
        if card in s["hands"][seat]:
            s["hands"][seat].remove(card)
            s["items"][seat].append(card)
            ctx.say(f"Player {seat + 1} places the Item {ctx.card_name(card)} on their character.")
    at_end = rule(s, "hand-limit") == "end-of-turn"
    if not at_end:
        hand_limit(ctx, seat, order.get("limit", ()), ask=False)
    allowed = 1
    for action in order.get("actions", ()):
        if allowed <= 0 or not ctx.alive(seat):
            break
        allowed -= 1
        ctx.extra = 0
        try:
            do_action(ctx, seat, action)
        except Aborted as stop:
            if stop.seat != seat:
                raise
            ctx.say(f"Player {seat + 1}'s Action never finishes.")
        allowed += ctx.extra
    if not ctx.alive(seat):
        return
    dest = order.get("move")
    if dest is not None and dest in verbs.locations(ctx):
        verbs.move(ctx, seat, dest)
    if ctx.alive(seat):
        activate(ctx, seat)
    if at_end and ctx.alive(seat):
        hand_limit(ctx, seat, order.get("limit", ()), ask=True)


def hand_limit(ctx: Ctx, seat: int, limit: Sequence[Mapping[str, Any]], ask: bool) -> None:
    """ "Discard or give cards to another player in your Location until you have three or
    fewer cards in your hand": first the cards the Turn file named (a gift to a player no
    longer in your Location is discarded), then, with ``ask``, the cards the player names when
    asked, else at random.  Whether they are asked depends only on their hand size (public)
    and how many cards their file named, never on which cards are still held."""
    s = ctx.s
    hand = s["hands"][seat]
    entries = list(limit)
    excess = len(hand) - HAND_LIMIT
    if ask and excess > len(entries):
        pool = list(hand)
        for entry in entries:
            if entry["card"] in pool:
                pool.remove(entry["card"])
        got = ctx.ask(
            [seat],
            {"kind": "discard", "for": "the hand limit", "count": excess - len(entries)},
            {seat: {"hand": pool}},
        )[seat]
        entries += [{"card": card} for card in (got.get("cards", ()) if isinstance(got, dict) else ())]
    for entry in entries:
        if len(hand) <= HAND_LIMIT or entry["card"] not in hand:
            continue
        card = entry["card"]
        target = entry.get("to")
        if target is not None and target in ctx.here(seat, dog=False):
            hand.remove(card)
            s["hands"][target].append(card)
            ctx.say(f"Player {seat + 1} gives a card to {ctx.name(target)} (hand limit).")
            ctx.say(f"Player {seat + 1} gave {ctx.card_name(card)} to {ctx.name(target)}.", [seat, target])
        else:
            hand.remove(card)
            ctx.discard_card(card)
            ctx.say(f"Player {seat + 1} discards a card (hand limit).")
            ctx.say(f"You discarded {ctx.card_name(card)}.", [seat])
    while len(hand) > HAND_LIMIT:
        card = hand.pop(ctx.rng.randbelow(len(hand)))
        ctx.discard_card(card)
        ctx.say(f"Player {seat + 1} discards a card at random (hand limit).")


def _play(seat: int, name: str, action: Mapping[str, Any]) -> Play:
    """The Play of one Action of ``seat``'s orders, with what the order line named."""
    return Play(
        me=seat,
        chooser=seat,
        name=name,
        by_player=True,
        target=action.get("target"),
        option=action.get("option"),
        to=action.get("to"),
        cards=tuple(action.get("cards", ())),
    )


def do_action(ctx: Ctx, seat: int, action: Mapping[str, Any]) -> None:
    """Do one Action of ``seat``'s orders; what no longer fits the position does nothing."""
    s = ctx.s
    kind = action["type"]
    target = action.get("target")
    if kind == "play":
        card_id = action["card"]
        if card_id not in s["hands"][seat]:
            ctx.say(f"Player {seat + 1} no longer holds the card they meant to play: no Action.")
            return
        card = ctx.cards.cards[card_id]
        s["hands"][seat].remove(card_id)
        ctx.say(f"Player {seat + 1} plays {card.name}: {card.text}")
        play = _play(seat, card.name, action)
        try:
            effects.run(ctx, play, card.effects)
        finally:
            ctx.discard_card(card_id)
    elif kind == "use":
        card_id = action["card"]
        if card_id not in s["items"][seat]:
            ctx.say(f"Player {seat + 1} no longer has the Item they meant to use: no Action.")
            return
        card = ctx.cards.cards[card_id]
        ctx.say(f"Player {seat + 1} uses {card.name}.")
        play = _play(seat, card.name, action)
        if not card.keep:
            s["items"][seat].remove(card_id)
            ctx.discard_card(card_id)
        effects.run(ctx, play, card.use)
    elif kind == "ability":
        char = ctx.cards.character(s["chars"][seat])
        side = char.healthy if s["health"][seat] == "healthy" else char.distressed
        if side.ability is None or side.ability.when != "action":
            ctx.say(f"Player {seat + 1}'s character has no such ability now: no Action.")
            return
        ctx.say(f"Player {seat + 1} uses the {char.role}'s ability: {side.text}")
        effects.run(
            ctx,
            _play(seat, f"the {char.role}'s ability", action),
            side.ability.effects,
        )
    elif kind == "infection":
        inf = ctx.cards.infections[ctx.priority(seat)]
        if inf.ability is None or inf.ability.when != "action":
            ctx.say(f"Player {seat + 1}'s Infection card has no such ability: no Action.")
            return
        effects.run(ctx, _play(seat, f"{inf.name}'s ability", action), inf.ability.effects)
    elif kind == "distress":
        if target is None or target not in ctx.here(seat):
            ctx.say(f"Player {seat + 1}'s target is no longer in their Location: no Action.")
            return
        ctx.say(f"Player {seat + 1} makes {ctx.name(target)} Distressed.")
        play = _play(seat, "the Action", action)
        play.chosen["other-here"] = target
        play.targeted = True
        triggers.fire(ctx, "targeted", subject=target, source=seat, before=True)
        if not ctx.alive(seat):
            raise Aborted(seat)
        verbs.distress(ctx, target, seat)
    elif kind == "pet":
        if not s["dog"] or s["health"][ctx.n] != "healthy" or ctx.n not in ctx.here(seat):
            ctx.say(f"Player {seat + 1} cannot pet {ctx.cards.dog.name} now: no Action.")
            return
        ctx.say(f"Player {seat + 1} pets {ctx.cards.dog.name}.")
        effects.run(ctx, _play(seat, ctx.cards.dog.name, action), ctx.cards.dog.healthy.action)


def pick_keep(ctx: Ctx, seat: int, cards: list[str], why: str) -> str | None:
    """Which of ``cards`` ``seat`` keeps: their standing preference, else their answer.
    None: discard them all (only when the deck held one card)."""
    prefer = ctx.s["prefer"][seat]
    if prefer is not None:
        for word in prefer:
            for card in cards:
                info = ctx.cards.cards[card]
                if word in (card, info.icon, info.kind):
                    return card
        return cards[0]
    got = ctx.ask(
        [seat],
        {"kind": "keep", "for": why, "keep": 1, "may_discard": len(cards) == 1},
        {seat: {"cards": list(cards)}},
    )[seat]
    chosen = got.get("cards", ()) if isinstance(got, dict) else ()
    if not chosen and len(cards) == 1:
        return None
    return chosen[0] if chosen and chosen[0] in cards else cards[0]


def activate(ctx: Ctx, seat: int) -> None:
    """Activate ``seat``'s Location: draw two keep one, look at two Helipad cards, or nothing."""
    s = ctx.s
    where = ctx.loc(seat)
    if where in LOCATION_DECKS:
        deck = s["decks"][where]
        if not deck:
            ctx.say(f"Player {seat + 1} activates the {where.capitalize()}: its deck is empty.")
        else:
            drawn = [deck.pop() for _ in range(min(2, len(deck)))]
            s["drawing"].extend(drawn)
            ctx.say(f"Player {seat + 1} activates the {where.capitalize()} and draws {len(drawn)} card(s).")
            single = len(drawn) == 1
            if s["opt"]["activation-events"] == "drawn":
                rest = [card for card in drawn if ctx.cards.cards[card].kind != "event"]
                verbs.resolve_events(ctx, seat, [card for card in drawn if card not in rest])
                if not ctx.alive(seat):  # died of an Event: the other cards are discarded
                    for card in rest:
                        s["drawing"].remove(card)
                        ctx.discard_card(card)
                    return
                keep_from(ctx, seat, rest, single)
            else:
                keep_from(ctx, seat, drawn, single)
        if not ctx.alive(seat):
            return
        if s["dog"] and ctx.alive(ctx.n) and s["health"][ctx.n] == "healthy" and ctx.loc(ctx.n) == where:
            ctx.say(f"{ctx.cards.dog.name} helps player {seat + 1}.")
            effects.run(
                ctx, Play(me=seat, chooser=seat, name=ctx.cards.dog.name), ctx.cards.dog.healthy.activate
            )
        triggers.fire(ctx, "activate", subject=seat, source=None, before=False)
    elif where == "helipad":
        deck = s["decks"]["helipad"]
        if not deck:
            ctx.say(f"Player {seat + 1} activates the Helipad: its deck is empty.")
            return
        top = deck[-2:][::-1]
        ctx.say(f"Player {seat + 1} activates the Helipad and looks at the top {len(top)} card(s).")
        got = ctx.ask(
            [seat],
            {"kind": "leave", "count": len(top), "may_discard": len(top) == 1},
            {seat: {"cards": list(top)}},
        )[seat]
        leave = got.get("card") if isinstance(got, dict) else None
        if leave not in top:
            leave = None if len(top) == 1 and isinstance(got, dict) and "card" in got else top[0]
        del deck[-len(top) :]
        rest = list(top)
        if leave is not None:
            rest.remove(leave)
        s["discards"]["helipad"].extend(rest)
        if leave is not None:
            deck.append(leave)
        gone = len(top) - (1 if leave is not None else 0)
        ctx.say(f"Player {seat + 1} leaves {'one card' if leave else 'no card'} on top and discards {gone}.")
        ctx.say(
            f"You looked at {', '.join(ctx.card_name(c) for c in top)}"
            + (f" and left {ctx.card_name(leave)} on top." if leave else " and discarded it."),
            [seat],
        )
    else:
        ctx.say(f"Player {seat + 1} is on the Mission: nothing is drawn.")


def keep_from(ctx: Ctx, seat: int, cards: list[str], single: bool) -> None:
    """Keep one of the activation's non-Event cards (or, with activation-events = kept, of
    all of them: a kept Event resolves), discard the rest."""
    s = ctx.s
    if not cards:
        return
    keep: str | None = cards[0]
    if len(cards) > 1 or single:
        keep = pick_keep(ctx, seat, cards, "your activation")
    for card in cards:
        s["drawing"].remove(card)
    rest = list(cards)
    if keep is not None:
        rest.remove(keep)
    for card in rest:
        ctx.discard_card(card)
    if keep is None:
        ctx.say(f"Player {seat + 1} discards the card.")
        return
    info = ctx.cards.cards[keep]
    ctx.say(f"Player {seat + 1} keeps one card" + (" and discards the other." if len(cards) > 1 else "."))
    if info.kind == "event":
        verbs.resolve_event(ctx, seat, keep)
    elif info.kind == "item":
        s["items"][seat].append(keep)
        ctx.say(f"Player {seat + 1} places the Item {info.name} on their character.")
    else:
        s["hands"][seat].append(keep)
        ctx.say(f"You kept {info.name}.", [seat])


# ---------------------------------------------------------------------------- other phases


def infection_phase(ctx: Ctx) -> None:
    """Reactions at its start, token exchange in every Location, the Leader token passed on."""
    s = ctx.s
    ctx.say(f"Infection Phase of round {s['round']}.")
    triggers.fire(ctx, "infection-phase", subject=None, source=None, before=False)
    places: dict[str, list[int]] = {}
    for seat in ctx.living_all():
        where = ctx.loc(seat)
        if where is not None:
            places.setdefault(where, []).append(seat)
    for where in sorted(places):
        group = sorted(places[where])
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                verbs.exchange(ctx, a, b)
    nxt = ctx.next_living(s["leader"])
    if nxt is not None and nxt != s["leader"]:
        s["leader"] = nxt
        ctx.say(f"The Leader token passes to player {nxt + 1}.")


def escape_phase(ctx: Ctx) -> bool:
    """Resolve the active Mission, then reveal the next Helipad card.  True when the Helipad
    deck is empty (the game ends with the choice to Escape or Stay behind)."""
    s = ctx.s
    ctx.say(f"Escape Phase of round {s['round']}.")
    triggers.fire(ctx, "escape-phase", subject=None, source=None, before=False)
    leader = s["leader"]
    if s["mission"] is not None and not s["mission_done"]:
        card = ctx.cards.cards[s["mission"]]
        on = [p for p in ctx.living_all() if ctx.loc(p) == "mission"]
        need = card.needed(s["n"])
        passed = len(on) >= need
        ctx.say(f"The Mission {card.name}: {len(on)} on it, {need} needed: {'PASS' if passed else 'FAIL'}.")
        s["mission_done"] = True
        play = Play(me=None, chooser=leader, name=card.name, helipad=True)
        effects.run(ctx, play, card.pass_ if passed else card.fail)
    deck = s["decks"]["helipad"]
    if not deck:
        ctx.say("The Helipad deck is empty: the helicopter is here.")
        return True
    card_id = deck.pop()
    card = ctx.cards.cards[card_id]
    ctx.say(f"The Leader reveals {card.name} ({card.kind.capitalize()}): {card.text}")
    if card.kind == "crisis":
        s["discards"]["helipad"].append(card_id)
        effects.run(ctx, Play(me=None, chooser=s["leader"], name=card.name, helipad=True), card.effects)
    else:
        s["upcoming"] = card_id
    return False


def round_start(ctx: Ctx) -> None:
    """A new round: the players on a resolved Mission go back to the starting Location, the
    new Mission is placed, the Dog moves."""
    s = ctx.s
    s["round"] += 1
    s["played"] = []
    start = s["opt"]["start-location"]
    if s["mission"] is not None and s["mission_done"]:
        for seat in ctx.living_all():
            if ctx.loc(seat) == "mission":
                s["loc"][seat] = start
        s["discards"]["helipad"].append(s["mission"])
        ctx.say(f"The Mission is over; whoever was on it goes back to the {start.capitalize()}.")
        s["mission"], s["mission_done"] = None, False
    if s["upcoming"] is not None:
        s["mission"], s["upcoming"] = s["upcoming"], None
        ctx.say(f"The Mission {ctx.card_name(s['mission'])} is in play until the next Escape Phase.")
    ctx.say(f"Round {s['round']} begins; player {s['leader'] + 1} is the Leader.")
    if s["dog"] and ctx.alive(ctx.n):
        dog_moves(ctx)
    s["violent_prev"], s["violent"] = s["violent"], []


def dog_moves(ctx: Ctx) -> None:
    """At the start of the Game Phase the Dog goes to a player its side seeks (EFFECTS.md)."""
    s = ctx.s
    dog = ctx.n
    side = ctx.cards.dog.healthy if s["health"][dog] == "healthy" else ctx.cards.dog.distressed
    players = ctx.living()
    for word in side.seeks:
        match = [p for p in players if seeks(ctx, word, p)]
        if not match:
            continue
        places = sorted({ctx.loc(p) or "" for p in match} - {""})
        if ctx.loc(dog) in places:
            ctx.say(f"{ctx.cards.dog.name} stays where it is.")
            return
        if len(places) == 1:
            dest = places[0]
        else:
            got = ctx.ask([s["leader"]], {"kind": "location", "for": "where the Dog goes", "choices": places})
            answer = got[s["leader"]]
            wanted = answer.get("to") if isinstance(answer, dict) else None
            dest = wanted if wanted in places else places[0]
        verbs.move(ctx, dog, dest)
        return
    verbs.move(ctx, dog, verbs.choose_location(ctx, s["leader"], "where the Dog goes (nobody matches)"))


def seeks(ctx: Ctx, word: str, p: int) -> bool:
    """Whether living player ``p`` matches a Dog movement criterion."""
    s = ctx.s
    if word == "distressed":
        return s["health"][p] == "distressed"
    if word == "healthy":
        return s["health"][p] == "healthy"
    if word == "alone":
        return not ctx.here(p)
    if word == "violent":
        return p in s["violent"] or p in s["violent_prev"]
    if word == "leader":
        return p == s["leader"]
    if word == "most-cards":
        return len(s["hands"][p]) >= max(len(s["hands"][q]) for q in ctx.living())
    if word == "crowd":
        size = len(ctx.here(p, others=False, dog=False))
        return size >= max(len(ctx.here(q, others=False, dog=False)) for q in ctx.living())
    raise ValueError(f"unknown criterion {word!r}")


def final(ctx: Ctx) -> None:
    """The Helipad deck is empty: from the Leader, each living player chooses to Escape or
    Stay behind; the Dog Escapes if the Leader says so; then everyone reveals."""
    s = ctx.s
    triggers.fire(ctx, "game-end", subject=None, source=None, before=False)
    for seat in ctx.living():
        got = ctx.ask([seat], {"kind": "escape", "seat": seat, "escaped": list(s["escaped"])})[seat]
        if isinstance(got, dict) and got.get("escape"):
            s["escaped"].append(seat)
            ctx.say(f"Player {seat + 1} Escapes.")
        else:
            ctx.say(f"Player {seat + 1} Stays behind.")
    if s["dog"] and ctx.alive(ctx.n):
        dog_escape(ctx)
    finish(ctx, "the helicopter left", None)


def dog_escape(ctx: Ctx) -> None:
    """The Dog Escapes if the Leader or the living Dog Lover chooses so (the rulebook).  Every
    living player is asked the same question, so asking says nothing of who holds Dog Lover;
    only the Leader's and the Dog Lover's answers count."""
    s = ctx.s
    asked = ctx.living()
    got = ctx.ask(asked, {"kind": "dog-escape", "escaped": list(s["escaped"])})
    deciders = [p for p in asked if p == s["leader"] or ctx.cards.infections[ctx.priority(p)].dog_only]
    if any(isinstance(got.get(p), dict) and got[p].get("escape") for p in deciders):
        s["escaped"].append(ctx.n)
        ctx.say(f"{ctx.cards.dog.name} Escapes with them.")
    else:
        ctx.say(f"{ctx.cards.dog.name} stays behind.")


def finish(ctx: Ctx, why: str, by: int | None) -> None:
    """End the game: reveal every Infection card and decide the Winners."""
    s = ctx.s
    s["over"] = True
    s["why"] = why
    s["pending"] = None
    ctx.say(f"The game is over: {why}.")
    order = sorted(s["escaped"]) + [p for p in ctx.seats() if p not in s["escaped"]]
    for seat in order:
        ctx.say(
            f"{ctx.name(seat)} reveals {ctx.card_name(ctx.priority(seat))} ({ctx.side(seat).capitalize()})."
        )
    if not ctx.living():
        s["winners"] = []
        ctx.say("Every player is dead: nobody wins.")
        return
    s["winners"] = [p for p in range(s["n"]) if winning.wins_now(ctx, p)]
    names = ", ".join(f"player {p + 1}" for p in s["winners"]) or "nobody"
    ctx.say(f"Winners: {names}.")
