"""Parasite's card set: the TOML files under ``data/`` read and checked into frozen values.

Every word a card uses (verb, target, trigger, condition, Dog criterion) must be one of the
vocabulary of games/parasite/EFFECTS.md, the contract between the card data and the rules code
(games/parasite/effects.py executes it).  A card that uses an unknown word, misses a parameter
or has one of the wrong kind is refused with :class:`CardDataError`, naming the file, the line,
the card and the word, and listing the words allowed there.

:func:`load_cards` reads the shipped set once per process (cached); :func:`parse_set` reads
any set of texts (tests, the content author's drafts).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any

from pbem.errors import FormatError

FILES = ("characters", "office", "storehouse", "laboratory", "helipad", "infection", "dog")
LOCATION_DECKS = ("office", "storehouse", "laboratory")
DECKS = (*LOCATION_DECKS, "helipad")
PLAYER_COUNTS = (4, 5, 6, 7, 8)

# ---------------------------------------------------------------------------- the vocabulary

TARGETS = (
    "self",
    "other-here",
    "any-other",
    "anyone",
    "others-here",
    "all-here",
    "everyone",
    "source",
    "leader",
    "dead",
    "on-mission",
    "off-mission",
    "leader-picks",
    "dog",
)
HELIPAD_TARGETS = ("on-mission", "off-mission", "leader-picks")
CHOSEN_TARGETS = ("other-here", "any-other", "anyone", "dead", "leader-picks")
"""Targets that name one player chosen by someone (the others name a fixed group)."""

TRIGGERS = (
    "distressed-by",
    "targeted",
    "distress-here",
    "death",
    "tested",
    "activate",
    "move-in",
    "escape-phase",
    "infection-phase",
    "game-end",
)
INTERRUPT_TRIGGERS = ("distressed-by", "targeted", "distress-here")
"""Triggers that fire before what triggered them (an Interrupt can stop it)."""

CONDITIONS = (
    "escaped",
    "stayed",
    "alive",
    "dead",
    "healthy",
    "no-parasite-escaped",
    "parasite-escaped",
    "carrying-parasite-token",
    "your-token-escaped",
    "humans-escaped",
    "escaped-at-most",
    "all-humans-dead",
    "all-parasites-dead",
    "dog-escaped",
)
COUNTED_CONDITIONS = ("your-token-escaped", "humans-escaped", "escaped-at-most")

SEEKS = ("distressed", "healthy", "alone", "violent", "leader", "most-cards", "crowd")

MOVE_TO = (*DECKS, "here", "any")
DRAW_DECKS = (*LOCATION_DECKS, "here")
LOOK_DECKS = DECKS

# verb -> (required parameters, optional parameters with defaults)
_VERBS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "distress": (("who",), {}),
    "heal": (("who",), {}),
    "kill": (("who",), {}),
    "revive": (("who", "as"), {}),
    "draw": (("deck", "count"), {}),
    "draw-keep": (("deck", "count", "keep"), {}),
    "discard": (("who", "count"), {"pick": "owner"}),
    "steal": (("who", "count"), {}),
    "give": (("who", "count"), {}),
    "look-deck": (("deck", "count"), {}),
    "look-hand": (("who",), {}),
    "test": (("who",), {}),
    "reveal": ((), {}),
    "unreveal": (("who",), {}),
    "infect": (("who",), {}),
    "move": (("who", "to"), {}),
    "take-token": (("who",), {}),
    "drop-token": (("who", "count"), {}),
    "pass-leader": (("who",), {}),
    "extra-action": ((), {}),
    "cancel": ((), {}),
    "prevent": ((), {}),
    "end-game": ((), {}),
    "choose": (("options",), {}),
}
VERBS = tuple(_VERBS)


class CardDataError(FormatError):
    """The card data breaks the schema of games/parasite/EFFECTS.md (a broken install or a
    mistake in a draft of the data): names the file, line, card and offending word."""


# ---------------------------------------------------------------------------- the values


@dataclass(frozen=True)
class Step:
    """One step of an effect list: ``{ do = VERB, ... }``.  ``options`` only for ``choose``."""

    do: str
    who: str | None = None
    deck: str | None = None
    count: int = 1
    keep: int = 0
    pick: str = "owner"
    to: str | None = None
    revive_as: str | None = None
    options: tuple[tuple[Step, ...], ...] = ()


@dataclass(frozen=True)
class Card:
    """An Office, Storehouse, Laboratory or Helipad card (one entry; ``copies`` physical cards)."""

    id: str
    name: str
    deck: str
    kind: str
    icon: str
    copies: int
    text: str
    trigger: str | None = None
    effects: tuple[Step, ...] = ()
    use: tuple[Step, ...] = ()
    keep: bool = False
    required: tuple[tuple[int, int], ...] = ()
    pass_: tuple[Step, ...] = ()
    fail: tuple[Step, ...] = ()

    def needed(self, players: int) -> int:
        """Players a Mission needs on it to PASS with ``players`` in the game."""
        return dict(self.required)[players]


@dataclass(frozen=True)
class Condition:
    """A Win or Lose condition: ``{ if = WORD, n = N }``."""

    word: str
    n: int = 1


@dataclass(frozen=True)
class Ability:
    """An ability of an Infection card or a character side: when it may be used and its steps."""

    when: str
    effects: tuple[Step, ...]


@dataclass(frozen=True)
class Infection:
    """An Infection card."""

    id: str
    name: str
    side: str
    priority: int
    text: str
    win: tuple[Condition, ...]
    lose: tuple[Condition, ...]
    revealable: bool
    ability: Ability | None = None
    dog_only: bool = False


@dataclass(frozen=True)
class Side:
    """One side (Healthy or Distressed) of a character card."""

    text: str
    ability: Ability | None = None


@dataclass(frozen=True)
class Character:
    """A character card."""

    id: str
    name: str
    role: str
    colour: str
    starting: tuple[str, ...]
    healthy: Side
    distressed: Side


@dataclass(frozen=True)
class DogSide:
    """One side of the Dog: its movement criteria and what it does to players near it."""

    text: str
    seeks: tuple[str, ...]
    activate: tuple[Step, ...] = ()
    action: tuple[Step, ...] = ()
    punish: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Dog:
    """The Dog's character card and reference card."""

    id: str
    name: str
    text: str
    healthy: DogSide
    distressed: DogSide
    reference: str


