"""What a player sees of Jovian Syzygy: the view (an allow-list), the text board and the report.

Nothing in the game is secret except what the random generator will do, and the engine keeps
the seed out of the state; so every seat sees the same public part and an empty private view.
The private text of a report is the seat's forecast (:mod:`.forecast`), computed from the
public part alone.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any

from pbem.game import View
from pbem.render import render

from . import board
from .forecast import forecast_lines
from .rules import OPTION_KEYS, asked, best_line_at, options_of, player, seat_order, sequential

GAME_NAME = "jovian-syzygy"
_OPTION_KEYS = OPTION_KEYS
_OPTION_SET = frozenset(_OPTION_KEYS)
_pick_options = itemgetter(*_OPTION_KEYS)
_INT = {int}
_STR = {str}
COLUMNS = 84
"""Columns of the unrolled text board: 360 degrees, divisible by every segment and space count
(lcm of 3, 6, 12 and 28), printed in two halves of 42."""


def observe(state: dict[str, Any], seat: int | None) -> View:
    """Copy in what anyone may see: positions, Psi, storms, the last awards, the round."""
    order = list(seat_order(state["first"], state["players"]))  # turn_order
    # The usual cases of _public_options, _public_storms and _public_awards first, inline
    # (their answers as those functions give them; each of them says why).
    options, storms, awards, last = state["options"], state["storms"], state["awards"], _last_storms
    public = {
        "players": state["players"],
        "options": options.copy()
        if type(options) is dict and tuple(options) == _OPTION_KEYS
        else _public_options(state),
        "round": state["round"],
        "rounds_played": state["rounds_played"],
        "first": state["first"],
        "turn_order": order,
        "sats": list(state["sats"]),
        "where": list(state["where"]),
        "psi": list(state["psi"]),
        "last_gain": list(state["last_gain"]),
        "storms": last[1].copy()
        if last is not None and type(storms) is dict and storms == last[0]
        else _public_storms(storms),
        "awards": list(awards)
        if type(awards) is list and awards.count(None) == len(awards)
        else _public_awards(awards),
        "over": bool(state["over"]),
    }
    # Keys only where they say something, so that positions saved before them read the same.
    get = state.get
    if get("phase") == "corners":  # corners.choosing
        public["phase"] = "corners"
        public["asked"] = list(asked(state))
    elif sequential(state) and not state["over"]:
        public["step"] = int(get("step", 0))
        public["to_move"] = order[get("step", 0)]  # rules.asked: the one seat asked
    award_sats = get("award_sats")
    if award_sats is not None:
        sats = public["sats"]  # a list (of the state's own)
        if (award_sats if type(award_sats) is list else list(award_sats)) != sats:
            public["award_sats"] = list(award_sats)
    return View(GAME_NAME, seat, public, {})


def _public_awards(awards: list[Any]) -> list[Any]:
    """The last round's awards, each copied field by field (most rounds award nobody)."""
    if type(awards) is list and awards.count(None) == len(awards):
        return list(awards)
    return [
        None
        if a is None
        else {"moons": list(a["moons"]), "eclipse": a["eclipse"], "psi": a["psi"], "same": a["same"]}
        for a in awards
    ]


def _public_storms(storms: dict[str, Any]) -> dict[str, int]:
    """The storms by space in name order, each count a whole number: :func:`_storms_shown` of
    the state's storms, remembered for the last storms seen (every seat's view of a state
    shows the same storms).  The answer depends on the storms' keys and values only, and
    storms equal to those remembered (dict equality: the same names, equal counts) give an
    equal answer of the same types (every count an int), so a copy of it is handed out.
    Only storms keyed by names (str) are remembered."""
    global _last_storms
    last = _last_storms
    if last is not None and type(storms) is dict and storms == last[0]:
        return last[1].copy()
    shown = _storms_shown(storms)
    if type(storms) is dict and set(map(type, storms)) <= _STR:  # names only, as a state has
        _last_storms = (storms.copy(), shown.copy())
    return shown


