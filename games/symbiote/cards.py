"""Cards of Symbiote: names, precomputed tables, forgiving parsing, and set arithmetic.

A card is the string of its rank and suit: ``"AS"``, ``"7H"``, ``"10D"``, ``"KC"``.  In the
double deck (All-Night Lab Session) two cards with the same name are interchangeable, so a
hand is a multiset: a list of names that may repeat.

Ranks count A=1, 2..9, 10, J=11, Q=12, K=13.  A symbiotic pair is two cards whose ranks sum
to 10 (so an Ace pairs with a 9, and a 5 with another 5; a ten pairs with nothing); a royal
symbiote is a Jack, a Queen and a King.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

SUITS = ("C", "D", "H", "S")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANK_NAMES)
"""One poker deck (no jokers), in a fixed order."""

RANK: dict[str, int] = {r + s: i for s in SUITS for i, r in enumerate(RANK_NAMES, start=1)}
"""Rank of each card: A=1 .. K=13."""

SUIT: dict[str, str] = {r + s: s for s in SUITS for r in RANK_NAMES}

SORT_KEY: dict[str, int] = {r + s: i * 4 + j for j, s in enumerate(SUITS) for i, r in enumerate(RANK_NAMES)}
"""Display order: by rank, then suit."""

STEPS: dict[str, int] = {}
"""How far a discard moves the marker: clockwise positive (A..10), counter-clockwise negative (J/Q/K)."""
for _card, _rank in RANK.items():
    STEPS[_card] = _rank if _rank <= 10 else -(_rank - 10)

PAIR_VALUE, PAIR_MATCHED = 2, 4
ROYAL_VALUE, ROYAL_MATCHED = 3, 6


def full_deck(double: bool) -> list[str]:
    """A fresh unshuffled deck: one poker deck, or two for the All-Night Lab Session."""
    return list(DECK) * (2 if double else 1)


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in display order (rank, then suit)."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def show(cards: Iterable[str]) -> str:
    """Cards as text for a person, in display order, or "(none)"."""
    text = " ".join(sort_cards(cards))
    return text or "(none)"


def moves_marker(card: str, below: str | None) -> bool:
    """Whether discarding ``card`` onto ``below`` matches it (same suit or same rank)."""
    return below is not None and (RANK[card] == RANK[below] or SUIT[card] == SUIT[below])


# ---------------------------------------------------------------------------- sets


def set_kind(cards: Sequence[str]) -> str | None:
    """``"pair"`` or ``"royal"`` if the cards form a symbiotic pair or a royal symbiote, else None."""
    if len(cards) == 2:
        a, b = RANK[cards[0]], RANK[cards[1]]
        return "pair" if a + b == 10 and a < 10 and b < 10 else None
    if len(cards) == 3:
        return "royal" if sorted(RANK[c] for c in cards) == [11, 12, 13] else None
    return None


def matched(cards: Sequence[str]) -> bool:
    """Whether every card of a set is of the same suit."""
    first = SUIT[cards[0]]
    return all(SUIT[c] == first for c in cards)


def set_value(cards: Sequence[str]) -> int:
    """Points of a played set: pair 2 (matched 4), royal 3 (matched 6).

    Raises ValueError if the cards are not a set (a bug: sets are checked when played).
    """
    kind = set_kind(cards)
    if kind is None:
        raise ValueError(f"not a set: {' '.join(cards)}")
    if kind == "pair":
        return PAIR_MATCHED if matched(cards) else PAIR_VALUE
    return ROYAL_MATCHED if matched(cards) else ROYAL_VALUE


def why_not_set(cards: Sequence[str]) -> str:
    """A sentence telling a player why these cards are not a set."""
    ranks = [RANK[c] for c in cards]
    if len(cards) == 2:
        if 10 in ranks:
            return "a ten is a parasite and pairs with nothing"
        if any(r > 10 for r in ranks):
            return "Jacks, Queens and Kings only play as a royal symbiote (J Q K)"
        names = " + ".join(f"{c} ({r})" for c, r in zip(cards, ranks, strict=True))
        return f"{names} makes {sum(ranks)}, a symbiotic pair must add up to 10 (Ace counts 1)"
    if len(cards) == 3:
        return "a royal symbiote is one Jack, one Queen and one King"
    return f"a set is a pair (2 cards adding up to 10) or a royal symbiote (J Q K), not {len(cards)} cards"


def count(cards: Iterable[str]) -> dict[str, int]:
    """A multiset as a dict card -> how many (faster than collections.Counter here)."""
    out: dict[str, int] = {}
    get = out.get
    for c in cards:
        out[c] = get(c, 0) + 1
    return out


_BIT: dict[str, int] = {card: 1 << rank for card, rank in RANK.items()}
_REVERSED4 = tuple(int(f"{i:04b}"[::-1], 2) for i in range(16))
_ROYAL_BITS = (1 << 11) | (1 << 12) | (1 << 13)
_FIVE_BIT = 1 << 5


_FIVES_IN: Callable[[str], int] = {card: int(rank == 5) for card, rank in RANK.items()}.__getitem__
"""1 for a five, else 0."""


def could_hold_set(hand: Sequence[str]) -> bool:
    """A quick exact test: whether ``hand`` holds a set (an A-9, 2-8, 3-7 or 4-6, a J-Q-K, or
    two fives), that is whether :func:`legal_sets` finds any."""
    mask = 0
    for c in hand:  # (faster than reduce(or_, map(...)) for hands of up to five cards)
        mask |= _BIT[c]
    # ranks 1..4 against their partners 9..6 (bits 6..9 reversed), any royal
    if (mask >> 1) & 15 & _REVERSED4[(mask >> 6) & 15] or mask & _ROYAL_BITS == _ROYAL_BITS:
        return True
    return bool(mask & _FIVE_BIT) and sum(map(_FIVES_IN, hand)) >= 2


def legal_sets(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct pair and royal symbiote that can be made from ``hand``, in display
    order (pairs by their low card, then royals)."""
    if not could_hold_set(hand):
        return []
    by_rank: dict[int, list[str]] = {}
    for c in hand:
        r = RANK[c]
        if r != 10:
            same = by_rank.get(r)
            if same is None:
                by_rank[r] = [c]
            elif c not in same:
                same.append(c)
                same.sort(key=SORT_KEY.__getitem__)
    found: list[tuple[str, ...]] = []
    for r in (1, 2, 3, 4):
        lows = by_rank.get(r)
        if lows:
            highs = by_rank.get(10 - r)
            if highs:
                found.extend((a, b) for a in lows for b in highs)
    fives = by_rank.get(5)
    if fives:
        for i, a in enumerate(fives):
            if hand.count(a) >= 2:
                found.append((a, a))
            found.extend((a, b) for b in fives[i + 1 :])
    jacks = by_rank.get(11)
    if jacks:
        queens = by_rank.get(12)
        kings = by_rank.get(13)
        if queens and kings:
            found.extend((j, q, k) for j in jacks for q in queens for k in kings)
    return found


