"""What ``pbem archive`` asks of Parasite (the optional hooks of :class:`pbem.game.Archived`):
the counts charted over the turns, and validated orders written back as order lines.

Charts are read from the view they are given and nothing else, so a chart shows only what
its reader could see: health and hand sizes are public; the tokens a player carries are
public too, except under Unknown Infections, where a view shows only its own player's count
until the end.
"""

from __future__ import annotations

from typing import Any

from pbem.game import JSON, Chartable, View

HEALTH = "Health (2 Healthy, 1 Distressed, 0 dead)"
TOKENS = "Infection tokens carried"
HAND = "Hand cards"
_HEALTH_VALUE = {"healthy": 2, "distressed": 1, "dead": 0}


def charts(game: object, view: View) -> Chartable:
    """Health, tokens carried and hand sizes per player, as far as ``view`` shows them."""
    pub = view.public
    n = pub["players"]
    out: dict[str, dict[int, int]] = {
        HEALTH: {p: _HEALTH_VALUE.get(pub["health"][p], 0) for p in range(n)},
        HAND: {p: int(pub["hand_sizes"][p]) for p in range(n)},
    }
    if pub["tokens"] is not None:
        out[TOKENS] = {p: len(pub["tokens"][p]) for p in range(n)}
    elif view.seat is not None and "tokens" in view.private:
        out[TOKENS] = {view.seat: len(view.private["tokens"])}
    return out


def _who(seat: int, pub: dict[str, Any]) -> str:
    """A seat as order lines name it: the character (``dog`` for the Dog)."""
    return "dog" if seat == pub["players"] else str(pub["chars"][seat])


def _clauses(entry: dict[str, Any], pub: dict[str, Any]) -> list[str]:
    words: list[str] = []
    if entry.get("target") is not None:
        words += ["on", _who(entry["target"], pub)]
    if entry.get("to") is not None:
        words += ["to", entry["to"]]
    if entry.get("option") is not None:
        words += ["option", str(entry["option"] + 1)]
    if entry.get("cards"):
        words += ["with", entry["cards"][0]]
    return words


def _action(act: dict[str, Any], pub: dict[str, Any]) -> str:
    kind = act["type"]
    if kind == "distress":
        return f"distress {_who(act['target'], pub)}"
    if kind == "pet":
        return "pet dog"
    head = {"infection": ["reveal"], "ability": ["ability"]}.get(kind, [kind, act.get("card", "")])
    return " ".join([*head, *_clauses(act, pub)])


def _standing(orders: dict[str, Any], pub: dict[str, Any]) -> list[str]:
    out = [f"withdraw {what}" for what in orders.get("withdraw", ())]
    for entry in orders.get("react", ()):
        words = ["react", entry["card"], *_clauses(entry, pub)]
        if entry.get("from"):
            words += ["if", ", ".join(_who(p, pub) for p in entry["from"])]
        if entry.get("for"):
            words += ["for", ", ".join(_who(p, pub) for p in entry["for"])]
        out.append(" ".join(words))
    if "prefer" in orders:
        out.append("prefer " + (" ".join(orders["prefer"]) if orders["prefer"] else "ask"))
    return out


def _answer(orders: dict[str, Any], pub: dict[str, Any]) -> list[str]:
    kind = orders.get("kind")
    if kind in ("keep", "give", "discard"):
        return [f"{kind} {', '.join(orders.get('cards', ())) or 'none'}"]
    if kind == "leave":
        return [f"leave {orders.get('card') or 'none'}"]
    if kind == "first":
        return [f"first {orders.get('card')}"]
    if kind == "target":
        return [f"target {_who(orders['seat'], pub)}"]
    if kind == "option":
        return [f"option {orders['option']}"]
    if kind == "token":
        tokens = orders.get("tokens", ())
        return [f"return {', '.join(_who(t, pub) for t in tokens)}" if tokens else "return none"]
    if kind == "location":
        return [f"to {orders['to']}"]
    if kind == "escape":
        return ["escape" if orders.get("escape") else "stay behind"]
    if kind == "dog-escape":
        return ["dog escapes" if orders.get("escape") else "dog stays"]
    plays = orders.get("plays", ())
    if not plays:
        return ["pass"]
    out = []
    for entry in plays:
        head = [entry["card"]] if entry["card"] in ("ability", "infection") else ["play", entry["card"]]
        out.append(" ".join([*head, *_clauses(entry, pub)]))
    return out


def order_lines(game: object, view: View, orders: JSON) -> list[str]:
    """Orders as :func:`orders.validate` returned them for ``view``, written back as the order
    lines a player could have written (validating them again gives the same orders)."""
    pub = view.public
    if not isinstance(orders, dict):
        return []
    lines = _standing(orders, pub)
    if orders.get("kind") != "turn":
        return lines + _answer(orders, pub)
    lines += [f"place {card}" for card in orders.get("place", ())]
    for entry in orders.get("limit", ()):
        if entry.get("to") is not None:
            lines.append(f"give {entry['card']} to {_who(entry['to'], pub)}")
        else:
            lines.append(f"discard {entry['card']}")
    lines += [_action(act, pub) for act in orders.get("actions", ())]
    lines.append(f"move {orders['move']}" if orders.get("move") else "stay")
    return lines