@dataclass(frozen=True)
class CardSet:
    """The whole set, checked."""

    characters: tuple[Character, ...]
    cards: Mapping[str, Card]
    infections: Mapping[str, Infection]
    dog: Dog
    composition: Mapping[int, tuple[int, int]]
    """player count -> (Human cards, Parasite cards) drawn for the infection deck"""
    adjust: Mapping[str, tuple[int, int]]
    """difficulty -> (Human cards, Parasite cards) added for every player count"""
    decks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """deck -> one card id per physical card, in data order"""

    def card(self, card_id: str) -> Card:
        """The card with this id.  Raises KeyError."""
        return self.cards[card_id]

    def character(self, char_id: str) -> Character:
        """The character with this id.  Raises KeyError."""
        for c in self.characters:
            if c.id == char_id:
                return c
        raise KeyError(char_id)

    def humans(self, dog: bool = False) -> tuple[str, ...]:
        """Ids of the Human Infection cards (the Dog Lover only with ``dog``)."""
        return tuple(i.id for i in self.infections.values() if i.side == "human" and (dog or not i.dog_only))

    def parasites(self) -> tuple[str, ...]:
        """Ids of the Parasite Infection cards."""
        return tuple(i.id for i in self.infections.values() if i.side == "parasite" and not i.dog_only)


# ---------------------------------------------------------------------------- reading


