"""Symbiote order files: reading and checking them from a View (the blank form is in forms.py).

One file is one step of one seat.  In the first step of a turn (phase "act") the file says
``take`` or ``draw``, then any ``pair``/``royal`` lines and a ``discard``:

* ``take`` + sets + discard: the whole turn, every card known.
* ``draw`` + sets + discard: the whole turn, written with the cards already in hand; the
  drawn card simply stays in the hand.
* ``draw`` alone: the engine asks the same seat again (phase "play"), showing the drawn
  card; that second file holds only sets and the discard.  At most two files a turn.

:func:`validate` returns ``{"action": "take"|"draw"|None, "wait": bool, "plays": [[card,
...], ...], "discard": card|None}``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from pbem.game import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    OrderErrors,
    OrderLine,
    View,
)

from .cards import CardSyntaxError, count, legal_sets, parse_cards, set_kind, show, sort_cards, why_not_set
from .rules import who

KEYWORDS = ("take", "draw", "pair", "royal", "play", "discard")
_SET_WORDS = {"pair": "pair", "royal": "royal", "play": None, "set": None, "meld": None}
_TAKE_EXTRA = {"", "discard", "top", "the top card", "top card", "from discard", "from the discard pile"}
_DRAW_EXTRA = {"", "card", "a card", "one", "1", "one card", "from the deck", "from the draw pile"}


class Situation(NamedTuple):
    """What the acting seat knows and may do, read from its View."""

    seat: int | None
    my_turn: bool
    phase: str
    hand: tuple[str, ...]
    top: str | None
    can_draw: bool
    can_take: bool
    keep_taken: bool
    drawn: str | None


_last: tuple[View | None, Situation | None] = (None, None)
_make_tuple = tuple.__new__


def situation(view: View) -> Situation:
    """The facts an order file is checked against (the last answer is remembered: a bot and
    validate usually ask about the same View object in a row; the pair is replaced as one
    object, so threads cannot mix two answers)."""
    global _last
    seen, sit = _last
    if seen is view and sit is not None:
        return sit
    # Computed here rather than in a helper: a frame less at every step (issue 13).
    pub = view.public
    phase = pub["phase"]
    seat = view.seat
    pile = pub["discard"]
    top = pile[-1] if pile else None
    keep = pub["options"]["last-taken-card"] == "keep"
    if seat is None:
        sit = Situation(None, False, phase, (), top, False, False, keep, None)
    else:
        my_turn = pub["seat"] == seat and phase != "over"
        acting = my_turn and phase == "act"
        private = view.private
        # Situation(...) through tuple.__new__ directly: the same named tuple without the frame
        # of its generated __new__ (1,500 rather than 3,600 machine instructions a step).
        sit = _make_tuple(
            Situation,
            (
                seat,
                my_turn,
                phase,
                tuple(private.get("hand", ())),
                top,
                acting and pub["deck"] > 0,
                acting and top is not None,
                keep,
                private.get("drawn"),
            ),
        )
    _last = (view, sit)
    return sit


def discard_choices(
    before: Mapping[str, int], remaining: Mapping[str, int], taken: str | None, keep: bool
) -> list[str]:
    """Cards that may be discarded from ``remaining``.  The card taken from the discard pile
    may not go back, but an identical card held before (double deck) may; when the taken
    card is all that is left, it is kept (``keep``) or must be discarded after all."""
    out = [c for c, k in remaining.items() if k > 0 and (c != taken or min(k, before.get(c, 0)) >= 1)]
    if not out and taken is not None and remaining.get(taken, 0) > 0 and not keep:
        out = [taken]
    return sort_cards(out)


def set_line(cards: Sequence[str]) -> str:
    """The order line that plays these cards."""
    return ("pair " if len(cards) == 2 else "royal ") + " ".join(cards)


def _nearest(text: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to ``text`` (difflib, case-insensitive), or None if none is close."""
    found = difflib.get_close_matches(text.lower(), [c.lower() for c in candidates], n=1, cutoff=0.4)
    if not found:
        return None
    return next(c for c in candidates if c.lower() == found[0])


