"""A game's variant options as players give them (``--option name=value``): checked against
the game's declared variants and converted to their types."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.errors import UsageError
from pbem.game import Game
from pbem.inputs import shorten


def option_name(game: Game, name: str) -> str:
    """The variant ``name`` means: itself, or for an old snake_case spelling (``max_rounds``)
    the kebab-case variant (``max-rounds``) when the game has one; else ``name`` unchanged."""
    known = {v.name for v in game.info.variants}
    kebab = name.replace("_", "-")
    return kebab if name not in known and kebab in known else name


def parse_options(game: Game, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check and convert ``--option name=value`` pairs against the game's variants (an old
    snake_case name is read as its kebab-case variant, see :func:`option_name`).

    Raises UsageError naming the unknown option or bad value and listing what is allowed.
    """
    variants = {v.name: v for v in game.info.variants}
    options: dict[str, Any] = {v.name: v.default for v in game.info.variants}
    seen: dict[str, str] = {}
    for raw_name, value in raw.items():
        name = option_name(game, raw_name)
        if name in seen:
            raise UsageError(f"option {name} is given twice (as {seen[name]} and {raw_name})")
        seen[name] = raw_name
        if name not in variants:
            known = ", ".join(variants) or "none"
            from difflib import get_close_matches  # here: pbem status reads options, start-up

            near = get_close_matches(name.lower(), list(variants), n=1, cutoff=0.75)
            raise UsageError(
                f"{game.info.name} has no option {shorten(name)!r}"
                + (f" (did you mean {near[0]!r}?)" if near else "")
                + f"; options: {known}",
                f"pbem games lists each game's options; pbem rules {game.info.name} says what they do",
            )
        variant = variants[name]
        text = str(value).strip().lower()
        if isinstance(variant.default, bool):
            if text not in {"true", "false", "yes", "no", "on", "off", "1", "0"}:
                raise UsageError(f"option {name} takes true or false, got {value!r}")
            options[name] = text in {"true", "yes", "on", "1"}
        elif isinstance(variant.default, int):
            if not re.fullmatch(r"-?[0-9]{1,9}", text, flags=re.ASCII):
                raise UsageError(
                    f"option {name} takes a whole number, got {shorten(str(value))!r} (at most 9 digits)"
                )
            options[name] = int(text)
        else:
            options[name] = str(value).strip()
        if variant.choices and options[name] not in variant.choices:
            raise UsageError(
                f"option {name} takes {choices_text(variant.choices)}, got {shorten(str(value))!r}",
                f"for example --option {name}={str(variant.default).lower()} (the default); "
                f"pbem rules {game.info.name} says what it does",
            )
    return options


def choices_text(choices: tuple[Any, ...]) -> str:
    """A variant's allowed values as a person reads them: "a whole number from 1 to 30" for a
    run of whole numbers, else "one of a, b, c".  Never raises."""
    numbers = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
    if len(numbers) == len(choices) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"a whole number from {numbers[0]} to {numbers[-1]}"
    return f"one of {', '.join(map(str, choices))}"