_last_storms: tuple[dict[str, Any], dict[str, int]] | None = None
"""The last storms :func:`_public_storms` worked out: a copy of them and of its answer."""


def _storms_shown(storms: dict[str, Any]) -> dict[str, int]:
    """The storms by space in name order, each count a whole number.  A copy of the state's
    own when it is kept that way already (:func:`.rules.resolve` keeps it so, as a save
    read back has it), else sorted (keys are unique: sorted as the items) and converted."""
    keys = sorted(storms)
    if keys == list(storms) and set(map(type, storms.values())) <= _INT:
        return dict(storms)
    return {k: int(storms[k]) for k in keys}


def _public_options(state: dict[str, Any]) -> dict[str, Any]:
    """The options a view shows, by their kebab-case names in :data:`_OPTION_KEYS` order."""
    options = state["options"]
    if type(options) is dict and tuple(options) == _OPTION_KEYS:  # as :func:`.rules.resolve` keeps them
        return dict(options)
    if type(options) is dict and options.keys() == _OPTION_SET:  # every option, no old names
        return dict(zip(_OPTION_KEYS, _pick_options(options), strict=True))
    opts = options_of(state)
    return {k: opts[k] for k in _OPTION_KEYS if k in opts}


Cell = tuple[int, int, str]
"""A run of columns [start, end) of the unrolled board and what to write there."""


def _render(cells: list[Cell], lo: int, hi: int) -> str:
    """Columns [lo, hi) of a row: every cell starts with ``|`` and its text, cut to fit; a cell
    cut by the window's left edge starts with ``<`` (continued) and repeats its text."""
    out = []
    for start, end, text in cells:
        a, b = max(start, lo), min(end, hi)
        if a >= b:
            continue
        edge = "|" if a == start else "<"
        out.append((edge + text)[: b - a].ljust(b - a))
    return "".join(out)


def _marks(public: dict[str, Any], space: str) -> str:
    who = "".join(str(s + 1) for s, w in enumerate(public["where"]) if w == space)
    storms = public["storms"].get(space, 0)
    return who + ("*" * storms if storms <= 3 else f"*{storms}")


def board_rows(public: dict[str, Any]) -> list[tuple[str, list[Cell]]]:
    """The board unrolled over COLUMNS columns (0 to 360 degrees clockwise from north): one row
    per ring or track from the outside in, as (label, cells)."""
    rows: list[tuple[str, list[Cell]]] = []
    quarter = COLUMNS // 4
    rows.append(
        (
            "out",
            [
                (i * quarter, (i + 1) * quarter, f"{c} {_marks(public, c)}")
                for i, c in enumerate(board.CORNERS)
            ],
        )
    )
    ring_counts = {letter: count for letter, _i, _o, count in board.RINGS}
    for track, letter in zip(reversed(board.TRACKS), ("D", "C", "B", "A"), strict=True):
        width = COLUMNS // track.segments
        sat = public["sats"][board.MOONS.index(track.moon)]
        riders = "".join(str(s + 1) for s, w in enumerate(public["where"]) if w == track.moon)
        mark = "@" + riders if len(riders) < width - 1 else "@+"
        cells = [
            (k * width, (k + 1) * width, mark if k == sat else "." * (width - 1))
            for k in range(track.segments)
        ]
        rows.append((track.title[:3], cells))
        count = ring_counts[letter]
        width = COLUMNS // count
        cells = []
        for k in range(count):
            name = f"{letter}-{k + 1}"
            label = name if width > 7 else name.replace("-", "")
            cells.append((k * width, (k + 1) * width, f"{label} {_marks(public, name)}"))
        rows.append((letter, cells))
    return rows


