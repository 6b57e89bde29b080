"""Parasite report text from a View: the public position and the seat's private part.

Rendered with templates/parasite/public.txt.j2 and private.txt.j2.  The public text is built
from ``view.public`` alone and the private text from ``view.private`` (plus public facts), so
nothing hidden can reach the public part.  Seats are written "player N" (the engine puts the
players' names in, pbem.wording) and lines are folded for mail by the engine; the lines
written here are short, with their continuation indented, so they fold cleanly.  At the end
the public view holds every hidden fact and the public report shows them all: the Infection
cards in the order the rules reveal them (those who Escaped first), hands, tokens, and the
Test Results and standing reactions each player had.

What happened in the step is not repeated here: the engine prints the events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game import View
from pbem.render import render
from pbem.wording import counted, join_names

from .cards import LOCATION_DECKS, CardSet, load_cards

PLACES = (*LOCATION_DECKS, "helipad", "mission")
DECKS = (*LOCATION_DECKS, "helipad")

TRIGGERS = {
    "distressed-by": "{source} would make {subject} Distressed",
    "targeted": "{source} names {subject} as a target",
    "distress-here": "{subject} becomes Distressed",
    "death": "{subject} dies",
    "tested": "{source} uses Test Results on {subject}",
    "activate": "{subject} activates a Location",
    "move-in": "{subject} moves into a Location",
    "escape-phase": "the Escape Phase begins",
    "infection-phase": "the Infection Phase begins",
    "game-end": "the game ends",
}
"""How a reaction window's trigger reads (``subject`` and ``source`` are seats)."""


def who(seat: int | None, n: int, cards: CardSet | None = None) -> str:
    """A seat as reports write it: "player N" (1-based; named by the engine), or the Dog."""
    if seat is None:
        return "nobody"
    if seat == n:
        return f"{(cards or load_cards()).dog.name} the Dog"
    return f"player {seat + 1}"


def place(loc: str | None) -> str:
    """A Location as reports write it."""
    if loc is None:
        return "dead"
    return "the Mission" if loc == "mission" else loc.capitalize()


def card_line(card_id: str, cards: CardSet) -> str:
    """One card with its icon, id (what orders name) and text."""
    card = cards.cards[card_id]
    icon = card.icon.capitalize()
    return f"{card.name} [{card.id}], {icon}: {card.text}"


def infection_line(inf_id: str, cards: CardSet) -> str:
    """An Infection card with its side, priority and text (Win, Lose, ability)."""
    inf = cards.infections[inf_id]
    return f"{inf.name} ({inf.side.capitalize()}, priority {inf.priority:02d}): {inf.text}"


def trigger_text(question: Mapping[str, Any], n: int) -> str:
    """What a reaction window answers, in words."""
    pattern = TRIGGERS.get(str(question.get("trigger")), "{trigger}")
    return pattern.format(
        subject=who(question.get("subject"), n),
        source=who(question.get("source"), n),
        trigger=question.get("trigger"),
    )


def question_text(question: Mapping[str, Any], seats: Sequence[int], n: int) -> str:
    """The question awaited, in public words (what anyone may know of it)."""
    kind = question.get("kind")
    asked = ", ".join(who(s, n) for s in seats) or "nobody"
    why = f" ({question['for']})" if question.get("for") else ""
    if kind == "turn":
        return f"{asked}: their Turn"
    if kind == "keep":
        return f"{asked}: which card(s) to keep, {question.get('keep', 1)}{why}"
    if kind == "leave":
        return f"{asked}: which Helipad card to leave on top"
    if kind == "first":
        return f"{asked}: which of the Events they drew resolves first"
    if kind == "target":
        choices = ", ".join(who(c, n) for c in question.get("choices", []))
        return f"{asked}: whom to choose{why}, from {choices}"
    if kind == "option":
        return f"{asked}: which option{why}"
    if kind in ("give", "discard"):
        return f"{asked}: {counted(question.get('count', 1), 'card')} to {kind}{why}"
    if kind == "token":
        return f"{asked}: {counted(question.get('count', 1), 'token')} to give back{why}"
    if kind == "location":
        return f"{asked}: a Location{why}, from {', '.join(place(c) for c in question.get('choices', []))}"
    if kind == "escape":
        return f"{asked}: Escape or Stay behind"
    if kind == "dog-escape":
        return f"{asked}: whether the Dog Escapes (the Leader's and the Dog Lover's answers count)"
    if kind == "window":
        moment = "Interrupts" if question.get("moment") == "before" else "Reactions"
        return f"every living player: {moment} now? ({trigger_text(question, n)})"
    return f"{asked}: {kind}"


def phase_text(pub: Mapping[str, Any]) -> str:
    """The phase of the round the position stands in."""
    proc = pub.get("proc") or {}
    kind = proc.get("kind")
    if pub["over"]:
        return "the game is over"
    if kind == "turn":
        return f"Game Phase, {who(proc.get('seat'), pub['players'])}'s Turn"
    if kind == "infection":
        return "Infection Phase"
    if kind == "escape":
        return "Escape Phase"
    if kind == "final":
        return "the helicopter is here: Escape or Stay behind"
    if kind == "dog":
        return "the start of the Game Phase: the Dog moves"
    return "between rounds"


