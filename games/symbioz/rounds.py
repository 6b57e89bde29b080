"""One order round per phase (option ``order-rounds=phase``): who is asked, and one phase played.

With one order round per turn (the default) every player writes the whole turn at once and
``phases.resolve_turn`` plays the four phases.  With ``order-rounds=phase`` the state keeps
``phase`` (1 introduction, 2 multiplication, 3 Kroguls, 4 Crapits): each pbem turn asks for
that phase's orders only, from the players who have something to decide in it, and
:func:`resolve_phase` plays it, so each phase is written after seeing the previous one's
result.  A phase in which nobody has anything to decide (no Krogul on the board, say) gets
no order round: it is played at once with the automatic defaults, in the same resolution,
and the events say so.  The game's turn is then shown to players as the *round* (1-12);
the pbem turn counts order rounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import Event, Resolution

from .phases import Turn, finish, play_phase
from .state import (
    PAWNS,
    PHASE_VERBS,
    PHASES,
    SATURATION,
    State,
    births,
    buy_limit,
    buyable_squares,
    colour_name,
    cost,
    options_of,
    phase_rounds,
    play_order,
)

MAX_PHASES = 4 * 12 + 4
"""Phases one resolution may play at most (every remaining phase of the game, and then some)."""


def phase_title(phase: int) -> str:
    """``phase 2 of 4: multiplication (grow orders)``, for reports and forms."""
    return f"phase {phase} of 4: {PHASES[phase - 1]} ({PHASE_VERBS[phase - 1]} orders)"


def has_choice(data: Mapping[str, Any], seat: int, phase: int) -> bool:
    """Whether ``seat`` has anything to decide in ``phase`` of the current round (works on a
    state or a public view): something it can afford to buy and place; a square that breeds;
    a Krogul or a Crapit in a square where it has something to eat (one that has nothing
    is removed whatever its owner writes)."""
    if phase == 1:
        if data["turn"] == 1:
            return False
        options = options_of(data)
        for pawn in PAWNS:
            if cost(options, pawn) > options["points"] or data["supply"][pawn][seat] == 0:
                continue
            for sq in buyable_squares(data, seat, pawn):
                if pawn != "zerb":
                    return True
                limit = buy_limit(options, sq, data["zerbs"][sq][seat])
                if SATURATION - sum(data["zerbs"][sq]) > 0 and limit != 0:
                    return True
        return False
    if phase == 2:
        if data["supply"]["zerb"][seat] == 0:
            return False
        return any(
            births(sq, row[seat]) > 0 for sq, row in data["zerbs"].items() if sq not in data["symbioz"]
        )
    herd, prey = ("kroguls", "crapits") if phase == 3 else ("crapits", "zerbs")
    return any(row[seat] > 0 and sum(data[prey][sq]) > 0 for sq, row in data[herd].items())


def asked(data: Mapping[str, Any]) -> tuple[int, ...]:
    """Seats whose orders this order round awaits, in play order (state or view)."""
    if data["over"]:
        return ()
    seats = play_order(data["players"], data["first"])
    return tuple(s for s in seats if has_choice(data, s, data["phase"]))


def start(state: State) -> State:
    """The state of a new game with its first order round set: phase 2 of round 1 in phase
    mode (round 1 has no introduction), unchanged in turn mode."""
    if not phase_rounds(state):
        return state
    out, _ = _settle(dict(state, phase=2), [])
    return out


def _next(state: State, phase: int, turn: Turn) -> State:
    """The state after ``turn`` played ``phase``: the next phase, or after the last one the
    end of the turn, the win check and phase 1 of the next round."""
    if phase < 4:
        return dict(turn.state(state), phase=phase + 1)
    turn.end_of_turn()
    new, closing = finish(turn.state(state))
    if closing:
        turn.events.append(closing)
    if not new["over"]:
        new["phase"] = 1
    return new


def _settle(state: State, events: list[str]) -> tuple[State, list[str]]:
    """Play, with the automatic defaults, every phase in which nobody has a choice, until a
    phase asks someone or the game ends."""
    for _ in range(MAX_PHASES):
        if state["over"] or asked(state):
            return state, events
        phase = state["phase"]
        turn = Turn(state)
        turn.events.append(_header(state) + ": no order round, nobody has anything to decide")
        play_phase(turn, phase, play_order(state["players"], state["first"]), {})
        state = _next(state, phase, turn)
        events.extend(turn.events)
    raise AssertionError("a Symbioz game outlived its 12 rounds")  # pragma: no cover


def _header(state: State) -> str:
    return f"Round {state['turn']}, {phase_title(state['phase'])}"


def resolve_phase(state: State, orders: Mapping[int, Any]) -> Resolution:
    """Play the phase whose orders were awaited, then every following phase in which nobody
    has a choice (automatic defaults), up to the next order round or the end of the game.
    Pure: ``state`` is not changed.  Raises ValueError when the game is already over."""
    if state["over"]:
        raise ValueError("the game is over: there is no phase to resolve")
    phase = state["phase"]
    turn = Turn(state)
    seats = play_order(state["players"], state["first"])
    turn.events.append(_header(state) + ": play order " + ", ".join(colour_name(s) for s in seats))
    play_phase(turn, phase, seats, orders)
    new = _next(state, phase, turn)
    events = list(turn.events)
    new, events = _settle(new, events)
    return Resolution(new, tuple(Event(text) for text in events))
