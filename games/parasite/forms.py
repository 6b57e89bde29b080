"""Parasite order forms and civil-disorder orders, from a seat's view only.

The form lists what the seat may do now and nothing else: every order line it shows (as a
comment) is checked by :func:`games.parasite.orders.validate` against the same view before
it is listed, so a line copied from the form passes ``pbem check``.  Each card is shown with
its text.  The form ends with a safe set of orders left uncommented (the civil-disorder
orders of :func:`default_orders`), so a form returned untouched is valid too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.game import OrderErrors, OrderLine, View

from .cards import CardSet, load_cards
from .orders import Facts, action_steps, chosen_step, facts, legal_targets, validate
from .report import card_line, infection_line, place, question_text, trigger_text, who

MOVES = ("office", "storehouse", "laboratory", "helipad", "mission")


def _ok(view: View, lines: Sequence[str]) -> bool:
    """Whether ``lines`` as a whole file pass the order check on ``view``."""
    try:
        validate(view, [OrderLine(i, text) for i, text in enumerate(lines, 1)])
    except OrderErrors:
        return False
    return True


def _player(seat: int, n: int, chars: Sequence[str]) -> str:
    """A seat as an order line names it: its character (``medic``), or ``dog``; pbem never
    rewrites a character, while it puts names in for "player N" in comments."""
    if seat == n:
        return "dog"
    return chars[seat] if seat < len(chars) else f"player {seat + 1}"


def _shown(seat: int, n: int, chars: Sequence[str]) -> str:
    """A seat in a comment: the word to write, then whose it is (pbem puts the name in)."""
    word = _player(seat, n, chars)
    return word if seat == n or word.startswith("player") else f"{word} (player {seat + 1})"


def _targets(view: View, prefix: Sequence[str], line: str, pool: Sequence[int], n: int) -> list[int]:
    """The seats of ``pool`` for which ``line + " on <seat>"`` is a legal order now."""
    chars = view.public["chars"]
    return [p for p in pool if _ok(view, [*prefix, f"{line} on {_player(p, n, chars)}", "stay"])]


def _limit_keeping(hand: Sequence[str], count: int, keep: str) -> list[str]:
    """``count`` hand-limit discards that leave ``keep`` in the hand (when it can stay)."""
    rest = list(hand)
    rest.remove(keep)
    return [f"discard {c}" for c in rest[:count]]


def _action_lines(view: View, f: Facts, cards: CardSet, limit: Sequence[str]) -> list[str]:
    """The Actions open to the seat after hand-limit lines (``limit``, or for a card to play,
    discards of other cards), each with its text."""
    chars = view.public["chars"]
    n = f.n
    out: list[str] = []
    candidates: list[tuple[str, str, str, str | None]] = []
    # (order line, text shown, kind for action_steps, card)
    for cid in sorted(set(f.hand)):
        if cards.cards[cid].icon == "action":
            candidates.append((f"play {cid}", card_line(cid, cards), "play", cid))
    for cid in sorted(set(f.items)):
        if cards.cards[cid].use:
            candidates.append((f"use {cid}", card_line(cid, cards), "use", cid))
    char = cards.character(view.public["chars"][f.seat])
    side = char.healthy if f.health == "healthy" else char.distressed
    candidates.append(("ability", f"your {char.role}'s {f.health} side: {side.text}", "ability", None))
    priority: str | None = view.private.get("priority")
    if priority:
        candidates.append(
            ("reveal", f"your Infection card: {infection_line(priority, cards)}", "infection", None)
        )
    for line, text, kind, card_id in candidates:
        prefix = list(limit)
        steps: Any = ()
        if kind == "ability":
            steps = side.ability.effects if side.ability else ()
        else:
            found = action_steps(f, cards, kind, card_id, priority)
            steps = () if isinstance(found, str) else found
        if kind == "play" and card_id is not None:
            prefix = _limit_keeping(f.hand, len(prefix), card_id)
        step = chosen_step(steps)
        if step is not None:
            pool = legal_targets(f, step)
            ok = _targets(view, prefix, line, pool, n)
            if not ok:
                continue
            shown = f"{line} on PLAYER: {', '.join(_shown(p, n, chars) for p in ok)}"
        else:
            if not _ok(view, [*prefix, line, "stay"]):
                continue
            shown = line
        if kind == "play" and card_id is not None and any(s.do in ("give", "discard") for s in steps):
            shown += " [with CARD]"
        if "to LOCATION" not in shown and any(s.do == "move" and s.to == "any" for s in steps):
            shown += " [to LOCATION]"
        if any(s.do == "choose" for s in steps):
            shown += " [option K]"
        out.append(f"#   {shown}")
        out.append(f"#       {text}")
    prefix = list(limit)
    here = [p for p in f.here() if p < n]
    distress = [p for p in here if _ok(view, [*prefix, f"distress {_player(p, n, chars)}", "stay"])]
    if distress:
        out.append(f"#   distress PLAYER: {', '.join(_shown(p, n, chars) for p in distress)}")
        out.append("#       make another player in your Location Distressed (a Distressed one dies)")
    if _ok(view, [*prefix, "pet dog", "stay"]):
        out.append("#   pet dog")
        out.append(f"#       the Healthy Dog here: {cards.dog.healthy.text}")
    return out


def _turn_form(view: View, f: Facts, cards: CardSet) -> list[str]:
    chars = view.public["chars"]
    n = f.n
    lines: list[str] = []
    at_end = view.public["options"].get("hand-limit", "start-of-turn") == "end-of-turn"
    limit = 0 if at_end else max(0, len(f.hand) - 3)
    prefix = [f"discard {c}" for c in f.hand[:limit]]
    lines.append(f"# Your hand ({len(f.hand)}):" if f.hand else "# Your hand is empty.")
    lines += [f"#   {card_line(c, cards)}" for c in f.hand]
    if f.items:
        lines.append("# Your Items:")
        lines += [f"#   {card_line(c, cards)}" for c in f.items]
    step = 1
    in_hand = sorted({c for c in f.hand if cards.cards[c].kind == "item"})
    if in_hand:
        lines.append(f"# {step}. Items in your hand may be placed on your character first (free):")
        lines.append("#   " + " | ".join(f"place {c}" for c in in_hand))
        lines.append("#   (an Item placed no longer counts as a hand card; use it as your Action)")
        step += 1
    if limit:
        here = [p for p in f.here() if p < n]
        give = f"give CARD to PLAYER: {', '.join(_shown(p, n, chars) for p in here)}" if here else ""
        lines.append(f"# {step}. Hand limit: you hold {len(f.hand)} cards; {limit} line(s), each one of")
        lines.append("#   discard CARD" + (f" | {give}" if give else ""))
        lines.append("#   (keep the card you mean to play for your Action)")
        step += 1
    actions = _action_lines(view, f, cards, prefix)
    if actions:
        lines.append(f"# {step}. At most one Action (optional), one of:")
        lines += actions
    else:
        lines.append(f"# {step}. No Action is open to you now.")
    step += 1
    moves = [m for m in MOVES if m != f.loc[f.seat] and _ok(view, [*prefix, f"move {m}"])]
    lines.append(f"# {step}. Movement (optional): stay, or one of")
    lines.append("#   " + " | ".join(f"move {m}" for m in moves))
    lines.append("#   Then you activate where you stand: Office, Storehouse, Laboratory:")
    lines.append("#   draw 2 keep 1; Helipad: look at 2, leave 1; Mission: nothing.")
    if at_end:
        lines.append(f"# {step + 1}. At the end of your Turn, the hand limit of 3: discard or give")
        lines.append("#   the rest; name them now (discard CARD | give CARD to PLAYER, who")
        lines.append("#   must be in your Location then), or you are asked which to discard.")
    return lines


def _answer_form(view: View, f: Facts, cards: CardSet) -> list[str]:
    """The lines that answer a question other than a Turn: every legal answer, listed."""
    chars = view.public["chars"]
    q = f.ask or {}
    kind = q.get("kind")
    priv = f.private_ask
    n = f.n
    lines: list[str] = []
    if kind in ("keep", "give", "discard"):
        pool = list(priv.get("cards") or priv.get("hand") or [])
        want = q.get("keep", q.get("count", 1))
        lines.append(f"# The cards ({'drawn' if kind == 'keep' else 'your hand'}):")
        lines += [f"#   {card_line(c, cards)}" for c in pool]
        lines.append(f"# Answer with one line naming {want} of them, by id, commas between:")
        lines.append(f"#   {kind} {', '.join(pool[:want])}")
        if q.get("may_discard"):
            lines.append(f"#   {kind} none      (discard it)")
    elif kind == "leave":
        pool = list(priv.get("cards", []))
        lines.append("# The top Helipad cards (the first is on top):")
        lines += [f"#   {card_line(c, cards)}" for c in pool]
        lines.append("# Answer with one line: leave CARD on top, the other is discarded:")
        lines += [f"#   leave {c}" for c in pool]
        if q.get("may_discard"):
            lines.append("#   leave none      (discard it)")
    elif kind == "first":
        pool = list(priv.get("cards", []))
        lines.append("# The Events you drew, waiting to resolve:")
        lines += [f"#   {card_line(c, cards)}" for c in pool]
        lines.append("# Answer with one line: which resolves first (you are asked again for the rest):")
        lines += [f"#   first {c}" for c in dict.fromkeys(pool)]
    elif kind == "target":
        lines.append("# Answer with one line, one of:")
        lines += [f"#   target {_shown(p, n, chars)}" for p in q.get("choices", [])]
    elif kind == "option":
        lines.append("# Answer with one line, one of (the options in the order the card gives them):")
        lines += [f"#   option {k}" for k in q.get("choices", [])]
    elif kind == "token":
        tokens = priv.get("tokens", [])
        lines.append(f"# Give back {q.get('count', 1)} token(s), one line, commas between; you carry:")
        lines += [f"#   return {_shown(t, n, chars)}" for t in tokens]
        if len(tokens) <= q.get("count", 1):
            lines.append("#   return none      (all you carry goes back; you may carry none)")
    elif kind == "location":
        lines.append("# Answer with one line, one of:")
        lines += [f"#   to {c}" for c in q.get("choices", [])]
    elif kind == "escape":
        priority = view.private.get("priority")
        if priority:
            lines.append(f"# Your Infection card: {infection_line(priority, cards)}")
        escaped = ", ".join(who(s, n) for s in q.get("escaped", [])) or "nobody yet"
        lines.append(f"# Escaped so far: {escaped}.  Answer with one line, one of:")
        lines += ["#   escape", "#   stay behind"]
    elif kind == "dog-escape":
        lines.append("# The Dog Escapes if the Leader or the Dog Lover says so; everyone is asked.")
        lines.append("# Answer with one line, one of:")
        lines += ["#   dog escapes", "#   dog stays"]
    elif kind == "window":
        lines += _window_form(view, f, cards)
    return lines


def _window_form(view: View, f: Facts, cards: CardSet) -> list[str]:
    q = f.ask or {}
    moment = "Interrupt" if q.get("moment") == "before" else "Reaction"
    lines = [
        f"# A window for {moment}s: {trigger_text(q, f.n)}.",
        "# Every living player is asked, whatever they hold.  Answer 'pass', or play one:",
    ]
    playable = []
    for cid in sorted(set(f.hand)):
        card = cards.cards[cid]
        if card.trigger == q.get("trigger") and card.icon == moment.lower():
            playable.append(cid)
            lines.append(f"#   play {cid} [on PLAYER]")
            lines.append(f"#       {card_line(cid, cards)}")
    if _ok(view, ["ability"]):
        lines.append("#   ability      (your character's triggered ability, if it answers this)")
    if _ok(view, ["infection"]):
        lines.append("#   infection    (your Infection card's triggered ability, if it answers this)")
    if not playable:
        lines.append("#   (no card in your hand answers it)")
    return lines


def _standing_form(view: View, f: Facts, cards: CardSet) -> list[str]:
    """Standing orders: what the seat may file with any order file."""
    n = f.n
    lines = ["# Standing orders (any file; kept until used or withdrawn):"]
    react = sorted({c for c in f.hand if cards.cards[c].icon in ("reaction", "interrupt")})
    if react:
        lines.append("#   react CARD [on PLAYER] [if PLAYER...] [for PLAYER...]")
        lines.append("#     (if: only against them; for: only to protect them)")
        lines.append("#   your Reactions and Interrupts:")
        for cid in react:
            lines.append(f"#     react {cid}")
            lines.append(f"#       {card_line(cid, cards)}")
    else:
        lines.append("#   react CARD [on PLAYER] [if PLAYER...] [for PLAYER...]")
        lines.append("#     (no Reaction or Interrupt in your hand)")
    mine = view.private.get("reactions") or []
    if mine:
        filed = ", ".join(str(r["card"]) for r in mine)
        lines.append(f"#   withdraw CARD | withdraw all   (filed now: {filed})")
    lines.append("#   prefer WORD...   keep from an activation: card ids or icons, best first")
    lines.append("#   prefer ask       ask me every time")
    del n
    return lines


def order_form(view: View) -> list[str]:
    """The form for the seat's question now: the situation, every legal order (comments),
    standing orders, and safe default orders (uncommented) that pass the check as they are."""
    cards = load_cards()
    f = facts(view)
    pub = view.public
    if f.ask is None:
        if pub["over"]:
            return ["# Parasite: the game is over; there is nothing to order."]
        ask = pub.get("ask")
        now = "" if ask is None else f" Awaited: {question_text(ask['question'], ask['seats'], f.n)}."
        return [f"# Parasite: no orders are awaited from you now.{now}"]
    kind = f.ask["kind"]
    me = f"{who(f.seat, f.n)}, {f.health.capitalize()}, {place(f.loc[f.seat])}"
    lines = [
        f"# Parasite, round {pub['round']} ({me}).",
        f"# You are asked: {question_text(f.ask, [f.seat], f.n)}.",
    ]
    if kind == "turn":
        lines += _turn_form(view, f, cards)
    else:
        lines += _answer_form(view, f, cards)
    lines += _standing_form(view, f, cards)
    lines.append("# Your orders (safe defaults; change them):")
    lines += default_orders(view)
    return lines


def default_orders(view: View) -> list[str]:
    """Orders for a silent seat: the hand limit by discards, no Action, stay, the first
    choice of any question, Stay behind at the end, pass in a reaction window."""
    chars = view.public["chars"]
    f = facts(view)
    q = f.ask
    if q is None:
        return []
    kind = q["kind"]
    private = f.private_ask
    if kind == "turn":
        return [f"discard {c}" for c in f.hand[: max(0, len(f.hand) - 3)]] + ["stay"]
    if kind in ("keep", "give", "discard"):
        pool = list(private.get("cards") or private.get("hand") or [])
        want = q.get("keep", q.get("count", 1))
        return [f"{kind} {', '.join(pool[:want])}"]
    if kind == "leave":
        return [f"leave {private.get('cards', [''])[0]}"]
    if kind == "first":
        return [f"first {private['cards'][0]}"]
    if kind == "target":
        return [f"target {_player(q['choices'][0], f.n, chars)}"]
    if kind == "option":
        return [f"option {q['choices'][0]}"]
    if kind == "token":
        tokens = private.get("tokens", [])[: q.get("count", 1)]
        return [f"return {', '.join(_player(t, f.n, chars) for t in tokens)}" if tokens else "return none"]
    if kind == "location":
        return [f"to {q['choices'][0]}"]
    if kind == "escape":
        return ["stay behind"]
    if kind == "dog-escape":
        return ["dog stays"]
    return ["pass"]
