"""An :class:`~pbem.archive.model.Archive` as one self-contained HTML page.

Inline CSS and inline SVG only: no script, no font, image or style sheet fetched from
anywhere, so the page opens offline, with JavaScript off, and prints (each turn starts on
a new page; a confidential archive carries its mark on every printed page).  It reflows to
a phone's width: text wraps, pictures shrink, wide report tables scroll in their box.
Every text is escaped; pictures come from the game's own drawing code (see
:func:`pbem.archive.build._pictures`).
"""

from __future__ import annotations

import re
from html import escape

from pbem.archive.charts import PALETTE, PHONE_WIDTH, line_chart
from pbem.archive.model import Archive, PlayerOrders, PrivatePart, TurnPage

CONFIDENTIAL = "CONFIDENTIAL: the moderator's archive of a game still being played. Show it to no player."

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""The pages' Content-Security-Policy: nothing is fetched, no script runs, no form is sent, even
if a player's text ever slipped through unescaped (inline styles only, which the page uses)."""
HEAD = (
    f'<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{CSP}">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<meta name="referrer" content="no-referrer">'
)
"""The start of every archive page's head (the game's page and the index)."""

CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
  max-width: 60rem; padding: 0.5rem 1rem 3rem; line-height: 1.4; color: #111; background: #fff;
  overflow-wrap: anywhere; }
h1 { font-size: 1.5rem; margin: 0.8rem 0 0.4rem; }
h2 { font-size: 1.25rem; border-bottom: 2px solid #333; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 0.3rem; }
h4 { font-size: 0.95rem; margin: 0.6rem 0 0.2rem; }
pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85rem;
  background: #f6f6f4; border: 1px solid #ddd; padding: 0.5rem; margin: 0.2rem 0;
  white-space: pre-wrap; overflow-wrap: anywhere; }
pre.pb-report { white-space: pre; overflow-x: auto; }
code { overflow-wrap: anywhere; word-break: break-all; }
ul.pb-events { padding-left: 1.2rem; margin: 0.2rem 0; }
ul.pb-events li { margin: 0.1rem 0; }
.pb-conf { background: #b00020; color: #fff; font-weight: bold; padding: 0.3rem 0.6rem;
  text-align: center; letter-spacing: 0.05em; }
