"""The rules of Symbiote as pure functions of (state, orders, rng).

State (JSON only; lists of cards are multisets, the top of a pile is its last element)::

    n         number of players; seats 0..n-1 sit clockwise, "left" is the next seat
    opt       the options (see OPTION_DEFAULTS)
    dealer    the seat that dealt
    deck      the draw pile (hidden)
    discard   the discard pile (face up)
    aside     the tens set aside out of play (face up)
    hands     each seat's hand (hidden)
    sets      each seat's played sets, each a list of 2 or 3 cards
    host      the seat holding the marker
    parasite  True when the marker shows its parasite face
    seat      whose turn it is
    phase     "act" (choose take/draw), "play" (drew alone: now play and discard) or "over"
    drawn     in phase "play", the card just drawn (shown to its owner only)
    turn      the player turn counter, 1 for the first player's first turn
    last      public texts of what happened in the last step
    scores    None until the end, then each seat's score
    winners   None until the end, then the winning seats

:func:`resolve` never changes its input: it copies the containers it changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import Event, Resolution
from pbem.rng import Rng

from .cards import RANK, STEPS, SUIT, full_deck, moves_marker, set_value, show

State = dict[str, Any]

OPTION_DEFAULTS: dict[str, Any] = {
    "open-research": False,
    "all-night-lab": False,
    "tens-always-move": True,
    "parasite-discards-stop": False,
    "last-taken-card": "keep",
    "dealer": "random",
}


_NAMES = tuple(f"player {seat + 1}" for seat in range(4))


def who(seat: int) -> str:
    """How reports name a seat (seats are 0-based, people count from 1)."""
    return _NAMES[seat] if seat < 4 else f"player {seat + 1}"


def options_of(options: Mapping[str, Any]) -> dict[str, Any]:
    """The full option set: defaults overlaid with ``options``.

    Raises ValueError for an unknown option or a value of the wrong kind.
    """
    out = dict(OPTION_DEFAULTS)
    for name, value in options.items():
        if name not in OPTION_DEFAULTS:
            raise ValueError(f"symbiote has no option {name!r}; options: {', '.join(OPTION_DEFAULTS)}")
        if type(value) is not type(OPTION_DEFAULTS[name]):
            raise ValueError(f"option {name!r} takes a {type(OPTION_DEFAULTS[name]).__name__}")
        out[name] = value
    if out["last-taken-card"] not in ("keep", "discard"):
        raise ValueError("option 'last-taken-card' is 'keep' or 'discard'")
    if out["dealer"] not in ("random", "last-seat"):
        raise ValueError("option 'dealer' is 'random' or 'last-seat'")
    return out


def setup(players: int, options: Mapping[str, Any], rng: Rng) -> State:
    """Shuffle, deal three cards each, turn up the first discard, give the dealer the marker,
    and do the first player's start-of-turn draw.  Raises ValueError for 1-2 or 5+ players."""
    if not 3 <= players <= 4:
        raise ValueError(f"Symbiote is for three or four players, not {players}")
    opt = options_of(options)
    deck = full_deck(opt["all-night-lab"])
    rng.shuffle(deck)
    dealer = rng.randbelow(players) if opt["dealer"] == "random" else players - 1
    hands: list[list[str]] = [[] for _ in range(players)]
    for _ in range(3):
        for k in range(1, players + 1):
            hands[(dealer + k) % players].append(deck.pop())
    first = (dealer + 1) % players
    state: State = {
        "n": players,
        "opt": opt,
        "dealer": dealer,
        "deck": deck,
        "discard": [deck.pop()],
        "aside": [],
        "hands": hands,
        "sets": [[] for _ in range(players)],
        "host": dealer,
        "parasite": False,
        "seat": first,
        "phase": "act",
        "drawn": None,
        "turn": 1,
        "last": [],
        "scores": None,
        "winners": None,
    }
    events: list[Event] = [
        Event(f"{who(dealer)} deals and hosts the symbiote; {who(first)} plays first."),
        Event(f"The first discard is {state['discard'][0]}."),
    ]
    start_turn(state, rng, events)
    state["last"] = [e.text for e in events if e.to is None]
    return state


