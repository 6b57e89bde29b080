"""Bots for Parasite: they read their own view and write order lines like a person.

``random`` picks uniformly among the legal choices of each decision; ``greedy`` plays for
its side: it files its Reactions and Interrupts as standing orders, keeps Interrupts and
Items first, attacks players it tested as the other side (and, as a Parasite, anyone it can
finish off), heals its friends, stands on Missions that need people, and at the end Escapes
or Stays behind as its Win and Lose conditions say.  Each bot checks its lines with
:func:`orders.validate` and drops a line that would be refused, so it never files a bad file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.game import OrderErrors, OrderLine, View
from pbem.rng import Rng

from . import orders
from .cards import CardSet, Step, load_cards
from .orders import Facts, facts, legal_targets

ACTIONS_WORTH = ("interrupt", "item", "action", "reaction")


def _p(seat: int, f: Facts) -> str:
    """How a bot names a seat in an order line: by character (the Dog: ``dog``), as the
    forms do, since people see names, never seat numbers."""
    return "dog" if seat == f.n else f.chars[seat]


def _checked(view: View, lines: list[str]) -> list[str]:
    """Drop lines until the file validates (a bot never files a refused file)."""
    lines = list(lines)
    for _ in range(len(lines) + 1):
        try:
            orders.validate(view, [OrderLine(i + 1, t) for i, t in enumerate(lines)])
            return lines
        except OrderErrors as bad:
            numbered = sorted({e.line.number for e in bad.errors if e.line is not None}, reverse=True)
            if not numbered:
                break
            del lines[numbered[0] - 1]
    return lines


def _action_options(f: Facts, view: View, cards: CardSet) -> list[tuple[str, int | None, str]]:
    """(order line, target, kind) for every Action the seat could take."""
    out: list[tuple[str, int | None, str]] = []
    pub = view.public
    infection = view.private.get("priority")
    for cid in sorted(set(f.hand)):
        info = cards.cards[cid]
        if info.icon != "action":
            continue
        out += _with_targets(f, f"play {cid}", info.effects, "play:" + cid, cid)
    for cid in sorted(set(f.items)):
        info = cards.cards[cid]
        if info.use:
            out += _with_targets(f, f"use {cid}", info.use, "use:" + cid, cid)
    char = cards.character(pub["chars"][f.seat])
    side = char.healthy if f.health == "healthy" else char.distressed
    if side.ability is not None and side.ability.when == "action":
        out += _with_targets(f, "ability", side.ability.effects, "ability", None)
    if infection is not None:
        inf = cards.infections[infection]
        if inf.ability is not None and inf.ability.when == "action":
            out += _with_targets(f, "reveal", inf.ability.effects, "infection", None)
    for seat in f.here():
        out.append((f"distress {_p(seat, f)}", seat, "distress"))
    if f.dog and f.n in f.here() and pub["health"][f.n] == "healthy":
        out.append(("pet dog", None, "pet"))
    return out


def _with_targets(
    f: Facts, line: str, steps: Any, kind: str, cid: str | None
) -> list[tuple[str, int | None, str]]:
    step = orders.chosen_step(steps)
    extra = ""
    if cid is not None and any(s.do == "give" or (s.do == "discard" and s.who == "self") for s in steps):
        others = [c for c in f.hand if c != cid]
        if not others:
            return []
        extra = f" with {others[0]}"
    if step is None:
        return [(line + extra, None, kind)]
    return [(f"{line} on {_p(t, f)}{extra}", t, kind) for t in legal_targets(f, step)]


def _items_in_hand(f: Facts, cards: CardSet) -> list[str]:
    """The Items in the seat's hand (one entry per copy): ``place ITEM`` puts each on the
    character, free, before the Turn's Action."""
    return [c for c in f.hand if cards.cards[c].kind == "item"]


def _placed(f: Facts, placing: list[str]) -> Facts:
    """``f`` after ``place`` lines for ``placing``: those cards out of the hand, on the
    character (usable as this Turn's Action), as :func:`orders.validate` reads the file."""
    if not placing:
        return f
    hand = list(f.hand)
    for card in placing:
        hand.remove(card)
    return Facts(**{**f.__dict__, "hand": tuple(hand), "items": (*f.items, *placing)})


def _places(view: View) -> list[str]:
    pub = view.public
    out = ["office", "storehouse", "laboratory", "helipad"]
    if pub["mission"] is not None and not pub["mission_done"]:
        out.append("mission")
    return out


def _limit_lines(f: Facts, keep_order: Callable[[str], float]) -> list[str]:
    extra = len(f.hand) - orders.HAND_LIMIT
    if extra <= 0:
        return []
    worst = sorted(f.hand, key=keep_order)[:extra]
    return [f"discard {c}" for c in worst]


# ---------------------------------------------------------------------------- random