def _token_text(tokens: Sequence[int], n: int, colours: Sequence[str]) -> str:
    return ", ".join(f"{colours[t]} ({who(t, n)})" for t in sorted(tokens)) or "none"


def _colours(pub: Mapping[str, Any], cards: CardSet) -> list[str]:
    out = [cards.character(c).colour for c in pub["chars"]]
    if pub["dog"]:
        out.append("the Dog's")
    return out


def _mission_lines(pub: Mapping[str, Any], cards: CardSet) -> list[str]:
    n = pub["players"]
    out = []
    if pub["mission"]:
        card = cards.cards[pub["mission"]]
        on = [s for s, loc in enumerate(pub["loc"]) if loc == "mission"]
        state = "resolved" if pub["mission_done"] else f"{len(on)} on it, {card.needed(n)} needed"
        out.append(f"Mission in play: {card.name} ({state}): {card.text}")
    else:
        out.append("Mission in play: none.")
    if pub.get("upcoming"):
        card = cards.cards[pub["upcoming"]]
        out.append(f"Next Mission (placed when the round begins): {card.name}: {card.text}")
    return out


def _condition(pub: Mapping[str, Any], seat: int) -> str:
    """ "Healthy, Office", "Distressed, on the Mission" or "Dead"."""
    health = pub["health"][seat]
    if health == "dead" or pub["loc"][seat] is None:
        return "Dead"
    loc = pub["loc"][seat]
    return f"{health.capitalize()}, {'on the Mission' if loc == 'mission' else loc.capitalize()}"


def _seat_lines(pub: Mapping[str, Any], seat: int, cards: CardSet, colours: Sequence[str]) -> list[str]:
    n = pub["players"]
    over = pub["over"]
    if seat == n:
        head = f"{who(seat, n, cards)}: {_condition(pub, seat)}"
    else:
        char = cards.character(pub["chars"][seat])
        head = f"{who(seat, n)}: {char.role} ({char.name}, {char.colour}), {_condition(pub, seat)}"
    marks = []
    if seat == pub["leader"]:
        marks.append("Leader")
    if seat in pub.get("escaped", ()):
        marks.append("Escaped")
    if marks:
        head += " [" + ", ".join(marks) + "]"
    lines = [head]
    if seat < n and not over and pub["health"][seat] != "dead":
        lines.append(f"    {counted(pub['hand_sizes'][seat], 'hand card')}")
    items = pub["items"][seat]
    if items:
        lines.append("    Items: " + ", ".join(cards.cards[i].name for i in items))
    if pub["tokens"] is not None:
        lines.append(f"    Tokens: {_token_text(pub['tokens'][seat], n, colours)}")
    if pub["revealed"][seat] and not over:
        lines.append(f"    Revealed: {infection_line(pub['revealed'][seat], cards)}")
    return lines


def _reveal_lines(pub: Mapping[str, Any], cards: CardSet, colours: Sequence[str]) -> list[str]:
    """The final reveal: those who Escaped first (in the order they did), then the rest."""
    n = pub["players"]
    count = len(pub["health"])
    escaped = list(pub.get("escaped", ()))
    order = escaped + [s for s in range(count) if s not in escaped]
    winners = set(pub.get("winners") or ())
    tests = pub.get("tests")
    reactions = pub.get("reactions")
    out = []
    for seat in order:
        held = sorted(pub["infection"][seat], key=lambda c: -cards.infections[c].priority)
        if seat in escaped:
            fate = f"Escaped ({escaped.index(seat) + 1} of {len(escaped)})"
        elif pub["health"][seat] == "dead":
            fate = "dead"
        else:
            fate = "stayed behind" if pub.get("why") == "the helicopter left" else "alive"
        result = "" if seat == n else ("; WON" if seat in winners else "; lost")
        out.append(f"{who(seat, n, cards)}: {fate}{result}.")
        out.append(f"    Infection card: {infection_line(held[0], cards)}")
        for other in held[1:]:
            out.append(f"    Also held (lower priority): {infection_line(other, cards)}")
        if seat < n:
            hand = ", ".join(cards.cards[c].name for c in pub["hands"][seat]) or "empty"
            out.append(f"    Hand: {hand}")
        out.append(f"    Tokens: {_token_text(pub['tokens'][seat], n, colours)}")
        if tests is not None and seat < n and tests[seat]:
            seen = ", ".join(
                f"{who(int(s), n)} {side.capitalize()}" for s, side in sorted(tests[seat].items())
            )
            out.append(f"    Test Results seen: {seen}")
        if reactions is not None and seat < n and reactions[seat]:
            out.append("    Standing reactions: " + "; ".join(reaction_text(r, n) for r in reactions[seat]))
    return out


