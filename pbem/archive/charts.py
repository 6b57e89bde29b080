"""Line charts as inline SVG, drawn by pure functions (in the manner of python-chess's
``chess.svg``: strings built from values, nothing read from outside, no scripts).

Every player has one colour across all charts (:data:`PALETTE`, seat order); a value the
reader could not know is a gap in the line.  Text in the SVG (title, axis numbers, the
players' names in the legend) is real text, so it can be searched, printed and read aloud.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from pbem.archive.model import Chart

PALETTE = ("#1f6fb4", "#d1495b", "#2a9d48", "#8a5cc2", "#e08a00", "#00808a", "#6b4f2a", "#c2188f")
"""Colours of the players' lines, seat 1 first (distinct in print and for most colour-blind eyes
with the markers' shapes)."""
_MARKS = ("circle", "square", "diamond", "triangle")
NARROW = 480
"""Charts narrower than this are drawn for a phone's width (see :func:`line_chart`)."""
PHONE_WIDTH = 340
"""The width of the archive's phone drawing: a 360-pixel screen, less the page's margins,
shows it at about its own size (12-pixel text stays about 11 pixels)."""


def nice_ticks(low: int, high: int, count: int = 5) -> list[int]:
    """At most about ``count`` round whole numbers (steps of 1, 2 or 5 times a power of ten)
    from ``low`` to ``high``."""
    if high <= low:
        return [low]
    span = high - low
    step = next((b * 10**p for p in range(19) for b in (1, 2, 5) if span / (b * 10**p) <= count), span)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{colour}"/>'
    if kind == "diamond":
        return f'<path d="M{x:.1f},{y - 4:.1f}l4,4l-4,4l-4,-4z" fill="{colour}"/>'
    if kind == "triangle":
        return f'<path d="M{x:.1f},{y - 4:.1f}l4,7h-8z" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>'


def _runs(points: Sequence[tuple[float, float] | None]) -> list[list[tuple[float, float]]]:
    """The unbroken stretches of a line (a None is a gap)."""
    runs: list[list[tuple[float, float]]] = [[]]
    for point in points:
        if point is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(point)
    return [run for run in runs if run]


CHAR_WIDTH = 7.2
"""A generous width of one character of the legend's 12-pixel sans-serif text, in pixels."""
_KEY = 22
"""The legend's line and marker before each name, in pixels."""


def _label(name: str, last: int | None) -> str:
    return name + ("" if last is None else f": {last}")