def best_sets(hand: Sequence[str]) -> tuple[int, list[tuple[str, ...]]]:
    """The disjoint sets from ``hand`` worth the most points (fewest cards used on ties)."""
    if not could_hold_set(hand):
        return 0, []
    points, chosen = _best_sets(tuple(sorted(hand, key=SORT_KEY.__getitem__)))
    return points, list(chosen)


@lru_cache(maxsize=8192)
def _best_sets(hand: tuple[str, ...]) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """:func:`best_sets` of a hand in display order (remembered: the search depends only on
    which cards are held, and bots ask about the same hands again and again)."""
    best: tuple[int, int, list[tuple[str, ...]]] = (0, 0, [])

    def search(cards: list[str], chosen: list[tuple[str, ...]], points: int, used: int) -> None:
        """Branch on the first card that is in a set: use it in each of its sets, or not."""
        nonlocal best
        if (points, -used) > (best[0], -best[1]):
            best = (points, used, list(chosen))
        options = legal_sets(cards)
        if not options:
            return
        # Sets containing the first usable card, or skip that card: no duplicates explored.
        first = options[0][0]
        for option in options:
            if first not in option:
                continue
            rest = list(cards)
            for c in option:
                rest.remove(c)
            chosen.append(option)
            search(rest, chosen, points + set_value(option), used + len(option))
            chosen.pop()
        rest = list(cards)
        rest.remove(first)
        search(rest, chosen, points, used)

    search(list(hand), [], 0, 0)
    return best[0], tuple(best[2])