class _Reader:
    """Checks one file's entries, raising CardDataError that names file, line and card."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.lines = text.splitlines()
        self.where = ""
        self.line = 0

    def at(self, entry_id: str, key: str = "id") -> None:
        """Point errors at the entry whose ``key = "entry_id"`` line comes first."""
        self.where = entry_id
        needle = f'"{entry_id}"'
        for number, line in enumerate(self.lines, 1):
            stripped = line.replace(" ", "")
            if stripped.startswith(f"{key}=") and needle.replace(" ", "") in stripped:
                self.line = number
                return
        self.line = 0

    def fail(self, message: str, hint: str | None = None) -> CardDataError:
        place = f"data/{self.name}.toml"
        if self.line:
            place += f", line {self.line}"
        if self.where:
            place += f" ({self.where})"
        return CardDataError(
            f"{place}: {message}",
            hint or "the words and fields allowed are listed in games/parasite/EFFECTS.md",
        )

    # -- primitive fields

    def table(self, data: Any, what: str) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            raise self.fail(f"{what} should be a table, not {_short(data)}")
        return data

    def only(self, data: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
        for key in data:
            if key not in allowed:
                raise self.fail(f"unknown field {key!r} in {what}; fields: {', '.join(allowed)}")

    def text(self, data: Mapping[str, Any], key: str, what: str, default: str | None = None) -> str:
        value = data.get(key, default)
        if value is None:
            raise self.fail(f"{what} has no {key!r}")
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{key!r} of {what} should be a non-empty string, not {_short(value)}")
        return value

    def word(self, value: Any, allowed: Sequence[str], what: str) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(f"unknown {what} {_short(value)}; {what}s: {', '.join(allowed)}")
        return value

    def number(self, value: Any, what: str, low: int = 0, high: int = 99) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{what} should be a whole number from {low} to {high}, not {_short(value)}")
        return value

    def flag(self, data: Mapping[str, Any], key: str, default: bool = False) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{key!r} should be true or false, not {_short(value)}")
        return value

    # -- steps

    def steps(self, data: Any, what: str, context: frozenset[str]) -> tuple[Step, ...]:
        """A list of steps.  ``context`` names what the steps may use: "helipad" (the
        Helipad-only targets), "source" (a triggered effect), "revive", "ability"."""
        if not isinstance(data, list):
            raise self.fail(f"{what} should be a list of steps, not {_short(data)}")
        return tuple(self.step(item, what, context) for item in data)

    def step(self, data: Any, what: str, context: frozenset[str]) -> Step:
        step = self.table(data, f"a step of {what}")
        verb = self.word(step.get("do"), VERBS, "verb")
        required, optional = _VERBS[verb]
        allowed = ("do", *required, *optional)
        for key in step:
            if key not in allowed:
                raise self.fail(
                    f"verb {verb!r} takes no {key!r}; it takes: {', '.join(allowed[1:]) or 'nothing'}"
                )
        for key in required:
            if key not in step:
                raise self.fail(f"verb {verb!r} needs {key!r} (in {what})")
        if verb == "choose":
            options = step["options"]
            if not isinstance(options, list) or len(options) < 2:
                raise self.fail(f"'choose' needs a list of at least two options, not {_short(options)}")
            return Step(
                do=verb,
                options=tuple(self.steps(o, f"an option of {what}", context) for o in options),
            )
        who = None
        if "who" in step:
            who = self.word(step["who"], TARGETS, "target")
            if who in HELIPAD_TARGETS and "helipad" not in context:
                raise self.fail(f"target {who!r} is for Helipad cards only")
            if who == "source" and "source" not in context:
                raise self.fail("target 'source' needs a trigger (a Reaction, Interrupt or passive)")
            if (who == "dead") != (verb == "revive"):
                raise self.fail("'revive' takes exactly the target 'dead', and only 'revive' takes it")
        if verb in ("reveal", "end-game") and "ability" not in context:
            raise self.fail(f"verb {verb!r} is for Infection abilities only")
        if verb == "cancel" and "interrupt" not in context:
            raise self.fail("verb 'cancel' is for Interrupts only")
        if verb == "prevent" and "passive" not in context:
            raise self.fail("verb 'prevent' is for passive items only")
        deck = None
        if "deck" in step:
            decks = LOOK_DECKS if verb == "look-deck" else DRAW_DECKS
            deck = self.word(step["deck"], decks, "deck")
        count = self.number(step.get("count", 1), f"'count' of {verb!r}", 1, 9)
        keep = 0
        if verb == "draw-keep":
            keep = self.number(step["keep"], "'keep' of 'draw-keep'", 1, 9)
            if keep >= count:
                raise self.fail(f"'draw-keep' keeps {keep} of {count}: keep fewer than it draws")
        pick = self.word(step.get("pick", "owner"), ("owner", "random"), "pick")
        to = self.word(step["to"], MOVE_TO, "destination") if "to" in step else None
        revive_as = self.word(step["as"], ("healthy", "distressed"), "condition") if "as" in step else None
        return Step(
            do=verb, who=who, deck=deck, count=count, keep=keep, pick=pick, to=to, revive_as=revive_as
        )

    def conditions(self, data: Any, what: str) -> tuple[Condition, ...]:
        if not isinstance(data, list) or not data:
            raise self.fail(f"{what} should be a non-empty list of conditions, not {_short(data)}")
        out = []
        for item in data:
            cond = self.table(item, f"a condition of {what}")
            word = self.word(cond.get("if"), CONDITIONS, "condition")
            self.only(cond, ("if", "n") if word in COUNTED_CONDITIONS else ("if",), f"condition {word!r}")
            out.append(Condition(word, self.number(cond.get("n", 1), f"'n' of {word!r}", 0, 9)))
        return tuple(out)

    def ability(self, data: Any, what: str, extra: frozenset[str] = frozenset()) -> Ability | None:
        if data is None:
            return None
        ab = self.table(data, what)
        self.only(ab, ("when", "effects"), what)
        when = self.word(ab.get("when"), ("action", *TRIGGERS), "ability time")
        context = extra | ({"source"} if when != "action" else set())
        return Ability(when, self.steps(ab.get("effects"), what, frozenset(context)))


def _short(value: Any, limit: int = 60) -> str:
    """``repr`` of a value, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_CARD_FIELDS = (
    "id", "name", "deck", "kind", "icon", "copies", "text", "trigger", "effects", "use", "keep",
    "required", "pass", "fail",
)  # fmt: skip
_ICON_OF_KIND = {"item": ("item",), "event": ("event",), "basic": ("action", "reaction", "interrupt")}


