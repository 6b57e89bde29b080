"""Parasite order files: the syntax, and :func:`validate` against the seat's view.

Cards are named by id or printed name (``ice-pick``, ``Ice Pick``); players as ``player 3``
(or ``p3``), the Dog as ``dog``; Locations as office, storehouse, laboratory (lab), helipad,
mission.  One line, one order; ``#`` starts a comment.

A Turn (asked when it is your Turn)::

    place ITEM                                # an Item from your hand onto your character
                                              # (free, before your Action; any number)
    discard CARD | give CARD to PLAYER        # hand limit: until you hold three or fewer,
                                              # at the end of the Turn (a gift to a player
                                              # not in your Location then is discarded;
                                              # cards not named are asked for then)
    play CARD [on PLAYER] [to LOCATION] [option K] [with CARD]
    use ITEM [on PLAYER] [to LOCATION]        # an Item on your character
    ability [on PLAYER] [to LOCATION]         # your character's Action ability
    reveal [on PLAYER]                        # your Infection card's Action ability
    distress PLAYER                           # make another player here Distressed
    pet dog                                   # the Healthy Dog here (Dog expansion)
    move LOCATION | stay

At most one Action (two after a card that grants one more).  Answers to later questions:
``keep CARD...`` / ``keep none``, ``leave CARD`` / ``leave none``, ``target PLAYER``,
``option K``, ``first CARD`` (which of the Events you drew resolves first), ``give
CARD...``, ``discard CARD...``, ``return PLAYER...`` (tokens, by colour's owner), ``to
LOCATION``, ``escape`` / ``stay behind``, ``dog escapes`` / ``dog
stays``, and in a reaction window ``pass`` or ``play CARD [on PLAYER]`` / ``ability`` /
``infection``.

Standing orders, allowed in every file and kept until used or withdrawn::

    react CARD|ability|infection [on PLAYER] [if PLAYER...] [for PLAYER...]
                              # play it when its trigger comes: only against the players
                              # after 'if' (the attacker, the one who moved, the tester...),
                              # only for the players after 'for' (who would become
                              # Distressed, who moved in, who died)
    withdraw CARD|ability|infection|all
    prefer WORD...            # keep from an activation: card ids or icons, best first
    prefer ask                # ask me every time (the default)
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.game import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    OrderErrors,
    OrderLine,
    View,
)

from .cards import CHOSEN_TARGETS, LOCATION_DECKS, CardSet, Step, load_cards

LOCATIONS = (*LOCATION_DECKS, "helipad", "mission")
_LOC_WORDS = {"lab": "laboratory", **{loc: loc for loc in LOCATIONS}}
HAND_LIMIT = 3
WORDS = (
    "discard", "give", "place", "play", "use", "ability", "reveal", "distress", "pet", "move", "stay",
    "keep", "leave", "target", "option", "return", "to", "escape", "dog", "pass", "infection",
    "react", "withdraw", "prefer",
)  # fmt: skip


@dataclass(frozen=True)
class Facts:
    """What the seat knows, read from its View."""

    seat: int
    n: int
    alive: tuple[bool, ...]
    loc: tuple[str | None, ...]
    hand: tuple[str, ...]
    items: tuple[str, ...]
    health: str
    ask: dict[str, Any] | None
    private_ask: dict[str, Any]
    revealed: tuple[bool, ...]
    leader: int
    dog: bool
    mission_open: bool
    chars: tuple[str, ...] = ()

    def here(self, seat: int | None = None) -> list[int]:
        me = self.seat if seat is None else seat
        return [
            p for p in range(len(self.alive)) if p != me and self.alive[p] and self.loc[p] == self.loc[me]
        ]


def facts(view: View) -> Facts:
    """The :class:`Facts` of a view (a seat's)."""
    pub = view.public
    seat = view.seat if view.seat is not None else -1
    ask = pub["ask"]
    mine = ask is not None and seat in ask["seats"]
    return Facts(
        seat=seat,
        n=pub["players"],
        alive=tuple(h != "dead" for h in pub["health"]),
        loc=tuple(pub["loc"]),
        hand=tuple(view.private.get("hand", ())),
        items=tuple(pub["items"][seat]) if 0 <= seat < pub["players"] else (),
        health=pub["health"][seat] if 0 <= seat < pub["players"] else "dead",
        ask=ask["question"] if mine else None,
        private_ask=dict(view.private.get("ask", {})),
        revealed=tuple(r is not None for r in pub["revealed"]),
        leader=pub["leader"],
        dog=pub["dog"],
        mission_open=pub["mission"] is not None and not pub["mission_done"],
        chars=tuple(pub["chars"]),
    )


# ---------------------------------------------------------------------------- words


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def card_id(text: str, cards: CardSet) -> str | None:
    """The card a word names (id or printed name, any case), or None."""
    key = _norm(text)
    if key in cards.cards:
        return key
    for card in cards.cards.values():
        if _norm(card.name) == key:
            return card.id
    return None


def _nearest(text: str, candidates: Sequence[str]) -> str | None:
    found = difflib.get_close_matches(text.lower(), list(candidates), n=1, cutoff=0.5)
    return found[0] if found else None


def player_of(text: str, n: int, dog: bool, chars: Sequence[str] = ()) -> int | None:
    """The seat ``player N`` / ``pN`` / ``N`` / a character (``medic``, its role or colour)
    / ``dog`` names, or None.  Forms and bots write the character: pbem shows people names,
    never seat numbers, and a character is public and unique."""
    t = text.strip().lower()
    if t in ("dog", "the dog") and dog:
        return n
    if chars:
        cards = load_cards()
        for seat, char_id in enumerate(chars[:n]):
            char = cards.character(char_id)
            if _norm(t) in (char.id, _norm(char.role), char.colour, _norm(char.name)):
                return seat
    m = re.fullmatch(r"(?:player\s*|p)?(\d+)", t)
    if m and 1 <= int(m.group(1)) <= n:
        return int(m.group(1)) - 1
    return None


_CLAUSES = ("on", "to", "option", "with", "if", "for")


def split_clauses(words: list[str], headless: bool = False) -> tuple[list[str], dict[str, str]]:
    """Split ``play X on player 2 to lab`` into (["X"], {"on": "player 2", "to": "lab"}).
    ``headless``: the order names no card, so a clause may come first (``ability on medic``)."""
    head: list[str] = []
    out: dict[str, str] = {}
    current: str | None = None
    for word in words:
        if word.lower() in _CLAUSES and (current is not None or head or headless):
            current = word.lower()
            out[current] = ""
            continue
        if current is None:
            head.append(word)
        else:
            out[current] = (out[current] + " " + word).strip()
    return head, out


class _Checker:
    """Collects errors while reading one file."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.f = facts(view)
        self.cards = load_cards()
        self.errors: list[OrderError] = []

    def invalid(self, line: OrderLine, message: str, suggestion: str | None = None) -> None:
        self.errors.append(InvalidOrderError(line, message, suggestion))

    def illegal(self, line: OrderLine, message: str, suggestion: str | None = None) -> None:
        self.errors.append(IllegalOrderError(line, message, suggestion))

    def card(self, line: OrderLine, text: str, word: str) -> str | None:
        cid = card_id(text, self.cards)
        if cid is None:
            guess = _nearest(_norm(text), list(self.cards.cards))
            self.invalid(line, f"no card is called {text!r}", f"{word} {guess}" if guess else None)
        return cid

    def player(self, line: OrderLine, text: str) -> int | None:
        seat = player_of(text, self.f.n, self.f.dog, self.f.chars)
        if seat is None:
            # "medic (player 2)": pbem puts the players' names in, so the list says who is who.
            names = ", ".join(f"{char} (player {i + 1})" for i, char in enumerate(self.f.chars[: self.f.n]))
            names += ", dog" if self.f.dog else ""
            self.invalid(line, f"{text!r} is not a player: name them by their character: {names}")
        return seat

    def location(self, line: OrderLine, text: str) -> str | None:
        loc = _LOC_WORDS.get(text.strip().lower())
        if loc is None:
            guess = _nearest(text.strip().lower(), list(_LOC_WORDS))
            self.invalid(line, f"{text!r} is not a Location: {', '.join(LOCATIONS)}", guess)
            return None
        if loc == "mission" and not self.f.mission_open:
            self.illegal(line, "there is no Mission in play to move to")
            return None
        return loc


def who(seat: int, n: int) -> str:
    return "the Dog" if seat == n else f"player {seat + 1}"


# ---------------------------------------------------------------------------- legality


def chosen_step(steps: Sequence[Step]) -> Step | None:
    """The first step of a list whose target is chosen (a named ``on PLAYER`` applies to it)."""
    for step in steps:
        if step.do == "choose":
            for option in step.options:
                found = chosen_step(option)
                if found is not None:
                    return found
        elif step.who in CHOSEN_TARGETS:
            return step
    return None


def legal_targets(f: Facts, step: Step) -> list[int]:
    """The seats a chosen target of ``step`` may be, as the seat's view tells it."""
    me = f.seat
    living = [p for p in range(len(f.alive)) if f.alive[p]]
    if step.who == "dead":
        pool = [p for p in range(f.n) if not f.alive[p]]
    elif step.who == "other-here":
        pool = f.here()
    elif step.who == "any-other":
        pool = [p for p in living if p != me]
    else:
        pool = living
    if step.do == "unreveal":
        pool = [p for p in pool if p < f.n and f.revealed[p]]
    elif step.do in ("give", "steal", "look-hand", "take-token", "revive", "move", "infect"):
        pool = [p for p in pool if p < f.n]
    return pool


def action_steps(
    f: Facts, cards: CardSet, kind: str, card: str | None, infection: str | None
) -> tuple[Step, ...] | str:
    """The steps an Action would run, or why it cannot be taken."""
    if kind == "play":
        assert card is not None
        info = cards.cards[card]
        if info.icon != "action":
            return f"{info.name} is a{'n' if info.icon[0] in 'aeiou' else ''} {info.icon} card, not an Action"
        return info.effects
    if kind == "use":
        assert card is not None
        info = cards.cards[card]
        if not info.use:
            return f"{info.name} works by itself; it is not used as an Action"
        return info.use
    if kind == "ability":
        return ()
    if kind == "infection":
        if infection is None:
            return "you have no Infection card"
        inf = cards.infections[infection]
        if inf.ability is None or inf.ability.when != "action":
            return f"your Infection card {inf.name} has no Action ability"
        return inf.ability.effects
    return ()


# ---------------------------------------------------------------------------- reading


def validate(view: View, lines: Sequence[OrderLine]) -> dict[str, Any]:
    """Read and check one order file against the seat's view; returns the orders as JSON.

    Raises OrderErrors listing every bad line (invalid: unreadable; illegal: not allowed
    now; ambiguous: two lines for one choice)."""
    c = _Checker(view)
    f = c.f
    if f.ask is None:
        raise OrderErrors([IllegalOrderError(None, "no orders are awaited from you now")])
    kind = f.ask["kind"]
    out: dict[str, Any] = {}
    body: list[OrderLine] = []
    for line in lines:
        word = line.text.split(None, 1)[0].lower() if line.text.strip() else ""
        if word in ("react", "withdraw", "prefer"):
            _standing(c, line, out)
        else:
            body.append(line)
    if kind == "turn":
        out.update(_turn(c, body))
    else:
        out.update(_answer(c, kind, body))
    if c.errors:
        c.errors.sort(key=lambda e: (e.line is None, e.line.number if e.line else 0))
        raise OrderErrors(c.errors)
    return out


def _standing(c: _Checker, line: OrderLine, out: dict[str, Any]) -> None:
    words = line.text.split()
    word = words[0].lower()
    rest = words[1:]
    if word == "prefer":
        if not rest:
            c.invalid(line, "prefer needs card names or icons, best first, or 'ask'", "prefer ask")
            return
        if [w.lower() for w in rest] == ["ask"]:
            out["prefer"] = None
            return
        prefs = []
        for w in rest:
            if w.lower() in ("action", "reaction", "interrupt", "item", "event", "basic"):
                prefs.append(w.lower())
            else:
                cid = c.card(line, w, "prefer")
                if cid is not None:
                    prefs.append(cid)
        out["prefer"] = prefs
        return
    head, clauses = split_clauses(rest)
    what = " ".join(head).lower()
    if not what:
        c.invalid(line, f"{word} needs a card, 'ability' or 'infection'")
        return
    if word == "withdraw":
        if what in ("all", "ability", "infection"):
            out.setdefault("withdraw", []).append(what)
        else:
            cid = c.card(line, what, "withdraw")
            if cid is not None:
                out.setdefault("withdraw", []).append(cid)
        return
    entry: dict[str, Any] = {}
    if what in ("ability", "infection"):
        entry["card"] = what
    else:
        cid = c.card(line, what, "react")
        if cid is None:
            return
        info = c.cards.cards[cid]
        if info.icon not in ("reaction", "interrupt"):
            c.illegal(line, f"{info.name} is not a Reaction or Interrupt: it cannot be filed to react")
            return
        entry["card"] = cid
    if "on" in clauses:
        seat = c.player(line, clauses["on"])
        if seat is not None:
            entry["target"] = seat
    for clause, key in (("if", "from"), ("for", "for")):
        if clause in clauses:
            seats = [
                c.player(line, w)
                for w in re.split(r"[,\s]+(?:or\s+)?", clauses[clause].replace("player ", "p"))
                if w
            ]
            if not seats:
                c.invalid(line, f"'{clause}' needs one or more players", f"{line.text} player 1")
            entry[key] = [s for s in seats if s is not None]
    out.setdefault("react", []).append(entry)


def _turn(c: _Checker, lines: Sequence[OrderLine]) -> dict[str, Any]:
    f = c.f
    hand = Counter(f.hand)
    limit: list[dict[str, Any]] = []
    actions: list[tuple[OrderLine, dict[str, Any]]] = []
    move: tuple[OrderLine, str | None] | None = None
    # The hand limit at the end of the Turn (the rulebook; games saved before the option have
    # none and check it at the start): the file may name cards held now, or leave it to a
    # question then.
    at_end = c.view.public["options"].get("hand-limit", "start-of-turn") == "end-of-turn"
    placed = _placed(c, lines, hand)
    if placed:  # placed first: no longer hand cards, and usable as this Turn's Action
        f = c.f = replace(f, hand=tuple(hand.elements()), items=(*f.items, *placed))
    for line in lines:
        words = line.text.split()
        word = words[0].lower()
        if word == "place":
            continue
        if word in ("discard", "give") and (at_end or len(f.hand) > HAND_LIMIT):
            head, clauses = split_clauses(words[1:])
            cid = c.card(line, " ".join(head), word)
            if cid is None:
                continue
            if hand[cid] <= 0:
                c.illegal(line, f"you do not hold {cid}; your hand: {', '.join(f.hand) or 'empty'}")
                continue
            hand[cid] -= 1
            entry: dict[str, Any] = {"card": cid}
            if word == "give":
                if "to" not in clauses:
                    c.invalid(line, "give CARD to PLAYER", f"give {cid} to player 1")
                    continue
                seat = c.player(line, clauses["to"])
                if seat is None:
                    continue
                if at_end and (seat == f.seat or seat >= f.n or not f.alive[seat]):
                    c.illegal(line, f"{who(seat, f.n)} cannot take a card: name another living player")
                    continue
                if not at_end and (seat not in f.here() or seat >= f.n):
                    c.illegal(line, f"{who(seat, f.n)} is not a living player in your Location")
                    continue
                entry["to"] = seat
            limit.append(entry)
        elif word in ("discard", "give"):
            c.illegal(line, f"you hold {len(f.hand)} cards: the hand limit of 3 needs no {word}")
        elif word in ("play", "use", "ability", "reveal", "distress", "pet"):
            act = _action(c, line, word, words[1:])
            if act is not None:
                actions.append((line, act))
        elif word in ("move", "stay"):
            if move is not None:
                c.errors.append(AmbiguousOrderError(line, f"line {move[0].number} already says where you go"))
                continue
            if word == "stay":
                move = (line, None)
            elif len(words) < 2:
                c.invalid(line, "move LOCATION", "move office")
            else:
                loc = c.location(line, " ".join(words[1:]))
                if loc is not None:
                    move = (line, loc)
        else:
            _unknown(c, line, word)
    need = 0 if at_end else max(0, len(f.hand) - HAND_LIMIT)
    if len(limit) < need and not any(isinstance(e, InvalidOrderError) for e in c.errors):
        c.errors.append(
            IllegalOrderError(
                None,
                f"you hold {len(f.hand)} cards: discard or give {need - len(limit)} more (hand limit 3)",
                f"discard {f.hand[0]}",
            )
        )
    # after the hand limit, the cards still held
    left = Counter(f.hand)
    for entry in limit:
        left[entry["card"]] -= 1
    allowed = 1
    out_actions = []
    for line, act in actions:
        if allowed <= 0:
            c.errors.append(
                AmbiguousOrderError(line, "one Action a Turn (a second only after a card that grants it)")
            )
            continue
        allowed -= 1
        if act["type"] == "play":
            if left[act["card"]] <= 0:
                c.illegal(
                    line,
                    f"you do not hold {act['card']} (after the hand limit); "
                    f"your hand: {', '.join(f.hand) or 'empty'}",
                )
                continue
            left[act["card"]] -= 1
            info = c.cards.cards[act["card"]]
            if any(s.do == "extra-action" for s in info.effects):
                allowed += 1
        for extra in act.get("cards", ()):
            if left[extra] <= 0:
                c.illegal(line, f"'with {extra}': you do not hold it (apart from the card you play)")
        out_actions.append(act)
    out: dict[str, Any] = {
        "kind": "turn",
        "limit": limit,
        "actions": out_actions,
        "move": move[1] if move else None,
    }
    if placed:
        out["place"] = placed
    return out


def _placed(c: _Checker, lines: Sequence[OrderLine], hand: Counter[str]) -> list[str]:
    """The Items a Turn file places from the hand on the character (``place CARD``), taken
    out of ``hand``."""
    placed: list[str] = []
    for line in lines:
        words = line.text.split()
        if words[0].lower() != "place":
            continue
        cid = c.card(line, " ".join(words[1:]), "place") if len(words) > 1 else None
        if len(words) < 2:
            c.invalid(line, "place ITEM", "place " + next(iter(c.f.hand), "CARD"))
        if cid is None:
            continue
        if hand[cid] <= 0:
            c.illegal(line, f"you do not hold {cid}; your hand: {', '.join(c.f.hand) or 'empty'}")
        elif c.cards.cards[cid].kind != "item":
            c.illegal(
                line, f"{c.cards.cards[cid].name} is not an Item: only Items are placed on your character"
            )
        else:
            hand[cid] -= 1
            placed.append(cid)
    return placed


def _action(c: _Checker, line: OrderLine, word: str, rest: list[str]) -> dict[str, Any] | None:
    f = c.f
    head, clauses = split_clauses(rest, headless=word in ("ability", "reveal"))
    act: dict[str, Any] = {"type": {"reveal": "infection"}.get(word, word)}
    infection = c.view.private.get("priority")
    steps: Sequence[Step] = ()
    if word in ("play", "use"):
        if not head:
            c.invalid(line, f"{word} needs a card")
            return None
        cid = c.card(line, " ".join(head), word)
        if cid is None:
            return None
        if word == "use" and cid not in f.items:
            c.illegal(
                line, f"{cid} is not an Item on your character; your Items: {', '.join(f.items) or 'none'}"
            )
            return None
        if word == "play" and cid not in f.hand:
            c.illegal(line, f"you do not hold {cid}; your hand: {', '.join(f.hand) or 'empty'}")
            return None
        act["card"] = cid
        why = action_steps(f, c.cards, word, cid, infection)
        if isinstance(why, str):
            c.illegal(line, why)
            return None
        steps = why
    elif word == "ability":
        char = c.cards.character(c.view.public["chars"][f.seat])
        side = char.healthy if f.health == "healthy" else char.distressed
        if side.ability is None or side.ability.when != "action":
            c.illegal(line, f"the {char.role}'s {f.health} side has no Action ability: {side.text}")
            return None
        steps = side.ability.effects
    elif word == "reveal":
        why = action_steps(f, c.cards, "infection", None, infection)
        if isinstance(why, str):
            c.illegal(line, why)
            return None
        steps = why
    elif word == "distress":
        target_text = " ".join(head) or clauses.get("on", "")
        seat = c.player(line, target_text) if target_text else None
        if seat is None:
            if not target_text:
                c.invalid(line, "distress PLAYER", "distress player 1")
            return None
        if seat not in f.here():
            c.illegal(line, f"{who(seat, f.n)} is not alive in your Location")
            return None
        act["target"] = seat
        return act
    elif word == "pet":
        pub = c.view.public
        if not f.dog or f.n not in f.here() or pub["health"][f.n] != "healthy":
            c.illegal(line, "there is no Healthy Dog in your Location to pet")
            return None
        return act
    step = chosen_step(steps)
    if "on" in clauses:
        seat = c.player(line, clauses["on"])
        if seat is None:
            return None
        if step is None:
            c.illegal(line, "this Action names no player: leave out 'on'")
            return None
        if seat not in legal_targets(f, step):
            c.illegal(line, f"{who(seat, f.n)} cannot be chosen for it (it takes {step.who})")
            return None
        act["target"] = seat
    elif step is not None and not legal_targets(f, step):
        c.illegal(line, f"nobody can be chosen for it now (it takes {step.who})")
        return None
    if "to" in clauses:
        loc = c.location(line, clauses["to"])
        if loc is not None:
            act["to"] = loc
    if "option" in clauses:
        if not clauses["option"].isdigit():
            c.invalid(line, "option K: a number")
        else:
            act["option"] = int(clauses["option"]) - 1
    if "with" in clauses:
        extra = c.card(line, clauses["with"], "with")
        if extra is not None:
            act["cards"] = [extra]
    needs_card = any(s.do in ("give",) or (s.do == "discard" and s.who == "self") for s in steps)
    if needs_card and word == "play" and len(f.hand) < 2 and "with" not in clauses:
        c.illegal(line, "it needs another hand card to give or discard, and you hold none")
        return None
    return act


def _unknown(c: _Checker, line: OrderLine, word: str) -> None:
    guess = _nearest(word, WORDS)
    rest = line.text.split(None, 1)[1] if " " in line.text.strip() else ""
    c.invalid(line, f"{word!r} is not an order here", f"{guess} {rest}".strip() if guess else None)


def _answer(c: _Checker, kind: str, lines: Sequence[OrderLine]) -> dict[str, Any]:
    """An answer to a question put to the seat (keep, leave, target, ...)."""
    f = c.f
    q = f.ask or {}
    priv = f.private_ask
    out: dict[str, Any] = {"kind": kind}
    seen: OrderLine | None = None
    for line in lines:
        words = line.text.split()
        word = words[0].lower()
        rest = words[1:]
        if seen is not None and kind != "window":
            c.errors.append(AmbiguousOrderError(line, f"line {seen.number} already answers"))
            continue
        seen = line
        if kind in ("keep", "give", "discard") and word == kind:
            pool = Counter(priv.get("cards") or priv.get("hand") or ())
            want = q.get("keep", q.get("count", 1))
            if [w.lower() for w in rest] == ["none"] and q.get("may_discard"):
                out["cards"] = []
                continue
            chosen = []
            for text in " ".join(rest).split(","):
                for part in [text] if card_id(text, c.cards) else text.split():
                    cid = c.card(line, part, word)
                    if cid is None:
                        continue
                    if pool[cid] <= 0:
                        c.illegal(line, f"{cid} is not one of {', '.join(pool.elements())}")
                        continue
                    pool[cid] -= 1
                    chosen.append(cid)
            if len(chosen) != want and not c.errors:
                c.illegal(line, f"name exactly {want} card(s)")
            out["cards"] = chosen
        elif kind == "leave" and word == "leave":
            cards = priv.get("cards", [])
            if [w.lower() for w in rest] == ["none"]:
                if not q.get("may_discard"):
                    c.illegal(line, "with two cards you leave one on top")
                out["card"] = None
                continue
            cid = c.card(line, " ".join(rest), "leave")
            if cid is not None and cid not in cards:
                c.illegal(line, f"{cid} is not one of the cards you look at: {', '.join(cards)}")
            out["card"] = cid
        elif kind == "target" and word in ("target", "choose"):
            seat = c.player(line, " ".join(rest))
            if seat is not None and seat not in q.get("choices", []):
                c.illegal(
                    line,
                    f"{who(seat, f.n)} cannot be chosen; "
                    f"choices: {', '.join(who(p, f.n) for p in q.get('choices', []))}",
                )
            out["seat"] = seat
        elif kind == "option" and word in ("option", "choose"):
            k = int(rest[0]) if rest and rest[0].isdigit() else None
            if k not in q.get("choices", []):
                c.illegal(line, f"choose one of options {', '.join(map(str, q.get('choices', [])))}")
            out["option"] = k
        elif kind == "token" and word == "return":
            tokens = priv.get("tokens", [])
            chosen_tokens = []
            if [w.lower() for w in rest] == ["none"]:  # nothing to give back (Unknown Infections)
                if len(tokens) > q.get("count", 1):
                    c.illegal(line, f"name {q.get('count', 1)} of the tokens you carry")
                out["tokens"] = []
                continue
            for part in " ".join(rest).split(","):
                seat = c.player(line, part)
                if seat is not None and seat not in tokens:
                    c.illegal(line, f"you carry no token of {who(seat, f.n)}'s colour")
                elif seat is not None:
                    chosen_tokens.append(seat)
            out["tokens"] = chosen_tokens
        elif kind == "location" and word == "to":
            loc = c.location(line, " ".join(rest))
            if loc is not None and loc not in q.get("choices", []):
                c.illegal(line, f"choose one of {', '.join(q.get('choices', []))}")
            out["to"] = loc
        elif kind == "first" and word == "first":
            cid = c.card(line, " ".join(rest), "first")
            if cid is not None and cid not in priv.get("cards", []):
                c.illegal(line, f"{cid} is not one of the Events waiting: {', '.join(priv.get('cards', []))}")
            out["card"] = cid
        elif kind == "escape" and word in ("escape", "stay"):
            out["escape"] = word == "escape"
        elif (
            kind == "dog-escape"
            and word == "dog"
            and rest
            and rest[0].lower() in ("escapes", "escape", "stays", "stay")
        ):
            out["escape"] = rest[0].lower().startswith("escape")
        elif kind == "window" and word in ("pass", "play", "ability", "infection"):
            if word == "pass":
                continue
            head, clauses = split_clauses(rest, headless=word in ("ability", "infection"))
            entry: dict[str, Any] = {}
            if word in ("ability", "infection"):
                entry["card"] = word
            else:
                cid = c.card(line, " ".join(head), "play")
                if cid is None:
                    continue
                if cid not in f.hand:
                    c.illegal(line, f"you do not hold {cid}")
                    continue
                entry["card"] = cid
            if "on" in clauses:
                seat = c.player(line, clauses["on"])
                if seat is not None:
                    entry["target"] = seat
            out.setdefault("plays", []).append(entry)
        else:
            c.invalid(line, f"{line.text!r} does not answer this question ({_expect(kind)})", _expect(kind))
    if seen is None and kind not in ("window",):
        c.errors.append(IllegalOrderError(None, f"missing the answer: {_expect(kind)}", _expect(kind)))
    return out


def _expect(kind: str) -> str:
    return {
        "keep": "keep CARD",
        "give": "give CARD",
        "discard": "discard CARD",
        "leave": "leave CARD",
        "first": "first CARD",
        "target": "target player N",
        "option": "option K",
        "token": "return player N",
        "location": "to LOCATION",
        "escape": "escape",
        "dog-escape": "dog escapes",
        "window": "pass",
    }.get(kind, "pass")
