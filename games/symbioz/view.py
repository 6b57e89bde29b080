"""What a reader sees of a Symbioz state, and the texts made from a view.

Symbioz has no hidden information: every pawn on the board, every supply and every
Symbioz is public.  :func:`observe` still builds the view as an allow-list (fresh copies of
named facts), so nothing added to the state later (such as the engine's bookkeeping) can
leak into a report by accident.  The private part is always empty.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pbem.game import View
from pbem.render import render
from pbem.wording import WIDTH, counted

from .board import BY_NAME, adjacency
from .rounds import has_choice, phase_title
from .state import (
    COLOURS,
    PAWNS,
    SATURATION,
    TURNS,
    State,
    births,
    buy_limit,
    buyable_squares,
    colour_name,
    cost,
    options_of,
    phase_rounds,
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
        "options": dict(sorted(options_of(state).items())),
        "squares": squares,
        "turn": state["turn"],
        "turns": TURNS,
        "first": state["first"],
        "play_order": list(play_order(players, state["first"])),
        "target": symbioz_to_win(players, options_of(state)),
        "zerbs": {sq: list(state["zerbs"][sq]) for sq in squares},
        "crapits": {sq: list(state["crapits"][sq]) for sq in squares},
        "kroguls": {sq: list(state["kroguls"][sq]) for sq in squares},
        "symbioz": {sq: int(owner) for sq, owner in state["symbioz"].items()},
        "supply": {pawn: list(state["supply"][pawn]) for pawn in PAWNS},
        "over": bool(state["over"]),
        "winners": list(state["winners"]),
        "result": str(state["result"]),
    }
    if phase_rounds(state) and not state["over"]:
        public["phase"] = int(state["phase"])
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
        players=[f"{colour_name(s)} = player {s + 1}" for s in range(players)],
        order=", ".join(colour_name(s) for s in pub["play_order"]),
        rows=table(pub),
        symbioz=symbioz,
        zerbs=zerbs,
        costs={p: cost(pub["options"], p) for p in PAWNS},
        rulings=_variant_notes(pub),
        unit="round" if phase_rounds(pub) else "turn",
        phase=None if pub.get("phase") is None else phase_title(pub["phase"]),
    )
    return text, describe_private(view)


def describe_private(view: View) -> str:
    """The private text of :func:`describe` alone ("" for the public view)."""
    return "" if view.seat is None else f"You play {colour_name(view.seat)} (player {view.seat + 1}).\n"


def _variant_notes(pub: dict[str, Any]) -> list[str]:
    """Plain words for the options that differ from the rulebook's game."""
    opts, notes = pub["options"], []
    unit = "round" if phase_rounds(pub) else "turn"
    if opts["first-game"]:
        notes.append("first game: one more Symbioz needed to win")
    if pub["players"] == 2 and opts["two-player-board"] == "full":
        notes.append("2 players on the whole planet")
    if opts["buy-in-fertile"] == "all":
        notes.append("bought Zerbs may go into fertile squares")
    elif opts["buy-in-fertile"] == "none":
        notes.append("no pawn is bought into a fertile square")
    if opts["order-rounds"] == "phase":
        notes.append(
            "one order round per phase (the pbem turn counts order rounds;"
            f" {TURNS} rounds of four phases make the game)"
        )
    if opts["purchase-limit"] == "double":
        notes.append(f"Zerbs bought into a square a {unit}: up to as many as you have there")
    elif opts["purchase-limit"] == "none":
        notes.append("no limit on Zerbs bought into a square (only its room)")
    return notes


def order_form(view: View) -> list[str]:
    """A blank order file for ``view.seat``: what may be written this turn (with
    ``order-rounds=phase``, this phase), with examples (commented out; every line under 72
    characters for mail)."""
    pub = view.public
    seat = view.seat
    if pub["over"] or seat is None:
        return ["# The game is over: no orders."]
    phase = pub.get("phase")
    who = f"{colour_name(seat)} (player {seat + 1})"
    if phase is None:
        lines = [f"# Symbioz, turn {pub['turn']} of {pub['turns']}: orders for {who}."]
    else:
        lines = _wrapped(
            f"# Symbioz, round {pub['turn']} of {pub['turns']}, {phase_title(phase)}: orders for {who}."
        )
        lines += _wrapped(
            "# One order round per phase: write only this phase's orders; the"
            " next phase's come after its report."
        )
        if not has_choice(pub, seat, phase):
            return [*lines, "# You have nothing to decide in this phase: no orders."]
    lines += [
        "# Every line is optional: what you leave out is chosen by the",
        "# automatic defaults. After 'else' list squares to try next, then",
        "# 'any' (the automatic default, assumed) or 'none' (give it up).",
    ]
    if phase in (None, 1):
        lines += _introduction_form(pub, seat)
    if phase in (None, 2):
        lines += _growth_form(pub, seat)
    for number, kind in ((3, "krogul"), (4, "crapit")):
        if phase in (None, number):
            lines += _animals_form(pub, seat, number, kind)
    return lines