# ---------------------------------------------------------------------------- parsing

_RANK_ALIASES: dict[str, str] = {}
for _name, _words in {
    "A": ("a", "ace", "1"),
    "2": ("2", "two", "deuce"),
    "3": ("3", "three", "trey"),
    "4": ("4", "four"),
    "5": ("5", "five"),
    "6": ("6", "six"),
    "7": ("7", "seven"),
    "8": ("8", "eight"),
    "9": ("9", "nine"),
    "10": ("10", "t", "ten"),
    "J": ("j", "jack", "knave"),
    "Q": ("q", "queen"),
    "K": ("k", "king"),
}.items():
    for _w in _words:
        _RANK_ALIASES[_w] = _name

_SUIT_ALIASES: dict[str, str] = {}
for _name, _words in {
    "C": ("c", "club", "clubs", "♣", "♧"),
    "D": ("d", "diamond", "diamonds", "♦", "♢"),
    "H": ("h", "heart", "hearts", "♥", "♡"),
    "S": ("s", "spade", "spades", "♠", "♤"),
}.items():
    for _w in _words:
        _SUIT_ALIASES[_w] = _name

CARD_TOKENS: dict[str, str] = {}
"""Every one-word spelling of a card (lower case) -> its name: 7h, 10h, th, a♠, 7-h, ..."""
for _r, _rn in _RANK_ALIASES.items():
    for _s, _sn in _SUIT_ALIASES.items():
        if len(_r) <= 2 and len(_s) == 1:
            CARD_TOKENS[_r + _s] = _rn + _sn
            CARD_TOKENS[_r + "-" + _s] = _rn + _sn

_SEPARATORS = re.compile(r"[,;+&/()\[\]]|\band\b")


class CardSyntaxError(ValueError):
    """A word that is not a card; ``word`` is the offending text."""

    def __init__(self, word: str, message: str) -> None:
        self.word = word
        super().__init__(message)


def parse_cards(text: str) -> list[str]:
    """Cards named in free text: "3H 7H", "3h, 7h", "ten of hearts + 10S", "A♠ 9♠".

    Raises CardSyntaxError for the first word that is not a card.
    """
    lowered = text.lower()
    words = lowered.split()
    fast = [CARD_TOKENS.get(w) for w in words]
    if None not in fast:
        return fast  # type: ignore[return-value]
    words = _SEPARATORS.sub(" ", lowered).split()
    cards: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        card = CARD_TOKENS.get(word)
        if card is not None:
            cards.append(card)
            i += 1
            continue
        rank = _RANK_ALIASES.get(word)
        if rank is not None:
            j = i + 1
            if j < len(words) and words[j] == "of":
                j += 1
            suit = _SUIT_ALIASES.get(words[j]) if j < len(words) else None
            if suit is not None:
                cards.append(rank + suit)
                i = j + 1
                continue
            raise CardSyntaxError(word, f"{word!r} needs a suit: write e.g. {rank}H or '{word} of hearts'")
        raise CardSyntaxError(
            word, f"{word!r} is not a card (write rank then suit: 7H, 10H or TH, AS, QD, '7 of hearts')"
        )
    return cards