def reaction_text(entry: Mapping[str, Any], n: int) -> str:
    """A standing reaction as the order line that files it."""
    text = f"react {entry['card']}"
    if entry.get("target") is not None:
        target = entry["target"]
        text += " on " + ("dog" if target == n else f"player {target + 1}")
    if entry.get("from"):
        text += " if " + " or ".join(f"player {s + 1}" for s in entry["from"])
    if entry.get("for"):
        text += " for " + " or ".join("dog" if s == n else f"player {s + 1}" for s in entry["for"])
    return text


def option_text(options: Mapping[str, Any]) -> str:
    """The game's options as ``pbem new --option`` writes them: how Reactions are played,
    then every option that is not the default."""
    from .rules import OPTION_DEFAULTS

    words = [f"reactions={options.get('reactions', 'standing')}"]
    for name, value in sorted(options.items()):
        if name != "reactions" and value != OPTION_DEFAULTS.get(name):
            words.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
    return ", ".join(words)


def public_context(view: View) -> dict[str, Any]:
    """The template variables of the public part, from the public view only."""
    cards = load_cards()
    pub = view.public
    n = pub["players"]
    colours = _colours(pub, cards)
    count = len(pub["health"])
    where = []
    for loc in PLACES:
        if loc == "mission" and not pub["mission"]:
            continue
        here = [
            who(s, n, cards) + (" (Distressed)" if pub["health"][s] == "distressed" else "")
            for s in range(count)
            if pub["loc"][s] == loc
        ]
        title = place(loc).replace("the ", "")
        if loc == "mission":
            title += f" ({cards.cards[pub['mission']].name})"
        if loc in LOCATION_DECKS:
            title += f" (deck {pub['decks'][loc]}, discards {pub['discards'][loc]})"
        elif loc == "helipad":
            title += f" (deck {pub['decks']['helipad']}, discards {pub['discards']['helipad']})"
        where.append(f"{title}: {', '.join(here) or 'nobody'}")
    dead = [who(s, n, cards) for s in range(count) if pub["health"][s] == "dead"]
    if dead:
        where.append(f"Dead: {', '.join(dead)}")
    ask = pub.get("ask")
    awaited = None if ask is None else question_text(ask["question"], ask["seats"], n)
    over = pub["over"]
    winners = pub.get("winners") or []
    return {
        "round": pub["round"],
        "phase": phase_text(pub),
        "over": over,
        "leader": who(pub["leader"], n),
        "missions": _mission_lines(pub, cards),
        "where": where,
        "seats": [_seat_lines(pub, s, cards, colours) for s in range(count)],
        "infection_deck": counted(pub["infection_deck"], "card"),
        "hidden_tokens": pub["tokens"] is None,
        "supply": None
        if pub.get("supply") is None
        else ", ".join(f"{colours[s]} {k}" for s, k in enumerate(pub["supply"])),
        "awaited": awaited,
        "why": pub.get("why"),
        "winners": join_names((who(s, n) for s in winners), "nobody"),
        "reveal": _reveal_lines(pub, cards, colours) if over else [],
        "options": option_text(pub["options"]),
    }


def private_context(view: View) -> dict[str, Any]:
    """The template variables of the private part: what ``view.seat`` alone knows."""
    cards = load_cards()
    pub, priv = view.public, view.private
    n = pub["players"]
    seat = view.seat if view.seat is not None else 0
    char = cards.character(pub["chars"][seat])
    held = sorted(priv["infection"], key=lambda c: -cards.infections[c].priority)
    priority = priv["priority"]
    revealed = pub["revealed"][seat] == priority
    colours = _colours(pub, cards)
    tests = [f"{who(int(s), n)} is {side.capitalize()}" for s, side in sorted(priv["tests"].items())]
    prefer = priv.get("prefer")
    return {
        "me": who(seat, n),
        "health": pub["health"][seat].capitalize(),
        "character": f"{char.role} ({char.name}, {char.colour})",
        "sides": [f"Healthy: {char.healthy.text}", f"Distressed: {char.distressed.text}"],
        "infection": infection_line(priority, cards),
        "face": "face up (revealed)" if revealed else "face down",
        "others": [infection_line(c, cards) for c in held if c != priority],
        "hand": [card_line(c, cards) for c in priv["hand"]],
        "items": [card_line(c, cards) for c in pub["items"][seat]],
        "tokens": None if "tokens" not in priv else _token_text(priv["tokens"], n, colours),
        "tests": tests,
        "reactions": [reaction_text(r, n) for r in priv.get("reactions", [])],
        "prefer": "ask me each time" if prefer is None else " ".join(prefer),
        "notes": list(priv.get("notes", [])),
    }


def describe(view: View) -> tuple[str, str]:
    """(public text, private text) for a report; the private text is empty for the public view
    and for a seat with no private part (the Dog)."""
    return render("parasite/public.txt.j2", **public_context(view)), describe_private(view)


def describe_private(view: View) -> str:
    """The private text of :func:`describe` alone (the public text depends on ``view.public``
    only, so pbem renders it once a turn: :class:`pbem.game.DescribedOnce`)."""
    if view.seat is None or not view.private:
        return ""
    return render("parasite/private.txt.j2", **private_context(view))