def copy_state(state: State, seat: int) -> State:
    """A copy safe for one step of ``seat``: fresh piles, a fresh hand for ``seat`` and the
    next seat (the only hands a step changes), fresh outer lists of hands and sets.  Played
    sets and the tens set aside are replaced, never changed in place."""
    new = dict(state)
    new["deck"] = state["deck"][:]
    new["discard"] = state["discard"][:]
    hands = state["hands"][:]
    after = (seat + 1) % state["n"]
    hands[seat] = hands[seat][:]
    hands[after] = hands[after][:]
    new["hands"] = hands
    new["sets"] = state["sets"][:]
    return new


# ---------------------------------------------------------------------------- the marker


def marker_target(n: int, host: int, card: str, below: str | None, tens_always_move: bool) -> int | None:
    """Where discarding ``card`` onto ``below`` sends the marker, or None if it stays.

    A card matching ``below`` in suit or rank moves it clockwise by its number (A=1 .. 9) or
    counter-clockwise 1/2/3 for J/Q/K, counted from the current ``host`` and around the table
    as often as needed; a ten (a parasite) moves it 10 clockwise, matching or not unless
    ``tens_always_move`` is off.  It arrives parasite face up after a ten, symbiote face up
    after anything else (even when it lands where it started).
    """
    if (below is not None and (RANK[card] == RANK[below] or SUIT[card] == SUIT[below])) or (
        tens_always_move and RANK[card] == 10
    ):
        return (host + STEPS[card]) % n
    return None


# Events are immutable values and a game says the same things again and again: each event
# below is made once, under a key of the facts its text is written from, and then shared.
# A table is emptied when it reaches _KEPT entries, so a long-lived process stays small.
# _KEPT holds every discard a game can say (how x seat x card x card below: at most
# 2 x 4 x 52 x 53: 22,048 entries, 9.6 MB when full), so a long run never starts over: with 8,192 the
# discards' working set did not fit and about one discard in two was made again (issue 13).
_KEPT = 24576
_SAID: dict[tuple[Any, ...], Event] = {}
"""Public events by (kind, seat, card, ...): takes (at most 4 x 52); discards are in _DISCARDS."""
_TOLD: dict[tuple[int, str], Event] = {}
"""Private events of one drawn card by (seat, card): at most 4 x 52.  Draws of several cards
rarely repeat (thousands of orders), so their events are made each time."""


def _said(key: tuple[Any, ...], text: str) -> Event:
    """Remember and return the public event ``text`` under ``key`` (see _SAID)."""
    if len(_SAID) >= _KEPT:
        _SAID.clear()
    found = _SAID[key] = Event(text)
    return found


def _you_drew(seat: int, drawn: list[str]) -> Event:
    """The private event telling ``seat`` which cards it drew."""
    if len(drawn) != 1:
        return Event(f"You drew {show(drawn)}.", (seat,))
    key = (seat, drawn[0])
    found = _TOLD.get(key)
    if found is None:
        found = _TOLD[key] = Event(f"You drew {show(drawn)}.", (seat,))
    return found


_MOVES: dict[tuple[str, int], Event] = {}
"""The marker's moves by (card, seat it lands with): at most 52 x 4."""


def _moved(card: str, target: int) -> Event:
    """The event of the marker moving after ``card`` to ``target``."""
    found = _MOVES.get((card, target))
    if found is None:
        steps = STEPS[card]
        face = "parasite" if steps == 10 else "symbiote"
        way = "clockwise" if steps > 0 else "counter-clockwise"
        found = _MOVES[card, target] = Event(f"The {face} moves {abs(steps)} {way} to {who(target)}.")
    return found