def _animals_form(pub: dict[str, Any], seat: int, number: int, kind: str) -> list[str]:
    """The Kroguls' or Crapits' part of the order form: each square holding the seat's
    animals, with the prey there now by colour, and an example naming only colours that
    are there (unless told, an animal eats its own colour only when nothing else is there)."""
    found = [sq for sq in pub["squares"] if pub[kind + "s"][sq][seat]]
    if not found:
        return []
    prey = "crapits" if kind == "krogul" else "zerbs"
    when = "now" if pub.get("phase") else "at the start of the turn"
    lines = _wrapped(f"# {number}. Your {kind.capitalize()}s, with their prey there {when}:")
    example = None
    for sq in found:
        row = pub[prey][sq]
        there = [
            f"{pub['colours'][s].capitalize()} {n}{' (yours)' if s == seat else ''}"
            for s, n in enumerate(row)
            if n
        ]
        count = pub[kind + "s"][sq][seat]
        lines += _wrapped(
            f"#    {sq}: {count} {kind.capitalize()}{'s' if count > 1 else ''};"
            f" {prey.capitalize()} there: {', '.join(there) or 'none'}"
        )
        rivals = [pub["colours"][s] for s, n in enumerate(row) if n and s != seat]
        if example is None or (rivals and " eat " not in example):
            example = f"# {kind} {sq}{' eat ' + ' '.join(rivals) if rivals else ''} -> {sq}"
    return [*lines, example] if example else lines


def _introduction_form(pub: dict[str, Any], seat: int) -> list[str]:
    """The introduction phase's part of the order form: points, supply, where pawns may go."""
    if pub["turn"] == 1:
        return ["# 1. Introduction: none in turn 1 (nothing to buy)."]
    opts = pub["options"]
    buyable = buyable_squares(pub, seat)
    supply = ", ".join(f"{pub['supply'][p][seat]} {p.capitalize()}s" for p in PAWNS)
    lines = [
        f"# 1. Introduction: {opts['points']} points. Zerb {opts['zerb-cost']},"
        f" Crapit {opts['crapit-cost']}, Krogul {opts['krogul-cost']}.",
        f"#    In supply: {supply}.",
    ]
    animals = buyable_squares(pub, seat, "crapit")
    limits = {sq: buy_limit(opts, sq, pub["zerbs"][sq][seat]) for sq in buyable}
    if any(n is not None for n in limits.values()):
        zerbs = ", ".join(f"{sq} {n}" for sq, n in limits.items())
        unit = "round" if pub.get("phase") else "turn"
        lines += _wrapped(f"#    Zerbs (most a square takes this {unit}): {zerbs or 'none'}.")
    else:
        lines += _wrapped("#    Zerbs into: " + (" ".join(buyable) or "none") + ".")
    lines += _wrapped("#    Crapits and Kroguls into: " + (" ".join(animals) or "none") + ".")
    example = next((sq for sq in buyable if limits[sq] != 0), None)
    if example is not None:
        count = limits[example] or 2
        lines.append(f"# buy {count} zerb{'s' if count > 1 else ''} {example}")
    return lines


def _growth_form(pub: dict[str, Any], seat: int) -> list[str]:
    """The multiplication phase's part of the order form: each square's newborns and the
    squares they may legally enter, with how many each may take."""
    lines = ["# 2. Multiplication: 1 newborn per 4 Zerbs (3 on a fertile square)."]
    lines += _wrapped(
        "#    Where newborns may go now (how many each square may take:"
        " room, and fewer of your Zerbs than the parent square):"
    )
    example = None
    for sq in [sq for sq in pub["squares"] if pub["zerbs"][sq][seat] and sq not in pub["symbioz"]]:
        n = pub["zerbs"][sq][seat]
        born = births(sq, n)
        if born == 0:
            lines.append(f"#    {sq}: {counted(n, 'Zerb')}, no newborn now")
            continue
        room = growth_room(pub, seat, sq)
        where = ", ".join(f"{t} {k}" for t, k in room.items()) or "nowhere (lost)"
        lines += _wrapped(f"#    {sq}: {counted(n, 'Zerb')}, {counted(born, 'newborn')} -> {where}")
        if example is None and len(room) > 1:
            example = f"# grow {sq} prefer {' '.join([*(t for t in room if t != sq), sq][:4])}"
    if example:
        lines.append(example)
    return lines


def growth_room(pub: dict[str, Any], seat: int, parent: str) -> dict[str, int]:
    """Newborns of ``parent`` each legal square could take from the position at the start of
    the turn (parent first, then its neighbours in board order): at most the births, the
    room left, and for a neighbour, fewer of ``seat``'s Zerbs than the parent holds."""
    adj = adjacency(tuple(pub["squares"]))
    n = pub["zerbs"][parent][seat]
    born = births(parent, n)
    out: dict[str, int] = {}
    for t in (parent, *adj[parent]):
        if t in pub["symbioz"]:
            continue
        room = SATURATION - sum(pub["zerbs"][t])
        take = room if t == parent else min(room, n - pub["zerbs"][t][seat])
        if min(take, born) > 0:
            out[t] = min(take, born)
    return out


def _wrapped(text: str) -> list[str]:
    """A comment line cut to mail width, continued with indented comment lines."""
    return textwrap.wrap(text, width=WIDTH, subsequent_indent="#      ", break_on_hyphens=False)
