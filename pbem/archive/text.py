"""An :class:`~pbem.archive.model.Archive` as plain text: readable turn reports, no line
over :data:`WIDTH` columns (for mail and for ``less``).

The same content as the HTML page: pictures are named, not drawn (the reports' own text
describes the position), and charts become tables.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from pbem.archive.charts import text_table
from pbem.archive.html import CONFIDENTIAL
from pbem.archive.model import Archive, PrivatePart, TurnPage

WIDTH = 72
"""No line of the text archive is longer."""
RULE = "=" * WIDTH
THIN = "-" * WIDTH


def fold(lines: Iterable[str], width: int = WIDTH) -> list[str]:
    """``lines`` with every line longer than ``width`` folded (keeping its indentation;
    a word longer than the line is cut, so nothing is ever wider)."""
    out: list[str] = []
    for raw in lines:
        for line in raw.rstrip().split("\n"):
            line = line.rstrip().expandtabs(4)
            if len(line) <= width:
                out.append(line)
                continue
            indent = line[: len(line) - len(line.lstrip())][: width // 2]
            out += textwrap.wrap(
                line.strip(),
                width,
                initial_indent=indent,
                subsequent_indent=indent + "  ",
                break_long_words=True,
                break_on_hyphens=False,
            ) or [line[:width]]
    return out


def _indented(text: str, by: str = "  ") -> list[str]:
    return [by + line if line else "" for line in text.splitlines()]


def _private(part: PrivatePart) -> list[str]:
    out = [f"{part.player}:"]
    out += _indented("\n".join(part.events))
    out += _indented(part.text)
    return out


def _turn(page: TurnPage, archive: Archive) -> list[str]:
    head = f"TURN {page.turn}"
    if archive.confidential:
        head += "CONFIDENTIAL".rjust(WIDTH - len(head))
    out = ["", THIN, head, THIN]
    if page.events:
        out += ["", "Events:"]
        out += [("- " + line.replace("\n", " ")) for line in page.events]
    out += ["", "Public report:", *_indented(page.public_text)]
    for name, _ in page.pictures:
        out.append(f"  (picture: {name}, drawn in the HTML archive)")
    if page.private:
        out += ["", "Private view:" if archive.scope == "player" else "Private views (revealed):"]
        for part in page.private:
            out += _private(part)
    for section in page.extra:
        out += ["", f"{section.title}:", *_indented("\n".join(section.lines))]
    if page.orders or page.orders_note:
        out += ["", "Orders:"]
        if page.orders_note:
            out.append(page.orders_note)
        for orders in page.orders:
            note = f" ({orders.note})" if orders.note else ""
            out.append(f"{orders.player}{note}:")
            out += ["    " + line for line in orders.lines] or ["    (no orders)"]
    if page.awaiting:
        out += ["", f"Awaited this turn: {', '.join(page.awaiting)}."]
    return out


def render_text(archive: Archive) -> str:
    """The archive as plain text, every line at most :data:`WIDTH` columns."""
    out = [RULE, archive.heading, RULE]
    if archive.confidential:
        out += [CONFIDENTIAL, RULE]
    out += [
        f"Game: {archive.title} ({archive.game}), id {archive.game_id}",
        "Players (seat order): "
        + ", ".join(n + (" (you)" if n == archive.reader else "") for n in archive.names),
        f"Result: {archive.outcome or 'not over yet'}",
        f"Checked: {archive.checked}",
        f"Seed commitment: {archive.seed_commitment}",
    ]
    if archive.seed:
        out.append(f"Seed (revealed): {archive.seed}")
    out += archive.notes
    for chart in archive.charts:
        out += ["", *text_table(chart, WIDTH)]
    for page in archive.turns:
        out += _turn(page, archive)
    if archive.outcome or archive.reveal:
        out += ["", RULE, "FINAL REVEAL", RULE]
        if archive.outcome:
            out.append(archive.outcome)
        out += list(archive.standings)
        if archive.seed:
            out.append(f"The secret seed, revealed: {archive.seed}")
        if archive.reveal:
            out += ["", "What each player held at the end:"]
            for part in archive.reveal:
                out += _private(part)
    if archive.confidential:
        out += ["", RULE, CONFIDENTIAL]
    out += ["", RULE, f"{archive.heading}. Written by pbem archive."]
    return "\n".join(fold(out)) + "\n"