def _unknown_line(line: OrderLine, word: str) -> InvalidOrderError:
    """The error for a line whose first word is no order, guessing what was meant."""
    try:
        cards = parse_cards(line.text)
    except CardSyntaxError:
        cards = []
    suggestion: str | None
    if len(cards) == 1:
        suggestion = f"discard {cards[0]}"
    elif len(cards) in (2, 3):
        suggestion = set_line(cards)
    else:
        close = difflib.get_close_matches(word, KEYWORDS, n=1, cutoff=0.5)
        rest = line.text.split(None, 1)[1] if " " in line.text.strip() else ""
        suggestion = f"{close[0]} {rest}".strip() if close else None
    return InvalidOrderError(
        line, f"{word!r} is not an order: write take, draw, pair, royal or discard", suggestion
    )


@lru_cache(maxsize=4096)
def read_line(text: str) -> tuple[str, str, Any]:
    """Read one line on its own (cached: the same lines come again and again).

    Returns (kind, word, payload): ("action", "take"|"draw", None), ("take-card", "take",
    card), ("set", word, cards tuple), ("discard", "discard", card), ("bad-card", word,
    message), ("bad", word, message), ("unknown", word, None) or ("blank", "", None).
    """
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word in ("take", "draw"):
        extra = _TAKE_EXTRA if word == "take" else _DRAW_EXTRA
        if rest.lower() in extra:
            return "action", word, None
        if word == "take":
            try:
                named = parse_cards(rest)
            except CardSyntaxError:
                named = []
            if len(named) == 1:
                return "take-card", word, named[0]
            return "bad", word, "take names nothing, or the top card of the discard pile"
        return "bad", word, "draw takes nothing after it"
    if word in _SET_WORDS or word == "discard":
        try:
            cards = parse_cards(rest)
        except CardSyntaxError as exc:
            return "bad-card", word, str(exc)
        if word != "discard":
            return "set", word, tuple(cards)
        if len(cards) != 1:
            return "bad", word, f"discard names exactly one card, not {len(cards)}"
        return "discard", word, cards[0]
    if not word:
        return "blank", "", None
    return "unknown", word, None


def _plain(sit: Situation, lines: Sequence[OrderLine]) -> dict[str, Any] | None:
    """The commonest files, decided at once: in the first step `draw` alone, or `take` or
    `draw` then a discard from the hand; in the play step a discard from the hand; and
    either with set lines before the discard (:func:`_plain_sets`).  None for any other
    file, which :func:`validate` then reads in full (to the same answer)."""
    _, _, phase, hand, top, can_draw, can_take, _, _ = sit  # read once (see random_bot)
    if phase == "act":
        if not lines:
            return None
        kind, word, _ = read_line(lines[0].text)
        if kind != "action" or not (can_draw if word == "draw" else can_take):
            return None
        if len(lines) == 1:
            return {"action": "draw", "wait": True, "plays": [], "discard": None} if word == "draw" else None
        if len(lines) > 2:
            return _plain_sets(hand, top if word == "take" else None, word, lines, 1)
        kind, _, card = read_line(lines[1].text)
        if kind != "discard" or card not in hand:
            return None
        return {"action": word, "wait": False, "plays": [], "discard": card}
    if len(lines) != 1:
        return _plain_sets(hand, None, None, lines, 0) if lines else None
    kind, _, card = read_line(lines[0].text)
    if kind != "discard" or card not in hand:
        return None
    return {"action": None, "wait": False, "plays": [], "discard": card}


def _plain_sets(
    hand: tuple[str, ...], taken: str | None, action: str | None, lines: Sequence[OrderLine], first: int
) -> dict[str, Any] | None:
    """A file whose lines from ``first`` on are set lines and then one discard, decided at
    once when every set is a set of the kind its word declares, made of cards still held
    (the hand and ``taken``, each used once), and the discard is a card left that may go
    (not the card taken, unless an identical one was held before): what :func:`validate`'s
    full reading accepts for such a file, with the same plays.  None for anything else,
    which the full reading then explains.  (About one file in seven plays a set: reading
    it in full cost three times a plain file; tests/symbiote/test_symbiote_shortcuts.py
    compares both ways.)"""
    *middle, last = lines[first:]
    kind, _, card = read_line(last.text)
    if kind != "discard":
        return None
    pool = count(hand)
    if taken is not None:
        pool[taken] = pool.get(taken, 0) + 1
    plays: list[list[str]] = []
    for line in middle:
        kind, word, cards = read_line(line.text)
        if kind != "set":
            return None
        set_type = set_kind(cards)
        if set_type is None or _SET_WORDS[word] not in (None, set_type):
            return None
        for c in cards:
            if not pool.get(c):
                return None
            pool[c] -= 1
        plays.append(sort_cards(cards))
    if not pool.get(card) or (card == taken and card not in hand):
        return None
    return {"action": action, "wait": False, "plays": plays, "discard": card}