def random_bot(game: Any, view: View, rng: Rng) -> list[str]:
    """Uniform over the legal choices of each decision."""
    cards = load_cards()
    f = facts(view)
    q = f.ask
    if q is None:
        return []
    kind = q["kind"]
    if kind == "turn":
        placing = [c for c in sorted(_items_in_hand(f, cards)) if rng.coin()]
        f = _placed(f, placing)
        order = list(f.hand)
        rng.shuffle(order)
        lines = [f"place {c}" for c in placing] + _limit_lines(f, lambda c: order.index(c))
        left = list(f.hand)
        for line in lines[len(placing) :]:
            left.remove(line.split()[1])
        f2 = Facts(**{**f.__dict__, "hand": tuple(left)})
        options = _action_options(f2, view, cards)
        pick = rng.randbelow(len(options) + 1)
        if pick < len(options):
            lines.append(options[pick][0])
        places = _places(view)
        lines.append(f"move {rng.choice(places)}" if rng.coin() else "stay")
        return _checked(view, lines)
    return _checked(view, _random_answer(f, view, rng, cards))


def _random_answer(f: Facts, view: View, rng: Rng, cards: CardSet) -> list[str]:
    q = f.ask or {}
    kind = q["kind"]
    priv = f.private_ask
    if kind in ("keep", "give", "discard"):
        pool = list(priv.get("cards") or priv.get("hand") or [])
        want = q.get("keep", q.get("count", 1))
        if q.get("may_discard") and rng.coin():
            return ["keep none"]
        return [f"{kind} {', '.join(rng.sample(pool, min(want, len(pool))))}"]
    if kind == "leave":
        cards_ = priv.get("cards", [])
        if q.get("may_discard") and rng.coin():
            return ["leave none"]
        return [f"leave {rng.choice(cards_)}"]
    if kind == "first":
        return [f"first {rng.choice(priv.get('cards', []))}"]
    if kind == "target":
        return [f"target {_p(rng.choice(q['choices']), f)}"]
    if kind == "option":
        return [f"option {rng.choice(q['choices'])}"]
    if kind == "token":
        tokens = priv.get("tokens", [])
        if not tokens:  # Unknown Infections: asked even when carrying none
            return ["return none"]
        return [f"return {', '.join(_p(t, f) for t in rng.sample(tokens, min(q['count'], len(tokens))))}"]
    if kind == "location":
        return [f"to {rng.choice(q['choices'])}"]
    if kind == "escape":
        return ["escape" if rng.coin() else "stay behind"]
    if kind == "dog-escape":
        return ["dog escapes" if rng.coin() else "dog stays"]
    if kind == "window":
        playable = [c for c in set(f.hand) if cards.cards[c].trigger == q["trigger"]]
        if playable and rng.coin():
            return [f"play {sorted(playable)[0]}"]
        return ["pass"]
    return []


# ---------------------------------------------------------------------------- greedy


def _value(cards: CardSet, cid: str) -> float:
    info = cards.cards[cid]
    return {"interrupt": 4.0, "item": 3.5, "action": 2.0, "reaction": 1.5, "event": 0.0}.get(info.icon, 1.0)


def _enemies(view: View, f: Facts, my_side: str, cards: CardSet) -> tuple[set[int], set[int]]:
    """(known enemies, known friends) from Test Results and revealed cards."""
    enemies: set[int] = set()
    friends: set[int] = set()
    for seat_text, side in view.private.get("tests", {}).items():
        (friends if side == my_side else enemies).add(int(seat_text))
    for seat, card in enumerate(view.public["revealed"]):
        if card is not None and seat != f.seat:
            (friends if cards.infections[card].side == my_side else enemies).add(seat)
    return enemies, friends


def greedy_bot(game: Any, view: View, rng: Rng) -> list[str]:
    """Plays for its side's Win conditions with what it has learnt."""
    cards = load_cards()
    f = facts(view)
    q = f.ask
    if q is None:
        return []
    priority = view.private.get("priority")
    my_side = cards.infections[priority].side if priority else "human"
    lines: list[str] = []
    filed = {r["card"] for r in view.private.get("reactions", [])}
    for cid in sorted(set(f.hand)):
        if cards.cards[cid].icon in ("reaction", "interrupt") and cid not in filed:
            lines.append(f"react {cid}")
    if view.private.get("prefer") is None:
        lines.append("prefer interrupt item action reaction")
    kind = q["kind"]
    enemies, friends = _enemies(view, f, my_side, cards)
    if kind == "turn":
        lines += _greedy_turn(view, f, cards, my_side, enemies, friends, rng)
    elif kind == "escape":
        lines.append("escape" if _wants_escape(view, f, cards, priority) else "stay behind")
    elif kind == "dog-escape":
        lines.append("dog escapes" if my_side == "human" else "dog stays")
    elif kind == "target":
        choices = q["choices"]
        verb = q.get("verb")
        hostile = verb in ("distress", "kill", "discard", "infect", "steal")
        good = (
            [c for c in choices if (c in enemies) == hostile and c != f.seat]
            if hostile
            else [c for c in choices if c in friends or c == f.seat]
        )
        lines.append(f"target {_p((good or choices)[0], f)}")
    else:
        answer = _random_answer(f, view, rng, cards)
        if kind in ("keep", "discard", "give"):
            pool = list(f.private_ask.get("cards") or f.private_ask.get("hand") or [])
            want = q.get("keep", q.get("count", 1))
            best = sorted(pool, key=lambda c: _value(cards, c), reverse=(kind == "keep"))[:want]
            answer = [f"{kind} {', '.join(best)}"] if best else answer
        elif kind == "leave":
            pool = f.private_ask.get("cards", [])
            missions = [c for c in pool if cards.cards[c].kind == "mission"]
            answer = [f"leave {(missions or pool)[0]}"] if pool else answer
        elif kind == "window":
            playable = [c for c in set(f.hand) if cards.cards[c].trigger == q["trigger"]]
            answer = [f"play {sorted(playable)[0]}"] if playable else ["pass"]
        lines += answer
    return _checked(view, lines)