def _card(r: _Reader, data: Any, deck_file: str, seen: set[str]) -> Card:
    raw = r.table(data, "a [[card]]")
    card_id = r.text(raw, "id", "a [[card]]")
    r.at(card_id)
    if card_id in seen:
        raise r.fail(f"the id {card_id!r} is used twice", "every card needs its own id")
    seen.add(card_id)
    r.only(raw, _CARD_FIELDS, "a card")
    deck = r.word(raw.get("deck", deck_file), DECKS, "deck")
    if deck != deck_file:
        raise r.fail(f"a card of deck {deck!r} in data/{deck_file}.toml")
    name = r.text(raw, "name", "the card")
    text = r.text(raw, "text", "the card")
    copies = r.number(raw.get("copies", 1), "'copies'", 1, 24)
    if deck == "helipad":
        kind = r.word(raw.get("kind"), ("crisis", "mission"), "Helipad kind")
        r.only(
            raw, ("id", "name", "deck", "kind", "copies", "text", "required", "pass", "fail", "effects"), kind
        )
        helipad = frozenset({"helipad"})
        if kind == "crisis":
            return Card(
                card_id,
                name,
                deck,
                kind,
                kind,
                copies,
                text,
                effects=r.steps(raw.get("effects"), "effects", helipad),
            )
        req = r.table(raw.get("required"), "'required'")
        required = []
        for n in PLAYER_COUNTS:
            if str(n) not in req:
                raise r.fail(f"'required' has no entry for {n} players")
            required.append((n, r.number(req[str(n)], f"'required' for {n} players", 1, n)))
        r.only(req, [str(n) for n in PLAYER_COUNTS], "'required'")
        return Card(
            card_id,
            name,
            deck,
            kind,
            kind,
            copies,
            text,
            required=tuple(required),
            pass_=r.steps(raw.get("pass"), "pass", helipad),
            fail=r.steps(raw.get("fail"), "fail", helipad),
        )
    kind = r.word(raw.get("kind"), tuple(_ICON_OF_KIND), "kind")
    icon = r.word(raw.get("icon"), _ICON_OF_KIND[kind], f"icon of a {kind} card")
    trigger = None
    if "trigger" in raw:
        trigger = r.word(raw["trigger"], TRIGGERS, "trigger")
    needs_trigger = icon in ("reaction", "interrupt")
    if needs_trigger and trigger is None:
        raise r.fail(f"a {icon} needs a 'trigger'")
    if (kind == "event" or icon == "action") and trigger is not None:
        raise r.fail(f"an {icon} card has no 'trigger'")
    context = {"source"} if trigger else set()
    if icon == "interrupt":
        if trigger not in INTERRUPT_TRIGGERS:
            raise r.fail(
                f"an Interrupt fires before what triggers it; trigger {trigger!r} is not such a moment",
                f"use one of {', '.join(INTERRUPT_TRIGGERS)}",
            )
        context.add("interrupt")
    if kind == "item":
        context.add("passive")
    use: tuple[Step, ...] = ()
    effects: tuple[Step, ...] = ()
    if kind == "item":
        if "use" in raw:
            use = r.steps(raw["use"], "use", frozenset())
        if "effects" in raw:
            if trigger is None:
                raise r.fail("an item's 'effects' need a 'trigger' (or write them as 'use')")
            effects = r.steps(raw["effects"], "effects", frozenset(context))
        elif trigger is not None:
            raise r.fail("an item with a 'trigger' needs 'effects'")
        if not use and not effects:
            raise r.fail("an item needs 'use', or 'trigger' and 'effects'")
    else:
        if "use" in raw or "keep" in raw:
            raise r.fail("only items have 'use' and 'keep'")
        effects = r.steps(raw.get("effects"), "effects", frozenset(context))
        if not effects:
            raise r.fail("the card has no effects")
    for key in ("required", "pass", "fail"):
        if key in raw:
            raise r.fail(f"{key!r} is for Missions only")
    return Card(
        card_id,
        name,
        deck,
        kind,
        icon,
        copies,
        text,
        trigger=trigger,
        effects=effects,
        use=use,
        keep=r.flag(raw, "keep"),
    )


