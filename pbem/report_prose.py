"""The report template's text from its shape: ``report.txt.j2`` rendered once a process for
each combination of its branches, and each turn's prose made by putting the values in.

A turn renders the report template twice (the players' prose with marks for the name and
the block, and the public report), about 80,000 instructions each in Jinja2; from the
template's shape (:func:`pbem.render.shape`) it is one join.  The plain render stays the
reference (:func:`pbem.reports._report_prose`, used by a report made alone) and a test
fuzzes the two against each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING

from pbem.render import Shape, shape

if TYPE_CHECKING:
    from pbem.reports import ReportContext

TEMPLATE = "report.txt.j2"
_SCALARS = ("title", "game_id", "turn", "seed_commitment", "public_text")
_LINES = ("\n", (list,))
"""A list the template writes one item a line."""


@lru_cache(maxsize=64)
def prose_shape(
    player: bool, events: bool, outcome: bool, awaiting: bool, press: bool, block: bool
) -> Shape | None:
    """The shape of ``report.txt.j2`` for the branches its values take: a player's report or
    the public one, with or without events, an outcome (else awaited orders, or neither),
    press lines and the encrypted block.  The template writes every value as it is but the
    public text and the block (trimmed at their end: :func:`prose` trims them) and the
    awaited names (joined by ", ").  ``seat`` is passed, and must stay unread.  Sixty-four
    entries at most, each made once (the template ships with pbem: nothing can go stale)."""
    scalars = [*_SCALARS, *(["player"] if player else [])]
    scalars += ["outcome", "seed"] if outcome else []
    scalars += ["private_block"] if block else []
    lists = {name: _LINES for name, on in (("events", events), ("press", press)) if on}
    if awaiting and not outcome:
        lists["awaiting"] = (", ", (list,))
    fixed = {
        "player": None,
        "events": [],
        "outcome": None,
        "seed": None,
        "awaiting": ["someone"] if awaiting else [],
        "press": (),
        "private_block": "",
    }
    return shape(TEMPLATE, fixed, scalars, lists, unread=("seat",))


def prose(
    ctx: ReportContext,
    title: str,
    player: str | None,
    texts: tuple[str, str, list[str]],
    outcome: str | None,
    private_block: str,
) -> str | None:
    """:func:`pbem.reports._report_prose`'s text (the template rendered with these values,
    ``seat`` aside) from the template's shape; None where the shape cannot stand for the
    values: one that is not a string (an int for ``turn``), whose own methods the template
    would call or whose ``str`` could differ.  Never raises for such values."""
    press: Sequence[object] = () if ctx.press is None else ctx.press.lines
    events, awaiting = texts[2], ctx.awaiting
    found = prose_shape(
        bool(player), bool(events), bool(outcome), bool(awaiting), bool(press), bool(private_block)
    )
    seed = ctx.seed if outcome else ""
    public_text, game_id, commitment = texts[0], ctx.game_id, ctx.seed_commitment
    # Every value a slot of this shape can take must be a string, each list's items too (a
    # value not in a slot, a player's name in the public report, is "": a string as well).
    scalars = (title, game_id, commitment, public_text, player or "", outcome or "", seed, private_block)
    if found is None or type(ctx.turn) is not int or set(map(type, scalars)) != {str}:
        return None
    if not set(map(type, chain(events, press, awaiting))) <= {str}:
        return None
    return found.fill(
        {
            "title": title,
            "game_id": game_id,
            "turn": str(ctx.turn),
            "seed_commitment": commitment,
            "public_text": public_text.rstrip(),
            "player": player or "",
            "outcome": outcome or "",
            "seed": seed,  # type: ignore[dict-item]
            "private_block": private_block.rstrip(),
            "events": "\n".join(events),
            "press": "\n".join(press),  # type: ignore[arg-type]
            "awaiting": ", ".join(awaiting),
        }
    )