.pb-turn-conf { color: #b00020; font-weight: bold; font-size: 0.8rem; }
.pb-note { color: #555; font-size: 0.85rem; margin: 0.1rem 0 0.4rem; }
.pb-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0.5rem; }
figure { margin: 0.5rem 0; }
figure svg { max-width: 100%; height: auto; display: block; }
svg.pb-chart-phone { display: none; }
@media (max-width: 40rem) { svg.pb-chart-wide { display: none; } svg.pb-chart-phone { display: block; } }
figcaption { font-size: 0.85rem; color: #444; }
nav ol { display: flex; flex-wrap: wrap; gap: 0.2rem 0.6rem; list-style: none; padding: 0; }
nav a { display: inline-block; padding: 0.15rem 0.3rem; }
.pb-swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 0.2rem;
  vertical-align: -0.05rem; margin-right: 0.2rem; }
.pb-players { display: flex; flex-wrap: wrap; gap: 0.2rem 1.2rem; list-style: none; padding: 0;
  margin: 0.2rem 0; }
dl.pb-facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.8rem; }
dl.pb-facts dt { font-weight: bold; }
dl.pb-facts dd { margin: 0; overflow-wrap: anywhere; }
@media print {
  body { max-width: none; padding: 0; }
  nav { display: none; }
  section.pb-turn, section.pb-reveal { break-before: page; }
  pre, figure, .pb-private { break-inside: avoid; }
  pre.pb-report { white-space: pre-wrap; }
  .pb-conf { position: fixed; top: 0; left: 0; right: 0; }
  body.pb-confidential { padding-top: 2rem; }
}
"""


def _pre(text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<pre{attr}>{escape(text)}</pre>"


def _private(part: PrivatePart) -> str:
    body = "\n".join(part.events)
    if part.events and part.text:
        body += "\n\n"
    body += part.text
    return f'<div class="pb-private"><h4>{escape(part.player)}</h4>{_pre(body)}</div>'


def _orders(orders: PlayerOrders) -> str:
    lines = "\n".join(orders.lines) or "(no orders)"
    note = f'<p class="pb-note">{escape(orders.note)}</p>' if orders.note else ""
    return f"<div><h4>{escape(orders.player)}</h4>{_pre(lines)}{note}</div>"


def _picture(name: str, svg: str, turn: int) -> str:
    # The game's own drawing: an XML prolog has no place inside HTML.
    svg = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)
    what = name.rsplit(".", 1)[0].replace("-", " ").replace("_", " ").capitalize()
    return f"<figure>{svg}<figcaption>{escape(what)} at the start of turn {turn}</figcaption></figure>"


def _turn(page: TurnPage, archive: Archive) -> str:
    out = [f'<section class="pb-turn" id="turn-{page.turn}">', f"<h2>Turn {page.turn}</h2>"]
    if archive.confidential:
        out.append('<p class="pb-turn-conf">CONFIDENTIAL</p>')
    if page.events:
        out.append("<h3>Events</h3><ul class='pb-events'>")
        out += [f"<li>{escape(' '.join(line.split()))}</li>" for line in page.events]
        out.append("</ul>")
    out.append("<h3>Public report</h3>" + _pre(page.public_text, "pb-report"))
    out += [_picture(name, svg, page.turn) for name, svg in page.pictures]
    if page.private:
        title = "Private view" if archive.scope == "player" else "Private views (revealed)"
        out.append(f"<h3>{title}</h3><div class='pb-grid'>")
        out += [_private(part) for part in page.private]
        out.append("</div>")
    for section in page.extra:
        out.append(f"<h3>{escape(section.title)}</h3>" + _pre("\n".join(section.lines)))
    if page.orders or page.orders_note:
        out.append("<h3>Orders</h3>")
        if page.orders_note:
            out.append(f'<p class="pb-note">{escape(page.orders_note)}</p>')
        out.append("<div class='pb-grid'>" + "".join(_orders(o) for o in page.orders) + "</div>")
    if page.awaiting:
        out.append(f'<p class="pb-note">Awaited this turn: {escape(", ".join(page.awaiting))}.</p>')
    out.append("</section>")
    return "\n".join(out)


def _colour(archive: Archive, seat: int) -> str:
    palette = archive.palette or PALETTE
    return palette[seat % len(palette)]


def _header(archive: Archive) -> list[str]:
    players = "".join(
        f'<li><span class="pb-swatch" style="background:{_colour(archive, seat)}"></span>'
        f"{escape(name)}{' (you)' if name == archive.reader else ''}</li>"
        for seat, name in enumerate(archive.names)
    )
    facts = [
        ("Game", f"{archive.title} ({archive.game}), id {archive.game_id}"),
        ("Result", archive.outcome or "not over yet"),
        ("Turns", f"{archive.turns[0].turn} to {archive.turns[-1].turn}" if archive.turns else "none"),
        ("Checked", archive.checked),
        ("Seed commitment", archive.seed_commitment),
    ]
    if archive.seed:
        facts.append(("Seed (revealed)", archive.seed))
    out = [
        f"<header><h1>{escape(archive.heading)}</h1>",
        '<dl class="pb-facts">' + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts),
        "</dl>",
        f'<h3>Players, in seat order</h3><ul class="pb-players">{players}</ul>',
    ]
    out += [f'<p class="pb-note">{escape(note)}</p>' for note in archive.notes]
    out.append("</header>")
    return out


def _nav(archive: Archive) -> str:
    """The contents: charts, final reveal and a link to every turn."""
    links = "".join(f'<li><a href="#turn-{p.turn}">{p.turn}</a></li>' for p in archive.turns)
    extra = []
    if archive.charts:
        extra.append('<a href="#charts">Charts</a>')
    if archive.reveal or archive.outcome:
        extra.append('<a href="#reveal">Final reveal</a>')
    return f"<nav><h2>Contents</h2><p>{' · '.join(extra)}</p><h3>Turns</h3><ol>{links}</ol></nav>"


def render_html(archive: Archive) -> str:
    """The archive as one HTML document (a str, UTF-8 when written)."""
    body_class = ' class="pb-confidential"' if archive.confidential else ""
    out = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head>{HEAD}',
        f"<title>{escape(archive.heading)}</title>",
        f"<style>{CSS}</style></head>",
        f"<body{body_class}>",
    ]
    if archive.confidential:
        out.append(f'<div class="pb-conf" role="note">{escape(CONFIDENTIAL)}</div>')
    out += _header(archive)
    if archive.charts:
        out.append('<section id="charts"><h2>Charts</h2>')
        palette = archive.palette or PALETTE
        out += [
            f"<figure>{line_chart(chart, archive.names, palette=palette, css_class='pb-chart-wide')}"
            f"{line_chart(chart, archive.names, PHONE_WIDTH, 240, palette, 'pb-chart-phone')}"
            f"<figcaption>{escape(chart.title)} "
            "after each turn's resolution, as the reports of the turn showed it</figcaption></figure>"
            for chart in archive.charts
        ]
        out.append("</section>")
    out.append(_nav(archive))
    out += [_turn(page, archive) for page in archive.turns]
    if archive.outcome or archive.reveal:
        out.append('<section class="pb-reveal" id="reveal"><h2>Final reveal</h2>')
        if archive.outcome:
            out.append(f"<p><strong>{escape(archive.outcome)}</strong></p>")
        if archive.standings:
            out.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in archive.standings) + "</ul>")
        if archive.seed:
            out.append(
                f"<p>The secret seed, revealed: <code>{escape(archive.seed)}</code> (its commitment, "
                f"published at turn 1: <code>{escape(archive.seed_commitment)}</code>).</p>"
            )
        if archive.reveal:
            out.append("<h3>What each player held at the end</h3><div class='pb-grid'>")
            out += [_private(part) for part in archive.reveal]
            out.append("</div>")
        out.append("</section>")
    if archive.confidential:
        out.append(f'<div class="pb-conf">{escape(CONFIDENTIAL)}</div>')
    out.append(f"<footer><p class='pb-note'>{escape(archive.heading)}. Written by pbem archive.</p></footer>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
