"""What press (table talk, :mod:`pbem.press`) asks of Parasite: the phase a position stands in,
read from the public view only, so that a game's press rules can narrow talk in some phases.

The rulebook encourages talk at every moment ("Players are encouraged to discuss and question
other players' motives and actions"), so Parasite itself narrows nothing: every phase answers
``full`` and the press rules decide, e.g. ``pbem new parasite --press mode=full
--press phase.reaction-window=none`` for silence while Reactions and Interrupts are asked.

Phases: ``turn`` (a player's Turn and every question inside it), ``reaction-window`` (every
living player asked for Reactions or Interrupts, option ``reactions=windows``), ``infection``
(the Infection Phase), ``escape-phase`` (the Leader resolving Helipad cards) and ``end`` (Escape
or Stay behind, and the Dog's escape, when the Helipad deck is empty).

Dead players are not out of press: they keep their Win conditions and tokens, so they keep
their voice (ruling P-press in the README).
"""

from __future__ import annotations

from typing import Any

from pbem.game import View

PHASES = ("turn", "reaction-window", "infection", "escape-phase", "end")

_OF_PROCEDURE = {
    "turn": "turn",
    "round": "turn",
    "infection": "infection",
    "escape": "escape-phase",
    "final": "end",
}


def press_phase(game: object, view: View) -> tuple[str, str] | None:
    """The press phase of the public ``view``: (one of :data:`PHASES`, "full"), or None once
    the game is over (press is closed then)."""
    pub: dict[str, Any] = view.public
    if pub.get("over"):
        return None
    ask = pub.get("ask") or {}
    kind = (ask.get("question") or {}).get("kind")
    if kind == "window":
        return ("reaction-window", "full")
    if kind in ("escape", "dog-escape"):
        return ("end", "full")
    procedure = str((pub.get("proc") or {}).get("kind"))
    return (_OF_PROCEDURE.get(procedure, "turn"), "full")
