"""A game's press rules: who may write to whom, how, and what the archive keeps.

The rules are set when the game is created (``pbem new --press NAME=VALUE``) and written to
``press/rules.json`` in the game folder, signed by the moderator (domain
``pbem-press-rules/v1``) and bound to the game id: they cannot be changed afterwards, since
players agree to them by joining (above all to ``archive-private``).  Every report states
them (its data block carries them for ``pbem say``), and the same :func:`check_message`
runs in ``pbem say`` before anything is signed and in the moderator's relay.

A game without the file has no press.  A game may narrow press in some of its phases (a
reaction window, say) by defining ``press_phase(view) -> (phase, mode) | None`` on its
plug-in object, read from the public view; ``phase.NAME=MODE`` narrows a phase further.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import canonical
from pbem.errors import FormatError, RejectedError, SignatureError, UsageError
from pbem.keys import Identity, PublicCard
from pbem.press import PRESS_DIR, RULES_NAME

RULES_DOMAIN = "pbem-press-rules/v1"
RULES_FORMAT = "pbem-press-rules/v1"
MODES = ("none", "public", "full")
"""Press modes from narrowest to widest: no press, messages to everyone only, any messages."""
ALL = "all"
"""The recipient that means every other player."""
MAX_CHARS = 3000
"""The most characters of text one message may hold (it must fit :data:`pbem.padding`'s
press size once signed)."""
DEFAULT_CHARS = 2000
MAX_RULES_BYTES = 64 * 1024

_BOOL = {
    "yes": True,
    "true": True,
    "on": True,
    "1": True,
    "no": False,
    "false": False,
    "off": False,
    "0": False,
}
_NAMES = {
    "mode": "mode",
    "grey": "grey",
    "moderator-reads": "moderator_reads",
    "archive-private": "archive_private",
    "max-chars": "max_chars",
    "per-turn": "per_turn",
    "out-may-send": "out_may_send",
    "out-may-receive": "out_may_receive",
}
KNOWN = (*_NAMES, "phase.NAME")


@dataclass(frozen=True)
class PressRules:
    """What press a game allows (all public: every player sees them)."""

    mode: str = "none"
    """``none``, ``public`` (messages to all players only) or ``full``."""
    grey: bool = False
    """Players may send grey press: relayed under "someone", the sender hidden from the
    recipients (the moderator knows)."""
    moderator_reads: bool = False
    """Private messages are encrypted to the moderator too (public ones always are: they go
    into the archive)."""
    archive_private: bool = False
    """Private press goes into the archive at the end (needs ``moderator_reads``)."""
    max_chars: int = DEFAULT_CHARS
    per_turn: int = 0
    """Messages one player may send per turn; 0 for no limit."""
    out_may_send: bool = False
    """Players who resigned, were replaced by the stand-in for good or are out of the game
    may still send press."""
    out_may_receive: bool = True
    """Press may be sent to such players."""
    phases: tuple[tuple[str, str], ...] = field(default=())
    """Narrower modes in phases a game names (``phase.reaction=none``)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise UsageError(f"press mode {self.mode!r} is not one of {', '.join(MODES)}")
        if not 1 <= self.max_chars <= MAX_CHARS:
            raise UsageError(f"press max-chars must be from 1 to {MAX_CHARS}, got {self.max_chars}")
        if not 0 <= self.per_turn <= 10_000:
            raise UsageError(f"press per-turn must be from 0 (no limit) to 10000, got {self.per_turn}")
        if self.archive_private and not self.moderator_reads:
            raise UsageError(
                "press archive-private=yes needs moderator-reads=yes: the moderator writes the archive "
                "and can put in only what it can read",
                "add --press moderator-reads=yes (every report tells the players), or leave private "
                "press out of the archive",
            )
        for name, mode in self.phases:
            if mode not in MODES or not name or len(name) > 40:
                raise UsageError(f"press phase.{name}={mode}: the mode must be one of {', '.join(MODES)}")

    @property
    def enabled(self) -> bool:
        return self.mode != "none"

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "grey": self.grey,
            "moderator_reads": self.moderator_reads,
            "archive_private": self.archive_private,
            "max_chars": self.max_chars,
            "per_turn": self.per_turn,
            "out_may_send": self.out_may_send,
            "out_may_receive": self.out_may_receive,
            "phases": {name: mode for name, mode in self.phases},
        }

    @classmethod
    def from_json(cls, data: Any, source: str) -> PressRules:
        """Rules stored by :meth:`to_json`.  Raises FormatError naming ``source``."""
        fields = set(cls().to_json())
        if not isinstance(data, dict) or set(data) != fields:
            raise FormatError(f"{source}: the press rules are damaged (fields {sorted(fields)} expected)")
        phases = data["phases"]
        if not isinstance(phases, dict) or not all(isinstance(v, str) for v in phases.values()):
            raise FormatError(f"{source}: the press rules are damaged (phases)")
        flags = ("grey", "moderator_reads", "archive_private", "out_may_send", "out_may_receive")
        if (
            any(type(data[k]) is not bool for k in flags)
            or type(data["mode"]) is not str
            or any(type(data[k]) is not int for k in ("max_chars", "per_turn"))
        ):
            raise FormatError(f"{source}: the press rules are damaged (a value of the wrong type)")
        try:
            return cls(
                mode=data["mode"],
                grey=data["grey"],
                moderator_reads=data["moderator_reads"],
                archive_private=data["archive_private"],
                max_chars=data["max_chars"],
                per_turn=data["per_turn"],
                out_may_send=data["out_may_send"],
                out_may_receive=data["out_may_receive"],
                phases=tuple(sorted(phases.items())),
            )
        except UsageError as exc:
            raise FormatError(f"{source}: the press rules are damaged ({exc.message})") from None

    def mode_in(self, phase: tuple[str, str] | None) -> str:
        """The mode in force in ``phase`` (the game's (name, mode), or None): the narrowest of
        the rules' mode, the game's and the rules' own for that phase."""
        mode = self.mode
        if phase is not None:
            name, game_mode = phase
            mode = min(mode, game_mode if game_mode in MODES else "none", key=MODES.index)
            mode = min(mode, dict(self.phases).get(name, mode), key=MODES.index)
        return mode

    def describe(self) -> list[str]:
        """The rules in words, one short line each (for reports and ``pbem status``)."""
        if not self.enabled:
            return ["Press: none (players cannot send messages through the moderator)."]
        what = "messages to all players only" if self.mode == "public" else "messages to anyone"
        lines = [f"Press: {what}; grey (anonymous) press {'allowed' if self.grey else 'not allowed'}."]
        limit = f"{self.per_turn} a turn per player" if self.per_turn else "no limit a turn"
        lines.append(f"Press limits: {self.max_chars} characters a message, {limit}.")
        lines.append(
            "Press the moderator can read: "
            + ("every message." if self.moderator_reads else "messages to all players only.")
        )
        lines.append(
            "Press in the archive at the end: "
            + ("all of it (agreed at creation)." if self.archive_private else "messages to all players only.")
        )
        out = [
            "may send" if self.out_may_send else "may not send",
            "may receive" if self.out_may_receive else "may not receive",
        ]
        lines.append(f"Players out of the game {out[0]} and {out[1]} press.")
        for name, mode in self.phases:
            lines.append(f"Press in the {name} phase: {mode}.")
        return lines