def _character(r: _Reader, data: Any, seen: set[str]) -> Character:
    raw = r.table(data, "a [[character]]")
    char_id = r.text(raw, "id", "a [[character]]")
    r.at(char_id)
    if char_id in seen:
        raise r.fail(f"the id {char_id!r} is used twice")
    seen.add(char_id)
    r.only(raw, ("id", "name", "role", "colour", "starting", "healthy", "distressed"), "a character")
    starting = raw.get("starting")
    if not isinstance(starting, list) or not starting:
        raise r.fail(f"'starting' should list one deck per starting card, not {_short(starting)}")
    sides = []
    for side_name in ("healthy", "distressed"):
        side = r.table(raw.get(side_name), f"the {side_name} side")
        r.only(side, ("text", "ability"), f"the {side_name} side")
        sides.append(
            Side(
                r.text(side, "text", f"the {side_name} side"),
                r.ability(side.get("ability"), f"the {side_name} side's ability"),
            )
        )
    return Character(
        char_id,
        r.text(raw, "name", "the character"),
        r.text(raw, "role", "the character"),
        r.text(raw, "colour", "the character"),
        tuple(r.word(d, LOCATION_DECKS, "starting deck") for d in starting),
        sides[0],
        sides[1],
    )


def _infection(r: _Reader, data: Any, seen: set[str], priorities: dict[int, str]) -> Infection:
    raw = r.table(data, "an [[infection]]")
    inf_id = r.text(raw, "id", "an [[infection]]")
    r.at(inf_id)
    if inf_id in seen:
        raise r.fail(f"the id {inf_id!r} is used twice")
    seen.add(inf_id)
    r.only(
        raw,
        ("id", "name", "side", "priority", "text", "win", "lose", "revealable", "ability", "dog_only"),
        "an Infection card",
    )
    priority = r.number(raw.get("priority"), "'priority'", 0, 99)
    if priority in priorities:
        raise r.fail(f"priority {priority} is also {priorities[priority]!r}'s", "priorities are unique")
    priorities[priority] = inf_id
    revealable = r.flag(raw, "revealable")
    ability = r.ability(raw.get("ability"), "the ability", frozenset({"ability"}))
    if ability is not None:
        reveals = any(s.do == "reveal" for s in ability.effects)
        if reveals and not revealable:
            raise r.fail("the ability reveals the card, but 'revealable' is false")
    return Infection(
        inf_id,
        r.text(raw, "name", "the card"),
        r.word(raw.get("side"), ("human", "parasite"), "side"),
        priority,
        r.text(raw, "text", "the card"),
        r.conditions(raw.get("win"), "'win'"),
        r.conditions(raw["lose"], "'lose'") if "lose" in raw else (),
        revealable,
        ability,
        r.flag(raw, "dog_only"),
    )


