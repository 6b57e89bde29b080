"""What a reader sees of a Symbioz state, and the texts made from a view.

Symbioz has no hidden information: every pawn on the board, every supply and every
Symbioz is public.  :func:`observe` still builds the view as an allow-list (fresh copies of
named facts), so nothing added to the state later (such as the engine's bookkeeping) can
leak into a report by accident.  The private part is always empty.
"""

from __future__ import annotations

from typing import Any

from pbem.game import View
from pbem.render import render
from pbem_games.symbioz.board import BY_NAME, adjacency
from pbem_games.symbioz.state import (
    COLOURS,
    PAWNS,
    SATURATION,
    TURNS,
    State,
    colour_name,
    cost,
    play_order,
    symbioz_counts,
    symbioz_to_win,
    zerbs_on_board,
)

GAME_NAME = "symbioz"


def observe(state: State, seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (None: the public); identical public part for all."""
    players: int = state["players"]
    squares = list(state["squares"])
    public = {
        "players": players,
        "colours": list(COLOURS[:players]),
        "options": {name: state["options"][name] for name in sorted(state["options"])},
        "squares": squares,
        "turn": state["turn"],
        "turns": TURNS,
        "first": state["first"],
        "play_order": list(play_order(players, state["first"])),
        "target": symbioz_to_win(players, state["options"]),
        "zerbs": {sq: list(state["zerbs"][sq]) for sq in squares},
        "crapits": {sq: list(state["crapits"][sq]) for sq in squares},
        "kroguls": {sq: list(state["kroguls"][sq]) for sq in squares},
        "symbioz": {sq: int(owner) for sq, owner in state["symbioz"].items()},
        "supply": {pawn: list(state["supply"][pawn]) for pawn in PAWNS},
        "over": bool(state["over"]),
        "winners": list(state["winners"]),
        "result": str(state["result"]),
    }
    return View(game=GAME_NAME, seat=seat, public=public, private={})


def _cell(pub: dict[str, Any], sq: str, seat: int) -> str:
    z, c, k = pub["zerbs"][sq][seat], pub["crapits"][sq][seat], pub["kroguls"][sq][seat]
    if not (z or c or k):
        return "."
    return f"{z or '-'}/{c or '-'}/{k or '-'}"


def table(pub: dict[str, Any]) -> list[list[str]]:
    """Rows of the board table: square, one Zerbs/Crapits/Kroguls cell per colour, notes."""
    rows = []
    for sq in pub["squares"]:
        if sq in pub["symbioz"]:
            rows.append([sq] + [""] * pub["players"] + [f"SYMBIOZ {colour_name(pub['symbioz'][sq])}"])
            continue
        total = sum(pub["zerbs"][sq])
        if not (total or sum(pub["crapits"][sq]) or sum(pub["kroguls"][sq])):
            continue
        notes = []
        if BY_NAME[sq].fertile:
            notes.append("fertile")
        if total >= SATURATION:
            notes.append("saturated")
        rows.append([sq] + [_cell(pub, sq, s) for s in range(pub["players"])] + [", ".join(notes)])
    return rows


def describe(view: View) -> tuple[str, str]:
    """(public text, private text) of a report: a compact table for the mail body."""
    pub = view.public
    players = pub["players"]
    symbioz, zerbs = symbioz_counts(pub), zerbs_on_board(pub)
    text = render(
        "symbioz/report.txt.j2",
        pub=pub,
        names=[colour_name(s) for s in range(players)],
        order=", ".join(colour_name(s) for s in pub["play_order"]),
        rows=table(pub),
        symbioz=symbioz,
        zerbs=zerbs,
        costs={p: cost(pub["options"], p) for p in PAWNS},
        seat=view.seat,
    )
    private = "" if view.seat is None else f"You play {colour_name(view.seat)}.\n"
    return text, private


def order_form(view: View) -> list[str]:
    """A blank order file for ``view.seat``: what may be written this turn, with examples."""
    pub = view.public
    seat = view.seat
    if pub["over"] or seat is None:
        return ["# The game is over: no orders."]
    adj = adjacency(tuple(pub["squares"]))
    opts = pub["options"]
    me = colour_name(seat)
    lines = [
        f"# Symbioz, turn {pub['turn']} of {pub['turns']}: orders for {me}.",
        "# Every line is optional; what you leave out is chosen by the automatic defaults.",
        "# After 'else' list squares to try next, then 'any' (automatic, the default) or 'none'.",
    ]
    mine = [sq for sq in pub["squares"] if pub["zerbs"][sq][seat] and sq not in pub["symbioz"]]
    if pub["turn"] == 1:
        lines.append("# Turn 1: no introduction phase (nothing to buy).")
    else:
        buyable = [sq for sq in mine if opts["buy_in_fertile"] or not BY_NAME[sq].fertile]
        supply = ", ".join(f"{pub['supply'][p][seat]} {p}s" for p in PAWNS)
        lines += [
            f"# 1. Introduction: {opts['points']} points; zerb {opts['zerb_cost']},"
            f" crapit {opts['crapit_cost']}, krogul {opts['krogul_cost']}. In supply: {supply}.",
            "#    Only into squares holding your Zerbs: " + (" ".join(buyable) or "none") + ".",
        ]
        if buyable:
            lines.append(f"# buy 2 zerbs {buyable[0]} else any")
    lines.append("# 2. Multiplication (4 Zerbs give 1 newborn, 3 in a fertile square):")
    for sq in mine:
        n = pub["zerbs"][sq][seat]
        births = n // (3 if BY_NAME[sq].fertile else 4)
        near = " ".join(adj[sq])
        lines.append(f"#    {sq}: {n} Zerbs, {births} newborn(s) now; may grow into {sq} {near}")
    if mine:
        lines.append(f"# grow {mine[0]} prefer {' '.join((*adj[mine[0]], mine[0]))}")
    for kind in ("krogul", "crapit"):
        where = [sq for sq in pub["squares"] if pub[kind + "s"][sq][seat]]
        if where:
            others = [c for i, c in enumerate(pub["colours"]) if i != seat]
            lines.append(f"# {kind.capitalize()}s in {' '.join(where)}, e.g.:")
            lines.append(f"# {kind} {where[0]} eat {' '.join(others)} -> {where[0]}")
    return lines