_DISCARDS: dict[tuple[str, int, str, str | None], tuple[Event, bool, bool]] = {}
"""A discard's facts (how, seat, card, the card below or None) -> (its public event, whether
it is a ten, whether it matches the card below); at most 2 x 4 x 52 x 53 (see _KEPT)."""


def _discarded(key: tuple[str, int, str, str | None]) -> tuple[Event, bool, bool]:
    """Make, remember and return :data:`_DISCARDS`' entry for ``key``."""
    how, seat, card, below = key
    ten = RANK[card] == 10
    matches = moves_marker(card, below)
    if ten:
        text = f"{who(seat)} {how} {card}, a parasite: it is set aside out of play."
    elif below is None:
        text = f"{who(seat)} {how} {card} onto the empty discard pile."
    elif matches:
        text = f"{who(seat)} {how} {card} on {below}: Sym-biote!"
    else:
        text = f"{who(seat)} {how} {card} on {below}."
    if len(_DISCARDS) >= _KEPT:
        _DISCARDS.clear()
    found = _DISCARDS[key] = (Event(text), ten, matches)
    return found


def discard_card(
    state: State,
    seat: int,
    card: str,
    events: list[Event],
    how: str = "discards",
    texts: list[str] | None = None,
) -> None:
    """Put ``card`` (already out of the hand) on the discard pile, or aside if it is a ten,
    and move the marker when the rules say so: a card matching the one below in suit or rank
    moves it (cards.moves_marker), a ten also when it matches nothing unless the option
    tens-always-move is off (as :func:`marker_target` says for forms and bots).  Its events
    are public: with ``texts``, their texts are appended there too (resolve's "last")."""
    pile = state["discard"]
    key = (how, seat, card, pile[-1] if pile else None)
    said, ten, matches = _DISCARDS.get(key) or _discarded(key)
    events.append(said)
    if texts is not None:
        texts.append(said.text)
    if ten:
        state["aside"] = [*state["aside"], card]
        if not matches and not state["opt"]["tens-always-move"]:
            return
    else:
        pile.append(card)
        if not matches:
            return
    target = state["host"] = (state["host"] + STEPS[card]) % state["n"]
    state["parasite"] = ten
    moved = _moved(card, target)
    events.append(moved)
    if texts is not None:
        texts.append(moved.text)


# ---------------------------------------------------------------------------- turns

_DRAWS_UP = {
    (seat, count, target): Event(
        f"{who(seat)} draws {count} card{'' if count == 1 else 's'} (up to {target})."
    )
    for seat in range(4)
    for target in (2, 3, 5)
    for count in range(1, target + 1)
}
_DRAWS_ONE = tuple(Event(f"{who(seat)} draws a card.") for seat in range(4))
_KEEPS = tuple(Event(f"{who(seat)} keeps the card taken and discards nothing.") for seat in range(4))
_PILE_EMPTY = Event("The draw pile is empty: the game ends before the next turn.")


def start_turn(state: State, rng: Rng, events: list[Event]) -> None:
    """Begin the turn of ``state["seat"]``: end the game if the draw pile is empty, else do
    the forced parasite discards and the draw-up (to 5 with the symbiote, 2 with the
    parasite, else 3), as far as the draw pile lasts."""
    deck = state["deck"]
    if not deck:
        finish(state, events)
        return
    seat = state["seat"]
    hand = state["hands"][seat]
    target = hand_target(state["host"] == seat, state["parasite"])
    if target == 2 and len(hand) > 2:
        events.append(Event(f"{who(seat)} hosts the parasite: cards are discarded at random down to two."))
        stop = state["opt"]["parasite-discards-stop"]
        while len(hand) > 2:
            if stop and not (state["host"] == seat and state["parasite"]):
                events.append(Event(f"The parasite has left {who(seat)}: the random discards stop."))
                break
            discard_card(state, seat, hand.pop(rng.randbelow(len(hand))), events, "is made to discard")
    draw_up(deck, hand, seat, target, events)
    if not deck:
        events.append(_PILE_EMPTY)


