"""What a player sees of Jovian Syzygy: the view (an allow-list), the text board and the report.

Nothing in the game is secret except what the random generator will do, and the engine keeps
the seed out of the state; so every seat sees the same public part and an empty private part.
"""

from __future__ import annotations

from typing import Any

from pbem.game import View
from pbem.render import render

from . import board
from .rules import player, turn_order

GAME_NAME = "jovian-syzygy"
_OPTION_KEYS = ("solo", "max_rounds", "ride", "setup_check", "max_extra_moves")
COLUMNS = 84
"""Columns of the unrolled text board: 360 degrees, divisible by every segment and space count."""


def observe(state: dict[str, Any], seat: int | None) -> View:
    """Copy in what anyone may see: positions, Psi, storms, the last awards, the round."""
    opts = state["options"]
    public = {
        "players": state["players"],
        "options": {k: opts[k] for k in _OPTION_KEYS if k in opts},
        "round": state["round"],
        "rounds_played": state["rounds_played"],
        "first": state["first"],
        "turn_order": turn_order(state),
        "sats": list(state["sats"]),
        "where": list(state["where"]),
        "psi": list(state["psi"]),
        "last_gain": list(state["last_gain"]),
        "storms": {k: int(v) for k, v in sorted(state["storms"].items())},
        "awards": [None if a is None else dict(a, moons=list(a["moons"])) for a in state["awards"]],
        "over": bool(state["over"]),
    }
    return View(game=GAME_NAME, seat=seat, public=public, private={})


def _cell(width: int, text: str) -> str:
    """``|`` and ``text`` cut or padded to ``width`` columns in all."""
    body = text[: width - 1]
    return "|" + body.ljust(width - 1)


def _marks(public: dict[str, Any], space: str) -> str:
    who = "".join(str(s + 1) for s, w in enumerate(public["where"]) if w == space)
    storms = public["storms"].get(space, 0)
    return who + ("*" * storms if storms <= 3 else f"*{storms}")


def text_board(public: dict[str, Any]) -> list[str]:
    """The board unrolled: one row per ring or track, 0 to 360 degrees clockwise from north.

    Players are digits, storms ``*``, a satellite ``@`` followed by its riders.
    """
    key = ", ".join(f"{s + 1} = {player(s)}" for s in range(public["players"]))
    rows = ["     " + "N".ljust(21) + "E".ljust(21) + "S".ljust(21) + "W".ljust(21)]
    width = COLUMNS // 4
    rows.append("out  " + "".join(_cell(width, f"{c} {_marks(public, c)}") for c in board.CORNERS))
    ring_rows = {letter: count for letter, _i, _o, count in board.RINGS}
    for track, letter in zip(reversed(board.TRACKS), ("D", "C", "B", "A"), strict=True):
        seg_width = COLUMNS // track.segments
        sat = public["sats"][board.MOONS.index(track.moon)]
        riders = "".join(str(s + 1) for s, w in enumerate(public["where"]) if w == track.moon)
        cells = []
        for seg in range(track.segments):
            mark = "@" + riders if len(riders) < seg_width - 1 else "@+"
            cells.append(_cell(seg_width, mark if seg == sat else "." * (seg_width - 1)))
        rows.append(f"{track.title[:3]:<5}" + "".join(cells))
        count = ring_rows[letter]
        space_width = COLUMNS // count
        cells = []
        for i in range(count):
            name = f"{letter}-{i + 1}"
            label = name if space_width > 7 else name.replace("-", "")
            cells.append(_cell(space_width, f"{label} {_marks(public, name)}"))
        rows.append(f"{letter:<5}" + "".join(cells))
    rows.append(f"Key: {key}; * storm; @ satellite, then its riders (+: see below).")
    rows.append("Rows run clockwise from north; each track row sits between the rings it borders.")
    return rows


def _where_text(where: str) -> str:
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
        note = " (same satellite as the last gain)" if award["same"] else ""
        awards.append(f"{player(seat)}: {chain}: +{award['psi']} Psi{note}")
    text = render(
        "jovian_syzygy/report.txt.j2",
        round=public["round"],
        over=public["over"],
        order=[player(s) for s in public["turn_order"]],
        board=text_board(public),
        status=status_lines(public),
        awards=awards,
    )
    private = "" if view.seat is None else f"You are {player(view.seat)}.\n"
    return text, private
