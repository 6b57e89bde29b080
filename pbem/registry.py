"""Finding installed games: the ``pbem.games`` entry point group.

A third-party package adds a game by declaring an entry point in that group whose value is
an object satisfying :class:`pbem.game.Game`.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem.game import Game

GROUP = "pbem.games"

# Used only when the package metadata is missing (running from a bare source tree).
_BUILTIN = {
    "symbiote": "pbem_games.symbiote:GAME",
    "jovian-syzygy": "pbem_games.jovian_syzygy:GAME",
    "symbioz": "pbem_games.symbioz:GAME",
    "parasite": "pbem_games.parasite:GAME",
}


def _load(spec: str) -> Game:
    module, _, attr = spec.partition(":")
    obj: Game = getattr(import_module(module), attr)
    return obj


@cache
def game_names() -> tuple[str, ...]:
    """Names of every installed game, sorted."""
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group=GROUP)}
    return tuple(sorted(names or _BUILTIN))


@cache
def get_game(name: str) -> Game:
    """The game registered as ``name``.  Raises UsageError naming the installed games.

    The games shipped with pbem load without reading the installed packages' metadata (24 ms
    at start-up); any other name is looked up among the entry points."""
    if name in _BUILTIN:
        try:
            return _load(_BUILTIN[name])
        except ImportError:  # a partial install: fall back on what is registered
            pass
    from importlib.metadata import entry_points

    for ep in entry_points(group=GROUP):
        if ep.name == name:
            game: Game = ep.load()
            return game
    if name in _BUILTIN and not any(True for _ in entry_points(group=GROUP)):
        return _load(_BUILTIN[name])
    from difflib import get_close_matches

    from pbem.inputs import shorten

    names = game_names()
    near = get_close_matches(name.lower().replace("_", "-").replace(" ", "-"), names, n=1, cutoff=0.6)
    raise UsageError(
        f"no game called {shorten(name)!r}"
        + (f" (did you mean {near[0]!r}?)" if near else "")
        + f"; installed games: {', '.join(names)}",
        "pbem games lists them with their player counts and options",
    )


def game_card_list(name: str) -> str:
    """The card list a game ships as a readable reference (72 columns): the
    ``reference_text()`` of the ``reference`` module beside the game's package (Parasite).
    Raises UsageError for an unknown game and for a game without a card list."""
    parts = type(get_game(name)).__module__.split(".")
    for end in range(len(parts), 1, -1):  # the module's package, then its parents
        try:
            reference = import_module(".".join([*parts[:end], "reference"]))
        except ModuleNotFoundError as error:
            if error.name != ".".join([*parts[:end], "reference"]):
                raise
            continue
        if callable(getattr(reference, "reference_text", None)):
            return str(reference.reference_text())
    raise UsageError(f"the game {name!r} has no card list", f"pbem rules {name} prints its rules")


def game_rules(name: str) -> str:
    """The rulebook summary a game ships: the README.md of its package (order syntax,
    variants, rulings).  Raises UsageError naming the installed games for an unknown one,
    and for a game installed without its README.md."""
    from importlib.resources import files

    game = get_game(name)
    package = type(game).__module__
    parts = package.split(".")
    for end in range(len(parts), 0, -1):  # the module's package, then its parents
        try:
            readme = files(".".join(parts[:end])).joinpath("README.md")
            if readme.is_file():
                return readme.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ModuleNotFoundError, TypeError):
            break
    raise UsageError(
        f"the game {name!r} ({package}) was installed without its rules (README.md)",
        "see the game's own documentation",
    )