def _greedy_turn(
    view: View, f: Facts, cards: CardSet, my_side: str, enemies: set[int], friends: set[int], rng: Rng
) -> list[str]:
    placing = sorted(_items_in_hand(f, cards))  # an Item is of use only on the character
    f = _placed(f, placing)
    lines = [f"place {c}" for c in placing] + _limit_lines(f, lambda c: _value(cards, c))
    left = list(f.hand)
    for line in lines[len(placing) :]:
        left.remove(line.split()[1])
    f2 = Facts(**{**f.__dict__, "hand": tuple(left)})
    options = _action_options(f2, view, cards)
    best: tuple[float, str] | None = None
    for line, target, kind in options:
        score = _score(view, f2, cards, line, target, kind, my_side, enemies, friends)
        if score > 0 and (best is None or score > best[0]):
            best = (score, line)
    if best is not None:
        lines.append(best[1])
    lines.append(_greedy_move(view, f, cards, my_side, enemies))
    return lines


def _score(
    view: View,
    f: Facts,
    cards: CardSet,
    line: str,
    target: int | None,
    kind: str,
    my_side: str,
    enemies: set[int],
    friends: set[int],
) -> float:
    pub = view.public
    words = line.split()
    cid = words[1] if kind.startswith(("play:", "use:")) else None
    steps: tuple[Step, ...] = ()
    if cid is not None:
        info = cards.cards[cid]
        steps = info.use if kind.startswith("use:") else info.effects
    verbs = {s.do for s in steps}
    hostile = bool(verbs & {"distress", "kill", "steal", "discard"}) or kind == "distress"
    if kind == "infection":
        return 0.5 if my_side == "parasite" and target in enemies else 0.0
    if hostile:
        if target is None:
            return 0.0
        if target in enemies:
            return 5.0 + (2.0 if pub["health"][target] == "distressed" else 0.0)
        if my_side == "parasite" and target not in friends and pub["health"][target] == "distressed":
            return 3.0
        return 0.0
    if "heal" in verbs or kind == "pet":
        who = target if target is not None else f.seat
        if pub["health"][who] == "distressed" and (who == f.seat or who in friends):
            return 4.0
        return 0.0
    if "test" in verbs:
        return 3.0 if target is not None and target not in enemies | friends else 0.0
    if verbs & {"draw", "draw-keep", "look-deck"}:
        return 1.0
    if "pass-leader" in verbs:
        return 0.5 if target in (f.seat, None) else 0.0
    return 0.2 if kind == "ability" else 0.0


def _greedy_move(view: View, f: Facts, cards: CardSet, my_side: str, enemies: set[int]) -> str:
    pub = view.public
    if pub["mission"] is not None and not pub["mission_done"]:
        need = cards.cards[pub["mission"]].needed(pub["players"])
        on = sum(1 for p, loc in enumerate(pub["loc"]) if loc == "mission" and pub["health"][p] != "dead")
        if on < need and (my_side == "human" or on + 1 >= need):
            return "move mission"
    here = f.loc[f.seat]
    if (
        here in ("office", "storehouse", "laboratory")
        and pub["decks"][here] > 0
        and not set(f.here()) & enemies
    ):
        return "stay"
    choices = [d for d in ("laboratory", "storehouse", "office") if pub["decks"][d] > 0]
    safe = [d for d in choices if not any(pub["loc"][e] == d for e in enemies)]
    pick = (safe or choices or ["helipad"])[0]
    return f"move {pick}"


def _wants_escape(view: View, f: Facts, cards: CardSet, priority: str | None) -> bool:
    if priority is None:
        return True
    inf = cards.infections[priority]
    words = {c.word for c in inf.win}
    lose = {c.word for c in inf.lose}
    if "escaped" in lose:
        return False
    if "stayed" in words:
        return False
    if "carrying-parasite-token" in lose:
        enemies, _ = _enemies(view, f, inf.side, cards)
        tokens = (
            view.public["tokens"][f.seat]
            if view.public["tokens"] is not None
            else view.private.get("tokens", [])
        )
        if set(tokens) & enemies:
            return False
    return (
        "escaped" in words
        or "parasite-escaped" in words
        or "your-token-escaped" in words
        or "humans-escaped" in words
    )


BOTS: Mapping[str, Callable[[Any, View, Rng], list[str]]] = {"random": random_bot, "greedy": greedy_bot}