def hand_target(hosts: bool, parasite: bool) -> int:
    """The hand size a seat draws up to: 3, or 5 hosting the symbiote, 2 hosting the parasite."""
    return 3 if not hosts else 2 if parasite else 5


def draw_up(deck: list[str], hand: list[str], seat: int, target: int, events: list[Event]) -> Event | None:
    """Draw ``seat``'s hand up to ``target`` from the top of the draw pile, as far as it
    lasts, and tell it (everyone the count, the seat its cards); the public event, or None
    when nothing was drawn."""
    missing = target - len(hand)
    if missing <= 0:
        return None
    drawn = deck[-missing:]
    del deck[-missing:]
    drawn.reverse()
    hand += drawn
    count = len(drawn)
    said = _DRAWS_UP.get((seat, count, target))
    if said is None:
        said = Event(f"{who(seat)} draws {count} card{'' if count == 1 else 's'} (up to {target}).")
    events.append(said)
    events.append(_you_drew(seat, drawn))
    return said


def next_turn(state: State, rng: Rng, events: list[Event]) -> None:
    """Pass the turn clockwise and start it."""
    state["seat"] = (state["seat"] + 1) % state["n"]
    state["phase"] = "act"
    state["drawn"] = None
    state["turn"] += 1
    start_turn(state, rng, events)


def resolve(state: State, orders: Mapping[int, Any], rng: Rng) -> Resolution:
    """Apply the acting seat's validated orders (see orders.validate for their shape).

    Raises ValueError if the orders do not fit the state (a bug: validation checks them).

    The commonest step (take or draw, a discard, the next turn's draw-up) is written out
    here rather than through copy_state, discard_card, next_turn and start_turn, which it
    follows line for line (the same state, events and texts: tests/symbiote/test_same_games.py);
    the rarer parts (sets, the parasite's discards, the end) call them.
    """
    seat = state["seat"]
    if state["phase"] == "over" or seat not in orders:
        raise ValueError(f"no orders from {who(seat)}, the seat to act")
    order = orders[seat]
    n = state["n"]
    # copy_state(state, seat), written out
    s = state.copy()
    deck = s["deck"] = state["deck"][:]
    pile = s["discard"] = state["discard"][:]
    hands = s["hands"] = state["hands"][:]
    hand = hands[seat] = hands[seat][:]
    after = (seat + 1) % n
    hands[after] = hands[after][:]
    s["sets"] = state["sets"][:]
    events: list[Event] = []
    texts: list[str] = []  # the public events' texts, kept as they are appended (for "last")
    action = order.get("action")
    if action is not None and s["phase"] == "play":
        raise ValueError("take/draw in the play step")
    if action == "take":
        if not pile:
            raise ValueError("take from an empty discard pile")
        card = pile.pop()
        hand.append(card)
        key: tuple[Any, ...] = ("take", seat, card)
        said = _SAID.get(key)
        if said is None:
            said = _said(key, f"{who(seat)} takes {card} from the discard pile.")
        events.append(said)
        texts.append(said.text)
    elif action == "draw":
        if not deck:
            raise ValueError("draw from an empty draw pile")
        card = deck.pop()
        hand.append(card)
        said = _DRAWS_ONE[seat] if seat < 4 else Event(f"{who(seat)} draws a card.")
        events.append(said)
        events.append(_TOLD.get((seat, card)) or _you_drew(seat, [card]))
        texts.append(said.text)
        if order.get("wait"):
            s["phase"] = "play"
            s["drawn"] = card
            s["last"] = texts
            return Resolution(s, tuple(events))
    elif s["phase"] == "act" and (deck or pile):
        raise ValueError("missing take/draw")
    plays = order.get("plays")
    if plays:
        start = len(events)
        play_sets(s, seat, plays, events)
        texts += [e.text for e in events[start:] if e.to is None]
    card = order.get("discard")
    if card is not None:
        try:
            hand.remove(card)
        except ValueError:
            raise ValueError(f"discard {card} not in hand") from None
        discard_card(s, seat, card, events, "discards", texts)
    elif hand:
        said = _KEEPS[seat] if seat < 4 else Event(f"{who(seat)} keeps the card taken and discards nothing.")
        events.append(said)
        texts.append(said.text)
    # next_turn(s, rng, events), written out
    s["seat"] = after
    s["phase"] = "act"
    s["drawn"] = None
    s["turn"] += 1
    host = s["host"]
    nxt = hands[after]
    if not deck or (host == after and s["parasite"] and len(nxt) > 2):
        start = len(events)
        start_turn(s, rng, events)  # the end, or the parasite's random discards
        texts += [e.text for e in events[start:] if e.to is None]
    else:
        target = hand_target(host == after, s["parasite"])
        if len(nxt) < target:  # else draw_up draws nothing: a call saved at most steps
            said = draw_up(deck, nxt, after, target, events)
            if said is not None:
                texts.append(said.text)
            if not deck:  # (the pile only runs out by this draw)
                events.append(_PILE_EMPTY)
                texts.append(_PILE_EMPTY.text)
    s["last"] = texts
    return Resolution(s, tuple(events))