def validate(view: View, lines: Sequence[OrderLine]) -> dict[str, Any]:
    """Read and check one order file against the seat's view.

    Raises OrderErrors with every problem found (each naming its line where it has one).
    """
    sit = situation(view)
    if not sit.my_turn:
        whose = "the game is over" if sit.phase == "over" else f"it is {who(view.public['seat'])}'s turn"
        raise OrderErrors([IllegalOrderError(None, f"you have no orders to give: {whose}")])
    plain = _plain(sit, lines)
    if plain is not None:
        return plain
    errors: list[OrderError] = []
    actions: list[tuple[OrderLine, str]] = []
    sets: list[tuple[OrderLine, list[str], str | None]] = []
    discards: list[tuple[OrderLine, str]] = []
    for line in lines:
        kind, word, payload = read_line(line.text)
        if kind == "action":
            actions.append((line, word))
        elif kind == "discard":
            discards.append((line, payload))
        elif kind == "set":
            sets.append((line, list(payload), _SET_WORDS[word]))
        elif kind == "take-card":
            actions.append((line, word))
            if payload != sit.top:
                msg = f"you can only take the top card of the discard pile ({sit.top or 'it is empty'})"
                errors.append(IllegalOrderError(line, msg, "take"))
        elif kind == "bad-card":
            known = list(sit.hand) + ([sit.top] if sit.top and sit.can_take else [])
            rest = line.text.strip().partition(" ")[2].strip()
            errors.append(InvalidOrderError(line, payload, _card_suggestion(word, rest, known)))
        elif kind == "bad":
            if word in ("take", "draw"):
                actions.append((line, word))
            errors.append(InvalidOrderError(line, payload, word if word in ("take", "draw") else None))
        elif kind == "unknown":
            errors.append(_unknown_line(line, word))

    # --- take or draw
    # After an unreadable line, "missing ..." errors would only be noise: it may be the one.
    unreadable = bool(errors) and any(isinstance(e, InvalidOrderError) for e in errors)
    action: str | None = None
    if sit.phase == "play":
        for line, _word in actions:
            msg = f"you already drew this turn (you drew {sit.drawn}): now play sets and discard"
            errors.append(IllegalOrderError(line, msg))
    else:
        for k, (line, word) in enumerate(actions):
            if k > 0:
                first = actions[0][0]
                msg = f"one take or draw a turn; line {first.number} already says {first.text!r}"
                errors.append(AmbiguousOrderError(line, msg))
            elif word == "take" and not sit.can_take:
                errors.append(
                    IllegalOrderError(line, "the discard pile is empty", "draw" if sit.can_draw else None)
                )
            elif word == "draw" and not sit.can_draw:
                errors.append(
                    IllegalOrderError(line, "the draw pile is empty", "take" if sit.can_take else None)
                )
            else:
                action = word
        if not actions and not unreadable and (sit.can_draw or sit.can_take):
            top = f" (the top discard is {sit.top})" if sit.can_take else ""
            ways = " or ".join(w for w, ok in (("take", sit.can_take), ("draw", sit.can_draw)) if ok)
            errors.append(IllegalOrderError(None, f"missing a first line: {ways}{top}"))
    taken = sit.top if action == "take" else None
    wait = action == "draw" and not sets and not discards
    if not errors and not sets and taken is None:
        # The commonest files, `draw` alone or a draw and a discard from the hand: decided here.
        if wait:
            return {"action": action, "wait": True, "plays": [], "discard": None}
        if len(discards) == 1 and discards[0][1] in sit.hand:
            return {"action": action, "wait": False, "plays": [], "discard": discards[0][1]}
    before = count(sit.hand)
    pool = dict(before)
    if taken is not None:
        pool[taken] = pool.get(taken, 0) + 1

    # --- sets
    plays: list[list[str]] = []
    used_on: dict[str, int] = {}
    for line, cards, declared in sets:
        set_type = set_kind(cards)
        if set_type is None:
            errors.append(IllegalOrderError(line, f"not a set: {why_not_set(cards)}"))
            continue
        if declared is not None and declared != set_type:
            named = "royal symbiote" if set_type == "royal" else "pair"
            msg = f"{' '.join(cards)} is a {named}, not a {declared}"
            errors.append(IllegalOrderError(line, msg, set_line(sort_cards(cards))))
            continue
        short = None
        for i, c in enumerate(cards):
            if pool.get(c, 0) > 0:
                pool[c] -= 1
                continue
            short = c
            for back in cards[:i]:
                pool[back] += 1
            break
        if short is not None:
            errors.append(_missing(line, short, sit, before, taken, used_on, action))
            continue
        for c in cards:
            used_on[c] = line.number
        plays.append(sort_cards(cards))

    # --- discard
    discard: str | None = None
    choices: list[str] | None = None
    for k, (line, card) in enumerate(discards):
        if k > 0:
            first = discards[0][0]
            msg = f"one discard a turn; line {first.number} already discards"
            errors.append(AmbiguousOrderError(line, msg))
            continue
        left = pool.get(card, 0)
        if left > 0 and (card != taken or min(left, before.get(card, 0)) >= 1):
            discard = card
            continue
        choices = discard_choices(before, pool, taken, sit.keep_taken)
        if card in choices:
            discard = card
        elif left > 0 and card == taken:
            if choices:
                msg = f"you may not discard {card}: you took it from the discard pile this turn"
            else:
                msg = f"{card} is the card you took and all you have left: you keep it, no discard"
            sug = f"discard {choices[0]}" if choices else None
            errors.append(IllegalOrderError(line, msg, sug))
        elif action == "draw" and not sit.hand:
            errors.append(IllegalOrderError(line, "your hand is empty before the draw: write `draw` alone"))
        else:
            errors.append(_missing(line, card, sit, before, taken, used_on, action))
    if not discards and not wait and not unreadable:
        choices = discard_choices(before, pool, taken, sit.keep_taken)
        if action == "draw":
            msg = (
                "missing discard: after `draw`, either write nothing else (you will be asked "
                "again once you see the card) or end the turn with a discard"
            )
            errors.append(IllegalOrderError(None, msg, f"discard {choices[0]}" if choices else None))
        elif choices:
            msg = f"missing discard: you must discard one of {' '.join(choices)}"
            errors.append(IllegalOrderError(None, msg, f"discard {choices[0]}"))
    if errors:
        errors.sort(key=lambda e: (e.line is None, e.line.number if e.line else 0))
        raise OrderErrors(errors)
    return {"action": action, "wait": wait, "plays": plays, "discard": discard}


