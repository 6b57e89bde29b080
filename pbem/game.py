"""The game plug-in API: what a game declares and the pure functions the engine calls.

The engine owns turns, phases, who must act, files, keys and crypto.  A game owns a JSON-only
state (dicts, lists, str, int, bool, None: never floats) and its rules, written as pure
functions of (state, orders, rng).  Every game module exposes one object, ``GAME``, that
satisfies :class:`Game`, registered under the ``pbem.games`` entry point group.

What a player may see flows through exactly one function, :meth:`Game.observe`.  It builds
the view as an allow-list: it copies the facts a seat may know into a fresh dict, never
deletes secrets from a copy of the state.  Order forms, order validation and bots work
from a :class:`View` only, so the offline checker (``pbem check``, which only has the
player's decrypted report) and the engine run the same code on the same input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pbem.padding import DEFAULT_PADDING, Padding

if TYPE_CHECKING:
    from pbem.rng import Rng

JSON = Any
"""A value made only of dict (str keys), list, str, int, bool and None."""

State = dict[str, Any]

_FRESH_DICT: Any = object()
"""The default of :class:`View`'s ``private``: a new empty dict for each view."""


@dataclass(frozen=True)
class Variant:
    """One option a game can be created with (``pbem new GAME --option name=value``).

    ``default`` fixes the type: a bool option takes true/false, an int option an integer
    (within ``choices`` when given), a str option one of ``choices``.
    """

    name: str
    description: str
    default: bool | int | str
    choices: tuple[int | str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """Facts about a game, declared as data."""

    name: str
    title: str
    min_players: int
    max_players: int
    summary: str
    hidden_information: bool
    variants: tuple[Variant, ...] = ()
    docs: str = ""
    """Path of the game's rules-and-rulings document, relative to the repository."""
    padding: Padding = DEFAULT_PADDING
    """Sizes the game's encrypted parts are padded to, so that no length says anything hidden
    (:mod:`pbem.padding`; ``tests/test_sizes.py`` checks that real games fit)."""


@dataclass(frozen=True, init=False)  # its own __init__ below
class Event:
    """Something that happened while resolving, for the turn report.

    ``to`` is None for an event every player may read; otherwise only those seats (and the
    moderator) see it, inside their encrypted section.
    """

    text: str
    to: tuple[int, ...] | None = None

    def __init__(self, text: str, to: tuple[int, ...] | None = None) -> None:
        # The __init__ dataclass would write, its fields put straight into the instance's dict
        # (games make events by the thousand; issue 13).  Equality, hash and repr are dataclass's.
        fields = self.__dict__
        fields["text"] = text
        fields["to"] = to

    def to_json(self) -> JSON:
        return {"text": self.text, "to": None if self.to is None else list(self.to)}

    @classmethod
    def from_json(cls, data: JSON) -> Event:
        to = data.get("to")
        return cls(text=data["text"], to=None if to is None else tuple(to))


@dataclass(frozen=True, init=False)  # its own __init__ below
class View:
    """What one seat (or the public, seat None) may see of a state.

    ``public`` is identical for every reader of the same state; ``private`` holds only what
    ``seat`` may know and is always encrypted to that seat (and the moderator).
    """

    game: str
    seat: int | None
    public: JSON
    private: JSON = field(default_factory=dict)

    def __init__(self, game: str, seat: int | None, public: JSON, private: JSON = _FRESH_DICT) -> None:
        # As :class:`Event`'s: a view is made for every seat at every step.  ``private``
        # defaults to a new empty dict, as ``field(default_factory=dict)`` says.
        fields = self.__dict__
        fields["game"] = game
        fields["seat"] = seat
        fields["public"] = public
        fields["private"] = {} if private is _FRESH_DICT else private


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.  ``winners`` may hold several seats, or none."""

    winners: tuple[int, ...]
    scores: tuple[int, ...] | None
    summary: str


@dataclass(frozen=True, init=False)  # its own __init__ below
class Resolution:
    """The result of :meth:`Game.resolve`: the next state and what to report."""

    state: State
    events: tuple[Event, ...] = ()

    def __init__(self, state: State, events: tuple[Event, ...] = ()) -> None:
        # As :class:`Event`'s: every resolved step makes one.
        fields = self.__dict__
        fields["state"] = state
        fields["events"] = events


@dataclass(frozen=True, init=False)  # its own __init__ below
class OrderLine:
    """One order as the player wrote it: its line number in the file and its text.

    ``text`` is stripped of the ``#`` comment and surrounding white space; blank lines never
    reach a game.
    """

    number: int
    text: str

    def __init__(self, number: int, text: str) -> None:
        # As :class:`Event`'s: an order file becomes one of these per line.
        fields = self.__dict__
        fields["number"] = number
        fields["text"] = text


class OrderError(ValueError):
    """One problem with one order line: which line, the text, what is wrong, what might fit.

    Subclasses split problems by kind, as python-chess does for moves.
    """

    kind = "invalid"

    def __init__(self, line: OrderLine | None, message: str, suggestion: str | None = None) -> None:
        self.line = line
        self.message = message
        self.suggestion = suggestion
        super().__init__(self.describe())

    def describe(self, filename: str | None = None, names: Sequence[str] = ()) -> str:
        """The problem in one line; with ``names``, the message names players, not seats
        (the order text and the suggestion are quoted exactly as they are)."""
        from pbem.wording import name_seats

        message = name_seats(self.message, names) if names else self.message
        where = filename or "orders"
        if self.line is not None:
            where += f", line {self.line.number}"
            head = f"{where}: {self.kind} order {self.line.text!r}: {message}"
        else:
            head = f"{where}: {message}"
        if self.suggestion:
            head += f" (did you mean {self.suggestion!r}?)"
        return head


class InvalidOrderError(OrderError):
    """The line cannot be read at all: unknown word, malformed card, wrong arity."""

    kind = "invalid"


class IllegalOrderError(OrderError):
    """The line reads fine but is not allowed now (not your card, wrong phase, ...)."""

    kind = "illegal"


class AmbiguousOrderError(OrderError):
    """The line could mean more than one legal order."""

    kind = "ambiguous"


class OrderErrors(ValueError):
    """All the problems found in one order file; raised by :meth:`Game.validate`."""

    def __init__(self, errors: Sequence[OrderError]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(e.describe() for e in self.errors))


def checked_suggestions(
    validate: Callable[[View, Sequence[OrderLine]], object],
    view: View,
    lines: Sequence[OrderLine],
    errors: Sequence[OrderError],
    steps: int = 4,
) -> list[OrderError]:
    """``errors`` with each "did you mean" suggestion checked against the rules: a suggestion
    that ``validate`` (a game's own check, which must not call this again) would refuse in its
    line's place is followed to the suggestion made for it, ``steps`` times at most, and
    dropped if none is taken.  A near miss fixed one word at a time ("grow C1 prefer B1 C1",
    three squares wrong) was answered with a suggestion the checker refused in turn.
    Returns the same error objects; raises what ``validate`` raises other than OrderErrors."""
    for error in errors:
        if error.suggestion is None or error.line is None:
            continue
        number, text, seen = error.line.number, error.suggestion, {error.line.text}
        error.suggestion = None
        for _ in range(steps):
            seen.add(text)
            trial = [OrderLine(number, text) if line.number == number else line for line in lines]
            try:
                validate(view, trial)
            except OrderErrors as exc:
                again = [e for e in exc.errors if e.line is not None and e.line.number == number]
                if again:
                    if again[0].suggestion is None or again[0].suggestion in seen:
                        break
                    text = again[0].suggestion
                    continue
            error.suggestion = text
            break
    return list(errors)


Bot = Callable[["Game", View, "Rng"], list[str]]
"""A bot reads its own view and writes order lines, exactly as a person would."""


class Game(Protocol):
    """The shape every game module's ``GAME`` object has."""

    info: GameInfo

    @property
    def bots(self) -> Mapping[str, Bot]:
        """At least ``random`` (uniform over legal orders) and ``greedy`` (sensible play).

        Read-only: pbem never sets it, and a game may compute it (a property, pbem.lazy)."""
        ...

    def setup(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        """Return the initial state for ``players`` seats (0-based) and validated options."""
        ...

    def to_act(self, state: State) -> tuple[int, ...]:
        """Seats that owe orders now, in the order they are asked; () once the game is over.

        May name several seats (simultaneous orders, reactions from non-active players).
        """
        ...

    def observe(self, state: State, seat: int | None) -> View:
        """The only path from a state to what a reader sees; an allow-list."""
        ...

    def order_form(self, view: View) -> list[str]:
        """Lines for a blank order form: ``#`` comments explaining what ``view.seat`` may do
        now, and suggested orders (commented out where a choice is needed)."""
        ...

    def validate(self, view: View, lines: Sequence[OrderLine]) -> JSON:
        """Parse and check orders against what the player can see; return them as JSON.

        Raises :class:`OrderErrors` listing every bad line.
        """
        ...

    def default_orders(self, view: View) -> list[str]:
        """Orders used when a seat sends none and the policy says so (civil disorder)."""
        ...

    def resolve(self, state: State, orders: Mapping[int, JSON], rng: Rng) -> Resolution:
        """Apply the validated orders of every seat in ``to_act(state)``; pure."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on."""
        ...

    def describe(self, view: View) -> tuple[str, str]:
        """Report text for a view: (public text, private text).  Games may render with the
        Jinja2 templates under ``templates/<game>/`` through :func:`pbem.render.render`.

        Games refer to seats as "player N" (1-based) here, in events and in outcome
        summaries; the engine puts the players' names in.  The engine lists the turn's
        events itself, so this text describes the position, not what just happened."""
        ...

    def pictures(self, view: View) -> dict[str, str]:
        """Files to attach to a report, name -> text (an SVG board, say); may be empty.
        Only public facts may be drawn: pictures are not encrypted."""
        ...


Chartable = Mapping[str, Mapping[int, int]]
"""What :meth:`Archived.charts` returns: chart title -> {seat: whole number}."""


class Archived(Protocol):
    """Optional hooks for ``pbem archive`` (:mod:`pbem.archive`); a game may have either,
    both or none (the engine looks each up with ``getattr``, as it does ``redraw``).

    A game keeps them in ``games/<game>/charts.py`` and exposes them on its ``GAME``
    object; Parasite, say, would chart health and tokens from its views.
    """

    def charts(self, view: View) -> Chartable:
        """What the game scores, as far as ``view`` tells it: chart title -> {seat: value}
        (whole numbers), for the seats whose value this view shows.  The archive calls it
        on every turn's views and draws one line per player over the turns (inline SVG):
        for the full archive it takes each player's value from that player's own view (or
        the public view), for a player's archive only from the views that player read, so
        a chart never shows what its reader could not see.  Absent: no charts."""
        ...

    def order_lines(self, view: View, orders: JSON) -> list[str]:
        """``orders`` (what :meth:`Game.validate` returned for ``view``) written back as
        order lines a player could have written; the archive shows them where it cannot
        read the player's own text (a finished game's saves keep only this JSON).  Must
        not raise for orders ``validate`` returned.  Absent: the archive shows the JSON."""
        ...

    def chart_colours(self, players: int) -> Sequence[str]:
        """Each seat's colour (``#rrggbb``) in the archive's charts and players list, so that a
        line has the colour the player wears on the board.  Absent: the archive's palette."""
        ...


class DescribedOnce(Protocol):
    """An optional hook for rendering a turn's reports faster (issue 13); the engine looks
    it up with ``getattr``.

    A game whose public text (the first part of :meth:`Game.describe`) depends on
    ``view.public`` alone, as every reader's public part should, may give the private text
    by itself.  The engine then describes the public view once a turn and asks each reader
    only for this; a view whose ``public`` differs from the public view's is described in
    full, as without the hook.  It must return exactly ``describe(view)[1]``."""

    def describe_private(self, view: View) -> str:
        """The private text of ``view`` (a player's view), exactly ``describe(view)[1]``."""
        ...


class ObservedOnce(Protocol):
    """An optional hook for the views of a turn's reports (issue 13); the engine looks it up
    with ``getattr``.  It must return exactly ``[observe(state, seat) for seat in seats]``
    (equal views), and may give every view the same ``public`` object, built once: the
    engine only reads the views it asks for all at once."""

    def observe_all(self, state: State, seats: Sequence[int | None]) -> list[View]:
        """The view of ``state`` for each of ``seats`` (None: the public view), in order."""
        ...


def bot_orders(game: Game, state: State, bot: str, rng_for: Callable[[int], Rng]) -> dict[int, JSON]:
    """The validated orders of every seat in ``game.to_act(state)``, each written by the
    ``bot`` from that seat's own view as a person's would be, with ``rng_for(seat)``: one
    engine-only step for benchmarks and property tests.  Raises OrderErrors if a bot writes
    a file its game refuses (a bug in the bot)."""
    orders: dict[int, JSON] = {}
    for seat in game.to_act(state):
        view = game.observe(state, seat)
        lines = game.bots[bot](game, view, rng_for(seat))
        orders[seat] = game.validate(view, [OrderLine(i + 1, text) for i, text in enumerate(lines)])
    return orders