def text_board(public: dict[str, Any]) -> list[str]:
    """The board for a mail body, in two halves of 47 columns: the east half (north to south
    clockwise) and the west half (south to north).  Players are digits, storms ``*``, a
    satellite ``@`` followed by its riders."""
    half = COLUMNS // 2
    quarter = COLUMNS // 4
    rows = board_rows(public)
    out = []
    for title, lo, marks in (("East half", 0, "NES"), ("West half", half, "SWN")):
        compass = "     " + marks[0].ljust(quarter) + marks[1].ljust(quarter - 1) + marks[2]
        out.append(f"{title}:")
        out.append(compass)
        for label, cells in rows:
            out.append(f"{label:<5}" + _render(cells, lo, lo + half))
        out.append("")
    key = ", ".join(f"{s + 1} = {player(s)}" for s in range(public["players"]))
    out.append(f"Players: {key}.")
    out.append("* storm, @ satellite then its riders (+: see below), < continued.")
    out.append("Rows run clockwise; each track sits between the rings it borders.")
    return out


def _where_text(where: str | None) -> str:
    if where is None:
        return "no corner yet"
    return f"aboard {where.capitalize()}" if where in board.TRACK_BY_MOON else f"in {where}"


def status_lines(public: dict[str, Any]) -> list[str]:
    """Plain sentences for satellites, players and storms."""
    lines = []
    for track, seg in zip(board.TRACKS, public["sats"], strict=True):
        lines.append(f"{track.title}: segment {seg + 1} of {track.segments}")
    for seat in range(public["players"]):
        gain = public["last_gain"][seat]
        text = f"{player(seat)}: {_where_text(public['where'][seat])}, Psi {public['psi'][seat]}"
        if gain:
            text += f", last gained on {gain.capitalize()}"
        lines.append(text)
    order = {name: i for i, name in enumerate(board.SPACE_NAMES)}
    storms = ", ".join(f"{k} x{v}" for k, v in sorted(public["storms"].items(), key=lambda kv: order[kv[0]]))
    lines.append(f"Storms: {storms or 'none'}")
    return lines


def describe(view: View) -> tuple[str, str]:
    """The report: round, turn order, the text board, positions, last round's syzygies."""
    public = view.public
    awards = []
    for seat, award in enumerate(public["awards"]):
        if award is None:
            continue
        chain = " - ".join(m.capitalize() for m in award["moons"])
        if award["eclipse"]:
            chain += " - Jupiter (eclipse)"
        awards.append(f"{player(seat)}: +{award['psi']} Psi for {chain}")
        if award["same"]:
            awards.append("    only 1: the same satellite as at the last gain")
        line = best_line_at(list(public.get("award_sats", public["sats"])), award["moons"][0])
        if line is not None:
            slid = ", ".join(
                f"{m.capitalize()} {math.degrees(a) % 360:.1f}"
                for m, a in zip(line.moons, line.angles, strict=True)
            )
            awards.append(f"    slid to (degrees): {slid}")
    text = render(
        "jovian_syzygy/report.txt.j2",
        round=public["round"],
        over=public["over"],
        setup=public.get("phase") == "corners",
        order=[player(s) for s in public["turn_order"]],
        board=text_board(public),
        status=status_lines(public),
        awards=awards,
        waiting=_waiting(public),
    )
    return text, describe_private(view)


def describe_private(view: View) -> str:
    """The private text of :func:`describe` alone ("" for the public view): who you are and
    the forecast for your seat."""
    if view.seat is None:
        return ""
    private = [f"You are {player(view.seat)}."]
    forecast = forecast_lines(view.public, view.seat)
    if forecast:
        private += ["", *forecast]
    return "\n".join(private) + "\n"


def _waiting(public: dict[str, Any]) -> str:
    """Who is asked for orders now, in words (setup and sequential turns)."""
    if public["over"]:
        return ""
    if public.get("phase") == "corners":
        who = ", ".join(player(s) for s in public["asked"])
        if public["options"].get("turns") == "sequential":
            return f"Setup: {who} chooses a corner now; the others follow in turn order."
        return f"Setup: corners are chosen now, all at once ({who}), kept in turn order."
    if public.get("to_move") is not None:
        n = public["players"]
        return f"Sequential turns: {player(public['to_move'])} moves now ({public['step'] + 1} of {n})."
    return ""