def _legend_columns(chart: Chart, room: float, most: int) -> int:
    """Legend entries a row: ``most``, or fewer when the longest name would run into the
    entry beside it (pbem allows 32-character names)."""
    longest = max(
        (
            len(_label(name, next((v for v in reversed(row) if v is not None), None)))
            for name, row in chart.series
        ),
        default=0,
    )
    needed = _KEY + longest * CHAR_WIDTH + 8
    return max(1, min(most, int(room // needed)))


def line_chart(
    chart: Chart,
    names: Sequence[str],
    width: int = 640,
    height: int = 260,
    palette: Sequence[str] = PALETTE,
    css_class: str | None = None,
) -> str:
    """``chart`` as an SVG line chart: one line per player over the turns, with a legend.

    ``names`` gives every player's seat (so colours match across charts), ``palette`` each
    seat's colour, ``css_class`` the class of the ``svg`` element (the archive draws each
    chart twice, for wide screens and for phones, and shows one).  A chart narrower than
    :data:`NARROW` has two legend entries a row and fewer turn numbers, so that its text
    keeps its size on a phone instead of being shrunk with a wide drawing.  Never raises for
    a chart with no values (it draws empty axes)."""
    left, right, top, bottom = 44, 16, 30, 40
    columns = _legend_columns(chart, width - left - right, 2 if width < NARROW else 4)
    legend_rows = (len(chart.series) + columns - 1) // columns
    total_height = height + 18 * legend_rows
    plot_w, plot_h = width - left - right, height - top - bottom
    turns = chart.turns or (0,)
    values = [v for _, row in chart.series for v in row if v is not None]
    low, high = min([0, *values]), max([1, *values])
    t0, t1 = turns[0], max(turns[-1], turns[0] + 1)

    def x_of(turn: int) -> float:
        return left + (turn - t0) / (t1 - t0) * plot_w

    def y_of(value: int) -> float:
        return top + plot_h - (value - low) / (high - low) * plot_h

    title = escape(chart.title)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total_height}" '
        + ("" if css_class is None else f'class="{escape(css_class)}" ')
        + f'width="{width}" height="{total_height}" role="img" aria-label="{title} by turn" '
        'font-family="sans-serif" font-size="12">',
        f"<title>{title} by turn</title>",
        f'<rect width="{width}" height="{total_height}" fill="#fff"/>',
        f'<text x="{left}" y="18" font-size="14" font-weight="bold" fill="#111">{title}</text>',
    ]
    for tick in nice_ticks(low, high):
        y = y_of(tick)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#444">{tick}</text>'
        )
    for tick in nice_ticks(t0, t1, 4 if width < NARROW else 8):
        x = x_of(tick)
        out.append(
            f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="#444"/>'
            f'<text x="{x:.1f}" y="{top + plot_h + 17}" text-anchor="middle" fill="#444">{tick}</text>'
        )
    out.append(
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#444"/>'
        f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 33}" text-anchor="middle" '
        'fill="#444">turn</text>'
    )
    seat_of = {name: seat for seat, name in enumerate(names)}
    for index, (name, row) in enumerate(chart.series):
        seat = seat_of.get(name, index)
        colour = (palette or PALETTE)[seat % len(palette or PALETTE)]
        mark = _MARKS[seat % len(_MARKS)]
        points = [None if v is None else (x_of(t), y_of(v)) for t, v in zip(turns, row, strict=False)]
        for run in _runs(points):
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
                'stroke-linejoin="round"/>'
            )
            if len(run) <= 40:
                out.extend(_marker(mark, x, y, colour) for x, y in run)
            else:
                out.append(_marker(mark, *run[-1], colour))
        last = next((v for v in reversed(row) if v is not None), None)
        lx = left + (index % columns) * (plot_w / columns)
        ly = height + 18 * (index // columns) + 4
        label = escape(_label(name, last))
        out.append(
            f'<line x1="{lx:.1f}" y1="{ly:.1f}" x2="{lx + 16:.1f}" y2="{ly:.1f}" stroke="{colour}" '
            f'stroke-width="2"/>{_marker(mark, lx + 8, ly, colour)}'
            f'<text x="{lx + 22:.1f}" y="{ly + 4:.1f}" fill="#111">{label}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def text_table(chart: Chart, width: int = 72) -> list[str]:
    """``chart`` as a plain-text table (one row per turn, a column per player), at most
    ``width`` columns: a name longer than its column goes on over more header lines, "-"
    where the reader could not know."""
    count = max(1, len(chart.series))
    column = max(5, min(12, (width - 6) // count))
    # a name longer than its column goes on over the next header lines (cut, names sharing
    # their first letters, "clubname-alice" and "clubname-bob", could not be told apart)
    cut = column - 1
    parts = [[name[at : at + cut] for at in range(0, len(name), cut)] or [""] for name, _ in chart.series]
    heads = max((len(p) for p in parts), default=1)
    rows = [chart.title + ":"]
    if heads == 1:
        rows.append("turn".rjust(5) + "".join(p[0].rjust(column) for p in parts))
    for line in range(heads if heads > 1 else 0):
        cells = "".join(" " + (p[line] if line < len(p) else "").ljust(cut) for p in parts)
        rows.append((("turn" if line == 0 else "").rjust(5) + cells).rstrip())
    for index, turn in enumerate(chart.turns):
        cells = "".join(
            ("-" if row[index] is None else str(row[index])).rjust(column) for _, row in chart.series
        )
        rows.append(str(turn).rjust(5) + cells)
    return rows
