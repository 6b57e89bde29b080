"""Parasite order forms and civil-disorder orders, from a seat's view only."""

from __future__ import annotations

from pbem.game import View

from .cards import load_cards
from .orders import facts


def order_form(view: View) -> list[str]:
    """A blank form: what the seat is asked, the choices, and the syntax (commented)."""
    cards = load_cards()
    f = facts(view)
    q = f.ask
    if q is None:
        return ["# No orders are awaited from you now."]
    kind = q["kind"]
    lines = [f"# Parasite, round {view.public['round']}: you are asked: {kind}."]
    if kind == "turn":
        lines.append(f"# Your hand: {', '.join(f.hand) or 'empty'}; Items: {', '.join(f.items) or 'none'}.")
        if len(f.hand) > 3:
            lines.append(f"# Hand limit: discard CARD or give CARD to player N, {len(f.hand) - 3} line(s).")
        lines.append("# One Action (optional): play CARD [on player N] [to LOCATION] [option K] [with CARD],")
        lines.append(
            "#   use ITEM [on player N], ability [on player N], reveal [on player N], distress player N"
        )
        for cid in sorted(set(f.hand)):
            info = cards.cards[cid]
            lines.append(f"#   {cid} ({info.icon}): {info.text}")
        lines.append("# Movement (optional): move office|storehouse|laboratory|helipad|mission, or stay")
    else:
        private = f.private_ask
        if private.get("cards"):
            lines.append(f"# The cards: {', '.join(private['cards'])}")
        if private.get("hand"):
            lines.append(f"# Your hand: {', '.join(private['hand'])}")
        if q.get("choices"):
            lines.append(f"# Choices: {', '.join(str(c) for c in q['choices'])}")
    lines.append(
        "# Standing orders, any time: react CARD [on player N], withdraw CARD, prefer WORD..., prefer ask"
    )
    lines += [f"# {line}" if not line.startswith("#") else line for line in default_orders(view)]
    return lines


def default_orders(view: View) -> list[str]:
    """Orders for a silent seat: the hand limit by discards, no Action, stay, the first
    choice of any question, Stay behind at the end."""
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
    if kind == "target":
        return [f"target player {q['choices'][0] + 1}" if q["choices"][0] < f.n else "target dog"]
    if kind == "option":
        return [f"option {q['choices'][0]}"]
    if kind == "token":
        return [f"return player {private['tokens'][0] + 1}" if private["tokens"][0] < f.n else "return dog"]
    if kind == "location":
        return [f"to {q['choices'][0]}"]
    if kind == "escape":
        return ["stay behind"]
    if kind == "dog-escape":
        return ["dog stays"]
    return ["pass"]