def play_sets(state: State, seat: int, plays: Any, events: list[Event]) -> None:
    """Move each set from the hand to the seat's table, face down unless Open Research."""
    if not plays:
        return
    hand = state["hands"][seat]
    table = state["sets"][seat] = state["sets"][seat][:]
    open_research = state["opt"]["open-research"]
    for cards in plays:
        for c in cards:
            try:
                hand.remove(c)
            except ValueError:
                raise ValueError(f"played {c} not in hand") from None
        played = list(cards)
        value = set_value(played)
        table.append(played)
        kind = "pair" if len(played) == 2 else "royal symbiote"
        if open_research:
            events.append(Event(f"{who(seat)} plays a {kind} face up: {' '.join(played)} ({value} points)."))
        else:
            events.append(Event(f"{who(seat)} plays a set of {len(played)} cards face down."))
            events.append(Event(f"Your {kind} {' '.join(played)} is worth {value} points.", (seat,)))


# ---------------------------------------------------------------------------- the end


def score(state: State) -> list[int]:
    """Each seat's score: its sets' values, +1 a set with the symbiote, -1 a set with the parasite."""
    out = []
    for seat, sets in enumerate(state["sets"]):
        points = sum(set_value(s) for s in sets)
        if seat == state["host"]:
            points += -len(sets) if state["parasite"] else len(sets)
        out.append(points)
    return out


def winners(state: State, scores: list[int]) -> list[int]:
    """Highest score wins; a tie goes to the symbiote's host, or to the tied players without
    the parasite; any tie left stands (several winners)."""
    best = max(scores)
    tied = [s for s, p in enumerate(scores) if p == best]
    if len(tied) > 1 and state["host"] in tied:
        if state["parasite"]:
            tied.remove(state["host"])
        else:
            tied = [state["host"]]
    return tied


def finish(state: State, events: list[Event]) -> None:
    """End the game: reveal and score every set."""
    state["phase"] = "over"
    state["drawn"] = None
    scores = score(state)
    state["scores"] = scores
    state["winners"] = winners(state, scores)
    events.append(Event("The draw pile is empty at the start of a turn: the game is over."))
    for seat, sets in enumerate(state["sets"]):
        shown = ", ".join(" ".join(s) for s in sets) or "no sets"
        events.append(Event(f"{who(seat)}: {shown}: {scores[seat]} points."))
    names = " and ".join(who(w) for w in state["winners"])
    events.append(Event(f"Winner: {names}." if len(state["winners"]) == 1 else f"Winners: {names}."))