def parse_pairs(pairs: Sequence[str]) -> PressRules | None:
    """Rules from ``pbem new --press`` arguments (``NAME=VALUE``, or a bare mode), or None
    when none are given.  Raises UsageError naming the argument and the known names."""
    if not pairs:
        return None
    values: dict[str, Any] = {}
    phases: dict[str, str] = {}
    for spec in pairs:
        name, sep, value = spec.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if not sep:
            name, value = "mode", name
        if name.startswith("phase."):
            phases[name[6:]] = value
            continue
        key = _NAMES.get(name)
        if key is None:
            raise UsageError(
                f"--press {spec!r}: unknown press setting {name!r}", f"known settings: {', '.join(KNOWN)}"
            )
        if key == "mode":
            values[key] = value
        elif key in ("max_chars", "per_turn"):
            if not (value.isascii() and value.isdigit() and len(value) <= 6):
                raise UsageError(f"--press {spec!r}: {name} takes a whole number")
            values[key] = int(value)
        else:
            if value not in _BOOL:
                raise UsageError(f"--press {spec!r}: {name} takes yes or no")
            values[key] = _BOOL[value]
    values.setdefault("mode", "full")
    return PressRules(**values, phases=tuple(sorted(phases.items())))


# ---- the signed file ---------------------------------------------------------------------------
def rules_path(game_dir: Path) -> Path:
    return Path(game_dir) / PRESS_DIR / RULES_NAME