def _missing(
    line: OrderLine,
    card: str,
    sit: Situation,
    before: Mapping[str, int],
    taken: str | None,
    used_on: dict[str, int],
    action: str | None,
) -> OrderError:
    """The error for a card the seat cannot use on ``line``: already used, or not held
    (listing the hand and suggesting the nearest legal line)."""
    held = before.get(card, 0) + (1 if card == taken else 0)
    if held and card in used_on:
        return IllegalOrderError(line, f"{card} is already played on line {used_on[card]}")
    note = ""
    if action == "draw":
        note = " (the card you draw is not known yet: write `draw` alone to choose after seeing it)"
    elif card == sit.top and taken is None and sit.can_take:
        note = f" ({card} is the top discard: add `take` to take it)"
    hand = list(sit.hand) + ([taken] if taken else [])
    msg = f"you do not hold {card}; your hand: {show(hand)}{note}"
    word = line.text.split(None, 1)[0].lower()
    if word == "discard":
        sug = _nearest(f"discard {card}", [f"discard {c}" for c in sort_cards(set(hand))])
    else:
        sug = _nearest(line.text, [set_line(s) for s in legal_sets(hand)])
    return IllegalOrderError(line, msg, sug)


def _card_suggestion(word: str, rest: str, pool: Sequence[str]) -> str | None:
    """The nearest legal line to a line with an unreadable card."""
    if word == "discard":
        return _nearest(f"discard {rest}", [f"discard {c}" for c in sort_cards(set(pool))])
    return _nearest(f"{word} {rest}", [set_line(s) for s in legal_sets(pool)])