def _pair(r: _Reader, data: Any, what: str) -> tuple[int, int]:
    entry = r.table(data, what)
    r.only(entry, ("human", "parasite"), what)
    return (
        r.number(entry.get("human", 0), f"'human' of {what}", 0, 20),
        r.number(entry.get("parasite", 0), f"'parasite' of {what}", 0, 20),
    )


def _dog(r: _Reader, raw: Mapping[str, Any]) -> Dog:
    r.only(raw, ("dog", "reference"), "data/dog.toml")
    dog = r.table(raw.get("dog"), "[dog]")
    r.at(str(dog.get("id", "")))
    r.only(dog, ("id", "name", "text", "healthy", "distressed"), "[dog]")
    sides = []
    for side_name in ("healthy", "distressed"):
        side = r.table(dog.get(side_name), f"[dog.{side_name}]")
        r.only(side, ("text", "seeks", "activate", "action", "punish"), f"[dog.{side_name}]")
        seeks = side.get("seeks")
        if not isinstance(seeks, list) or not seeks:
            raise r.fail(f"[dog.{side_name}] 'seeks' should list movement criteria, not {_short(seeks)}")
        sides.append(
            DogSide(
                r.text(side, "text", f"[dog.{side_name}]"),
                tuple(r.word(s, SEEKS, "criterion") for s in seeks),
                r.steps(side.get("activate", []), "activate", frozenset()),
                r.steps(side.get("action", []), "action", frozenset()),
                r.steps(side.get("punish", []), "punish", frozenset({"source"})),
            )
        )
    ref = r.table(raw.get("reference"), "[reference]")
    r.only(ref, ("text",), "[reference]")
    return Dog(
        r.text(dog, "id", "[dog]"),
        r.text(dog, "name", "[dog]"),
        r.text(dog, "text", "[dog]"),
        sides[0],
        sides[1],
        r.text(ref, "text", "[reference]"),
    )