def rules_text(rules: PressRules, game_id: str, moderator: Identity) -> str:
    """The signed rules file for ``game_id``."""
    body = {"format": RULES_FORMAT, "game_id": game_id, "rules": rules.to_json()}
    signature = base64.b64encode(moderator.sign(RULES_DOMAIN, canonical.dumps(body))).decode()
    return json.dumps({"body": body, "signature": signature}, indent=1, sort_keys=True) + "\n"


def write_rules(game_dir: Path, rules: PressRules, game_id: str, moderator: Identity) -> Path:
    """Write the game's press rules, once.  Raises UsageError if the game has rules already."""
    from pbem.folder import atomic_write

    path = rules_path(game_dir)
    if path.exists():
        raise UsageError(f"{path} exists: a game's press rules are fixed when it is created")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, rules_text(rules, game_id, moderator))
    return path


def parse_rules(data: bytes, source: str, game_id: str, moderator: PublicCard) -> PressRules:
    """Verify a rules file.  Raises FormatError (damaged), SignatureError (not signed by the
    game's moderator) or ForeignError-like FormatError (another game's rules)."""
    try:
        doc = canonical.loads(data, source)
        body, signature = doc["body"], base64.b64decode(doc["signature"], validate=True)
    except (ValueError, TypeError, KeyError):
        raise FormatError(f"{source}: the press rules file is damaged") from None
    if not isinstance(body, dict) or body.get("format") != RULES_FORMAT:
        raise FormatError(f"{source}: not a pbem press rules file")
    try:
        moderator.verify(RULES_DOMAIN, canonical.dumps(body), signature)
    except SignatureError:
        raise SignatureError(
            f"{source}: the press rules were not signed by this game's moderator",
            "restore the file the moderator wrote when the game was created",
        ) from None
    if body.get("game_id") != game_id:
        raise FormatError(f"{source}: these press rules are for game {str(body.get('game_id'))[:20]!r}")
    return PressRules.from_json(body.get("rules"), source)


def load_rules(game_dir: Path, game_id: str, moderator: PublicCard) -> PressRules:
    """The game's press rules; no press when the game has no rules file.  Raises as
    :func:`parse_rules`, and FormatError for a file that cannot be read."""
    from pbem.inputs import read_bytes

    path = rules_path(game_dir)
    if not path.exists() and not path.is_symlink():
        return PressRules()
    try:
        data = read_bytes(path, "press rules", MAX_RULES_BYTES)
    except UsageError as exc:
        raise FormatError(exc.message, exc.hint) from None
    return parse_rules(data, str(path), game_id, moderator)


# ---- the rule check ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Message:
    """What the rules look at in a message: no content, only its shape."""

    sender: str
    to: tuple[str, ...]
    """Player names, or (:data:`ALL`,) for every other player."""
    grey: bool
    chars: int

    @property
    def broadcast(self) -> bool:
        return self.to == (ALL,)


def recipients_of(message: Message, names: Sequence[str]) -> list[str]:
    """The players a message goes to, by their names in the game (the sender left out)."""
    if message.broadcast:
        return [n for n in names if n.lower() != message.sender.lower()]
    by_lower = {n.lower(): n for n in names}
    return [by_lower[n.lower()] for n in message.to]


