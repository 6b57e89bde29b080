"""The effect executor: runs the vocabulary of games/parasite/EFFECTS.md on a state.

A *procedure* (a player's turn, a phase) runs on a private copy of the state through a
:class:`Ctx`.  Whenever a seat must decide something the orders given so far do not say (which
card to keep, a target for an Event, the Leader's choice on a Crisis, a reaction window), the
procedure calls :meth:`Ctx.ask`: with an answer already filed it returns it, otherwise it raises
:class:`Need` and the engine (rules.py) saves the question.  When the answers come, the
procedure runs again from its start on the same state with the same random key and all the
answers so far, so a procedure is a pure function of (state, answers, key): no continuation is
ever stored, only JSON.

Seats are 0-based ints; the Dog, when in play, is seat ``n`` (it takes no turns and is never
asked anything: the Leader decides for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.game import Event
from pbem.rng import Rng

from .cards import CHOSEN_TARGETS, INTERRUPT_TRIGGERS, LOCATION_DECKS, CardSet, Step

State = dict[str, Any]
HAND_LIMIT = 3


class Need(Exception):
    """A procedure needs answers from ``seats`` to ``question`` before it can go on."""

    def __init__(self, seats: Sequence[int], question: dict[str, Any], private: dict[int, Any]) -> None:
        super().__init__(question.get("kind"))
        self.seats = tuple(seats)
        self.question = question
        self.private = private


class Aborted(Exception):
    """``seat`` died while their Action or card was being resolved: it never finishes."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class GameOver(Exception):
    """The game ends at once (an ``end-game`` ability, or every player dead)."""

    def __init__(self, why: str, by: int | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.by = by


def who(seat: int, n: int | None = None) -> str:
    """How reports name a seat ("player N", 1-based); seat ``n`` is the Dog."""
    return "the Dog" if n is not None and seat == n else f"player {seat + 1}"


@dataclass
class Play:
    """One card, ability or Action being resolved: who plays it and what they chose."""

    me: int | None
    """The player it belongs to (None for a Helipad card)."""
    chooser: int
    """Who makes its choices (the player, or the Leader for Helipad cards)."""
    name: str
    source: int | None = None
    """The player whose Action or card triggered it (Reactions, Interrupts, passives)."""
    by_player: bool = False
    """A player's Action, card or ability (Interrupts can answer it); Events and Helipad cards are not."""
    helipad: bool = False
    target: int | None = None
    option: int | None = None
    to: str | None = None
    cards: tuple[str, ...] = ()
    chosen: dict[str, int] = field(default_factory=dict)
    targeted: bool = False
    cancelled: bool = False
    prevented: bool = False


class Ctx:
    """The state being changed by one procedure, its answers, its random stream and events."""

    def __init__(self, state: State, cards: CardSet, answers: list[dict[str, Any]], rng: Rng) -> None:
        self.s = state
        self.cards = cards
        self.answers = answers
        self.pos = 0
        self.rng = rng
        self.events: list[Event] = []
        self.n: int = state["n"]
        self.extra = 0

    # ------------------------------------------------------------------ asking and telling

    def ask(
        self, seats: Sequence[int], question: dict[str, Any], private: dict[int, Any] | None = None
    ) -> dict[int, Any]:
        """The answers of ``seats`` to ``question`` (public) with ``private`` details per seat.
        Raises Need when they are not filed yet."""
        if self.pos < len(self.answers):
            got = self.answers[self.pos]
            self.pos += 1
            out = {int(k): v for k, v in got.items()}
            for seat, answer in out.items():
                self.standing(seat, answer)
            return out
        raise Need(seats, question, private or {})

    def standing(self, seat: int, answer: Any) -> None:
        """Apply the standing orders filed with an answer: reactions and the keep preference."""
        if not isinstance(answer, dict):
            return
        mine = self.s["reactions"][seat]
        for gone in answer.get("withdraw", ()):
            mine[:] = [r for r in mine if gone != "all" and r["card"] != gone]
        for new in answer.get("react", ()):
            mine[:] = [r for r in mine if r["card"] != new["card"]] + [dict(new)]
        if "prefer" in answer:
            self.s["prefer"][seat] = answer["prefer"]

    def say(self, text: str, to: Sequence[int] | None = None) -> None:
        """Report an event: to everyone, or only to ``to`` (the Dog's seat is dropped)."""
        if to is None:
            self.events.append(Event(text))
            return
        seats = tuple(sorted({t for t in to if t < self.n}))
        if seats:
            self.events.append(Event(text, seats))
            for seat in seats:
                self.s["notes"][seat].append(f"Round {self.s['round']}: {text}")

    def name(self, seat: int) -> str:
        return who(seat, self.n)

    def chooser(self, play: Play) -> int:
        """Who makes ``play``'s choices now: the current Leader for a Helipad card (a new
        Leader if the last one died of it), else its player."""
        return int(self.s["leader"]) if play.helipad else play.chooser

    def card_name(self, card_id: str) -> str:
        if card_id in self.cards.cards:
            return self.cards.cards[card_id].name
        return self.cards.infections[card_id].name

    # ------------------------------------------------------------------ facts

    def seats(self) -> range:
        """Every seat that can be targeted: the players, and the Dog when in play."""
        return range(self.n + (1 if self.s["dog"] else 0))

    def alive(self, seat: int) -> bool:
        return self.s["health"][seat] != "dead"

    def living(self) -> list[int]:
        """Living players (not the Dog), from the Leader clockwise."""
        lead = self.s["leader"]
        order = [(lead + k) % self.n for k in range(self.n)]
        return [s for s in order if self.alive(s)]

    def living_all(self) -> list[int]:
        """Living players and the living Dog."""
        out = self.living()
        if self.s["dog"] and self.alive(self.n):
            out.append(self.n)
        return out

    def loc(self, seat: int) -> str | None:
        loc: str | None = self.s["loc"][seat]
        return loc

    def here(self, seat: int, others: bool = True, dog: bool = True) -> list[int]:
        """Living seats in ``seat``'s Location (without ``seat`` when ``others``)."""
        where = self.loc(seat)
        pool = self.living_all() if dog else self.living()
        return [s for s in pool if where is not None and self.loc(s) == where and not (others and s == seat)]

    def priority(self, seat: int) -> str:
        """The seat's Infection card with the highest priority."""
        cards = self.s["infection"][seat]
        return max(cards, key=lambda c: self.cards.infections[c].priority)

    def side(self, seat: int) -> str:
        return self.cards.infections[self.priority(seat)].side

    def next_living(self, seat: int) -> int | None:
        for k in range(1, self.n + 1):
            nxt = (seat + k) % self.n
            if self.alive(nxt):
                return nxt
        return None

    # ------------------------------------------------------------------ moving cards

    def discard_card(self, card: str) -> None:
        """Put a card face down on its deck's discard pile."""
        self.s["discards"][self.cards.cards[card].deck].append(card)

    def deck_of_location(self, seat: int) -> str | None:
        where = self.loc(seat)
        return where if where in LOCATION_DECKS else None


# ---------------------------------------------------------------------------- targets


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
        fire(ctx, "targeted", subject=seat, source=me, before=True)
        if not ctx.alive(me):
            raise Aborted(me)
    return [seat]


# ---------------------------------------------------------------------------- running steps


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
        ok = [k for k, option in enumerate(step.options) if feasible(ctx, play, option)]
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
        if me is not None and wins_now(ctx, me):
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
            draw(ctx, me, deck, step.count)
        else:
            draw_keep(ctx, me, deck, step.count, step.keep, play.name)
        return
    for seat in targets(ctx, play, step):
        if play.cancelled:
            return
        apply(ctx, play, step, seat, source)


def apply(ctx: Ctx, play: Play, step: Step, seat: int, source: int | None) -> None:
    """Do a targeted verb to one seat."""
    s = ctx.s
    verb = step.do
    me = play.me
    if verb == "distress":
        distress(ctx, seat, source)
    elif verb == "heal":
        if s["health"][seat] == "distressed":
            s["health"][seat] = "healthy"
            ctx.say(f"{ctx.name(seat)} becomes Healthy.")
    elif verb == "kill":
        if ctx.alive(seat):
            ctx.say(f"{ctx.name(seat)} is killed.")
            die(ctx, seat)
    elif verb == "revive":
        revive(ctx, seat, step.revive_as or "healthy")
    elif verb == "discard":
        discard_from(ctx, [seat], step.count, step.pick, play.name)
    elif verb == "steal" and me is not None:
        hand = s["hands"][seat]
        taken = [hand.pop(ctx.rng.randbelow(len(hand))) for _ in range(min(step.count, len(hand)))]
        s["hands"][me].extend(taken)
        ctx.say(f"{ctx.name(me)} takes {len(taken)} random card(s) from {ctx.name(seat)}.")
        if taken:
            names = ", ".join(ctx.card_name(c) for c in taken)
            ctx.say(f"{ctx.name(me)} took {names} from {ctx.name(seat)}.", [me, seat])
    elif verb == "give" and me is not None:
        give(ctx, me, seat, step.count, play)
    elif verb == "look-hand" and me is not None:
        shown = ", ".join(ctx.card_name(c) for c in s["hands"][seat]) or "no cards"
        ctx.say(f"{ctx.name(me)} looks at {ctx.name(seat)}'s hand.")
        ctx.say(f"{ctx.name(seat)}'s hand: {shown}.", [me])
    elif verb == "test":
        tester = me if me is not None else ctx.chooser(play)
        test(ctx, tester, seat)
    elif verb == "unreveal":
        if seat < ctx.n and s["revealed"][seat]:
            s["revealed"][seat] = False
            ctx.say(f"{ctx.name(seat)}'s Infection card is turned face down again.")
    elif verb == "infect":
        infect(ctx, seat)
    elif verb == "move":
        dest = step.to
        if dest == "here":
            dest = ctx.loc(me) if me is not None else None
        elif dest == "any":
            dest = play.to or choose_location(ctx, ctx.chooser(play), play.name)
            play.to = dest
        if dest is not None:
            move(ctx, seat, dest)
    elif verb == "take-token" and me is not None:
        exchange(ctx, me, seat)
    elif verb == "drop-token":
        drop_tokens(ctx, seat, step.count, play.name)
    elif verb == "pass-leader" and s["leader"] != seat and seat < ctx.n:
        s["leader"] = seat
        ctx.say(f"The Leader token goes to {ctx.name(seat)}.")


# ---------------------------------------------------------------------------- verbs


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
    for card in events:
        s["drawing"].remove(card)
        resolve_event(ctx, seat, card)
    return got


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
        run(ctx, play, info.effects)
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
    fire(ctx, "tested", subject=seat, source=tester, before=False)


def infect(ctx: Ctx, seat: int) -> None:
    """``seat`` takes the top Infection card face down; a revealed card that loses the
    priority is turned face down."""
    s = ctx.s
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
    named = [c for c in play.cards if c in hand][:count]
    if len(named) < count and len(hand) > count:  # not len(set(hand)): a pair is hidden
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
    if changed:
        if s["opt"]["unknown-infections"]:
            ctx.say(f"{ctx.name(a)} and {ctx.name(b)} exchange tokens in secret.")
            ctx.say(f"You exchanged tokens with {ctx.name(b)}.", [a])
            ctx.say(f"You exchanged tokens with {ctx.name(a)}.", [b])
        else:
            ctx.say(f"{ctx.name(a)} and {ctx.name(b)} exchange tokens.")


def drop_tokens(ctx: Ctx, seat: int, count: int, why: str) -> None:
    """``seat`` gives back ``count`` tokens of other colours, chosen by them."""
    s = ctx.s
    mine = s["tokens"][seat]
    count = min(count, len(mine))
    if count == 0:
        return
    chosen: list[int] = []
    if len(mine) > count and seat < ctx.n:
        got = ctx.ask([seat], {"kind": "token", "for": why, "count": count}, {seat: {"tokens": list(mine)}})[
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
    ctx.say(f"{ctx.name(seat)} gives back {len(chosen)} token(s).")


def move(ctx: Ctx, seat: int, dest: str) -> None:
    """Move a marker; players already there may react to the arrival."""
    if not ctx.alive(seat) or ctx.loc(seat) == dest:
        return
    ctx.s["loc"][seat] = dest
    ctx.say(f"{ctx.name(seat)} moves to the {place_name(dest)}.")
    if seat < ctx.n:
        fire(ctx, "move-in", subject=seat, source=seat, before=False)


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
        a = fire(ctx, "distressed-by", subject=seat, source=source, before=True)
        b = fire(ctx, "distress-here", subject=seat, source=source, before=True)
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
        fire(ctx, "distress-here", subject=seat, source=source, before=False)
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
        run(ctx, play, ctx.cards.dog.distressed.punish)
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
    fire(ctx, "death", subject=seat, source=None, before=False)


# ---------------------------------------------------------------------------- triggers


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


def window_triggers(cards: CardSet, before: bool) -> set[str]:
    """Triggers some card or ability can answer in this pass (a public fact of the set)."""
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
    return out


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
                run(ctx, play, card.effects)
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
        if not feasible(ctx, play, ability.effects):
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
    if not feasible(ctx, play, card.effects):
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
        run(ctx, play, steps)
    except Aborted as stop:
        if stop.seat != seat:
            raise


# ---------------------------------------------------------------------------- winning


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