def parse_set(texts: Mapping[str, str]) -> CardSet:
    """Read and check a whole card set from the text of each file (keys: :data:`FILES`).

    Raises CardDataError for a missing file, a file that is not TOML, and any entry that
    breaks the schema or uses a word outside the vocabulary."""
    parsed: dict[str, Mapping[str, Any]] = {}
    for name in FILES:
        if name not in texts:
            raise CardDataError(f"data/{name}.toml is missing", "the card set needs every file of EFFECTS.md")
        try:
            parsed[name] = tomllib.loads(texts[name])
        except tomllib.TOMLDecodeError as error:
            raise CardDataError(f"data/{name}.toml is not TOML: {error}", "fix the file's syntax") from None
    readers = {name: _Reader(name, texts[name]) for name in FILES}
    seen: set[str] = set()
    r = readers["characters"]
    r.only(parsed["characters"], ("character",), "data/characters.toml")
    raw_chars = parsed["characters"].get("character")
    if not isinstance(raw_chars, list) or not raw_chars:
        raise r.fail("no [[character]] entries")
    characters = tuple(_character(r, c, seen) for c in raw_chars)
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for deck in DECKS:
        r = readers[deck]
        r.only(parsed[deck], ("card",), f"data/{deck}.toml")
        entries = parsed[deck].get("card")
        if not isinstance(entries, list) or not entries:
            raise r.fail("no [[card]] entries")
        ids: list[str] = []
        for entry in entries:
            card = _card(r, entry, deck, seen)
            cards[card.id] = card
            ids += [card.id] * card.copies
        decks[deck] = tuple(ids)
    r = readers["infection"]
    r.only(parsed["infection"], ("deck", "adjust", "infection"), "data/infection.toml")
    infections: dict[str, Infection] = {}
    priorities: dict[int, str] = {}
    entries = parsed["infection"].get("infection")
    if not isinstance(entries, list) or not entries:
        raise r.fail("no [[infection]] entries")
    for entry in entries:
        inf = _infection(r, entry, seen, priorities)
        infections[inf.id] = inf
    r.where, r.line = "", 0
    deck_table = r.table(parsed["infection"].get("deck"), "[deck]")
    r.only(deck_table, [str(n) for n in PLAYER_COUNTS], "[deck]")
    composition = {}
    n_humans = sum(1 for i in infections.values() if i.side == "human" and not i.dog_only)
    n_parasites = sum(1 for i in infections.values() if i.side == "parasite")
    adjust_table = r.table(parsed["infection"].get("adjust", {"standard": {}}), "[adjust]")
    adjust = {str(k): _pair(r, v, f"[adjust] {k}") for k, v in adjust_table.items()}
    if "standard" not in adjust:
        raise r.fail("[adjust] has no 'standard' entry")
    for n in PLAYER_COUNTS:
        if str(n) not in deck_table:
            raise r.fail(f"[deck] has no entry for {n} players")
        humans, parasites = _pair(r, deck_table[str(n)], f"[deck] {n}")
        if humans + parasites < n:
            raise r.fail(f"[deck] deals {n} players from only {humans + parasites} cards")
        for level, (h, p) in adjust.items():
            if humans + h > n_humans or parasites + p > n_parasites:
                raise r.fail(
                    f"[deck] {n} with difficulty {level!r} needs {humans + h} Human and {parasites + p} "
                    f"Parasite cards; the set has {n_humans} and {n_parasites}"
                )
        composition[n] = (humans, parasites)
    dog = _dog(readers["dog"], parsed["dog"])
    if sum(1 for i in infections.values() if i.dog_only) > 1:
        raise r.fail("more than one dog_only Infection card")
    return CardSet(characters, cards, infections, dog, composition, adjust, decks)


@cache
def load_cards() -> CardSet:
    """The card set shipped under ``data/``, read and checked once per process.

    Raises CardDataError (a broken installation) as :func:`parse_set` does."""
    folder = files("pbem_games.parasite").joinpath("data")
    texts = {}
    for name in FILES:
        try:
            texts[name] = folder.joinpath(f"{name}.toml").read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CardDataError(f"data/{name}.toml cannot be read: {error}", "reinstall pbem") from None
    return parse_set(texts)


def data_texts() -> dict[str, str]:
    """The text of every shipped data file (for tests that change one entry)."""
    folder = files("pbem_games.parasite").joinpath("data")
    return {name: folder.joinpath(f"{name}.toml").read_text("utf-8") for name in FILES}