def check_message(
    rules: PressRules,
    message: Message,
    names: Sequence[str],
    out: Collection[str] = (),
    phase: tuple[str, str] | None = None,
    sent_this_turn: int = 0,
    where: str = "message",
) -> None:
    """Raise RejectedError saying what rule ``message`` breaks and what to do, or return.

    ``out``: names of players out of the game (resigned, abandoned, or out by the game's
    rules); ``phase``: the game's current press phase; ``sent_this_turn``: messages the
    sender already sent this turn (checked against ``per_turn``).
    """
    mode = rules.mode_in(phase)
    lower = {n.lower() for n in names}
    outs = {n.lower() for n in out}
    if message.sender.lower() not in lower:
        raise RejectedError(f"{where}: {message.sender!r} is not a player of this game")
    if not rules.enabled:
        raise RejectedError(f"{where}: this game has no press", "talk to the other players another way")
    if mode == "none":
        raise RejectedError(
            f"{where}: no press is allowed in the {phase[0] if phase else 'current'} phase",
            "send it when the phase is over (your next report says the press rules in force)",
        )
    if not message.to:
        raise RejectedError(f"{where}: the message names no recipient", "name players, or all")
    if not message.broadcast:
        unknown = [n for n in message.to if n.lower() not in lower]
        if unknown:
            from difflib import get_close_matches

            near = [m[0] for n in unknown[:5] if (m := get_close_matches(n[:40], names, n=1, cutoff=0.6))]
            raise RejectedError(
                f"{where}: {', '.join(repr(n[:40]) for n in unknown[:5])} "
                f"{'is no player' if len(unknown) == 1 else 'are no players'} of this game"
                + (f" (did you mean {', '.join(map(repr, near))}?)" if near else ""),
                f"the players are: {', '.join(names)} (or all)",
            )
        if message.sender.lower() in {n.lower() for n in message.to}:
            raise RejectedError(f"{where}: the message is addressed to its own sender", "leave yourself out")
        if len({n.lower() for n in message.to}) != len(message.to):
            raise RejectedError(f"{where}: a recipient is named twice", "name each player once")
        if mode == "public":
            why = f"in the {phase[0]} phase" if phase and rules.mode == "full" else "in this game"
            raise RejectedError(
                f"{where}: only messages to all players are allowed {why}", "send it to all (--to all)"
            )
    if message.grey and not rules.grey:
        raise RejectedError(f"{where}: this game does not allow grey press", "send it under your name")
    if message.chars > rules.max_chars:
        raise RejectedError(
            f"{where}: the message is {message.chars:,} characters; this game allows {rules.max_chars:,}",
            "shorten it, or send it in several messages",
        )
    if message.sender.lower() in outs and not rules.out_may_send:
        raise RejectedError(
            f"{where}: {message.sender} is out of the game, and this game's players out of it send no press"
        )
    if not rules.out_may_receive:
        gone = [n for n in recipients_of(message, names) if n.lower() in outs]
        if gone and not message.broadcast:
            raise RejectedError(
                f"{where}: {', '.join(gone)} {'is' if len(gone) == 1 else 'are'} out of the game, and "
                "this game sends no press to players out of it",
                "leave them out",
            )
    if rules.per_turn and sent_this_turn >= rules.per_turn:
        from pbem.wording import counted

        raise RejectedError(
            f"{where}: {message.sender} has sent {counted(sent_this_turn, 'message')} this turn; "
            f"this game allows {rules.per_turn} a turn",
            "wait for the next turn",
        )


def out_players(
    save_players: Sequence[Mapping[str, Any]], names: Sequence[str], eliminated: Collection[int]
) -> set[str]:
    """Names of the players out of the game: resigned or abandoned seats, and ``eliminated``
    seats (the game's ``press_out(view)``, when it defines one)."""
    out = {names[i] for i, p in enumerate(save_players) if p.get("status") != "active"}
    return out | {names[i] for i in eliminated if 0 <= i < len(names)}


def game_phase(game: Any, public_view: Any) -> tuple[str, str] | None:
    """The game's press phase for its public view: ``press_phase(view)`` when the game
    defines it, else None.  A game's hook that fails or answers nonsense counts as none."""
    hook = getattr(game, "press_phase", None)
    if not callable(hook):
        return None
    try:
        found = hook(public_view)
    except Exception:  # a game's hook on its own view: a bug there must not stop press
        return None
    if isinstance(found, tuple) and len(found) == 2 and all(isinstance(x, str) for x in found):
        return (found[0][:40], found[1])
    return None


def game_out(game: Any, public_view: Any) -> set[int]:
    """Seats the game says are out (``press_out(view)``), or none."""
    hook = getattr(game, "press_out", None)
    if not callable(hook):
        return set()
    try:
        found = hook(public_view)
        return {int(s) for s in found}
    except Exception:  # as in game_phase
        return set()
