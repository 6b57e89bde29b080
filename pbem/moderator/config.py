"""Moderator settings from TOML: root-wide defaults and per-game files.

``ROOT/moderator.toml`` holds defaults for every game under the root (``[moderator]``,
``[timing]``, ``[mail]``); ``ROOT/<game>/moderator.toml`` may override ``[timing]`` keys and
gives each player's mail address under ``[players.<name>]``.  Neither holds a secret.

Both are read as untrusted input (a game's file sits in the shared folder): bounded in
size, never through a FIFO, every value checked for its type and range, and every problem
raised as a UsageError that names the file, the setting and what to write instead.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.moderator.quarantine import Unreadable, read_untrusted, shown
from pbem.timing import TimingPolicy, installed_bots, parse_duration

CONFIG_NAME = "moderator.toml"
MAX_CONFIG_BYTES = 1024 * 1024
"""A settings file is a few hundred bytes; a larger one is refused unread."""
STAND_INS = ("on_missing", "on_abandoned")
"""The [timing] settings that name a stand-in (a bot among them)."""
MAX_SETTLE = 86400
MAX_POLL = 86400
_ADDRESS = re.compile(r"[^\s@<>,;:\\\"()\[\]]{1,64}@[^\s@<>,;:\\\"()\[\]]{1,190}")


def read_toml(path: Path) -> dict[str, Any]:
    """A parsed TOML file, or {} if there is none.

    Raises UsageError naming the file for one that cannot be read, is not a regular file,
    is larger than MAX_CONFIG_BYTES, is not UTF-8 (with the byte offset), is not TOML (with
    the line), or holds a number or nesting too large to read."""
    what = f"cannot read {path}"
    try:
        raw, size = read_untrusted(path, MAX_CONFIG_BYTES + 1, follow_links=True)
    except FileNotFoundError:
        return {}
    except (OSError, Unreadable) as exc:
        reason = exc.reason if isinstance(exc, Unreadable) else (exc.strerror or str(exc))
        raise UsageError(f"{what}: {reason}", hint="make it a readable TOML file, or remove it") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise UsageError(f"{what}: it is {size} bytes", hint="a settings file is a few lines of TOML")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise UsageError(
            f"{what}: line {line} is not UTF-8 (byte {raw[exc.start : exc.start + 1]!r})",
            hint="save the file as UTF-8 text",
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{what}: {exc}", hint="fix the TOML syntax") from None
    except (ValueError, RecursionError) as exc:
        detail = "a number too long to read" if isinstance(exc, ValueError) else "nesting too deep"
        raise UsageError(f"{what}: {detail}", hint="fix the TOML: settings are short values") from None


def _table(raw: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    """``raw[key]`` as a table ({} if absent).  Raises UsageError if it is something else."""
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(
            f"{where}: [{key}] must be a table, not {_shown_value(value)}",
            hint=f"write it as a [{key}] section with one setting per line",
        )
    return value


def _shown_value(value: object) -> str:
    return shown(repr(value), 60)


def _duration(value: object, what: str, low: int, high: int) -> int:
    seconds = parse_duration(value, what)
    if not low <= seconds <= high:
        raise UsageError(f"{what}: {seconds} s is out of range", hint=f"use {low} to {high} seconds")
    return seconds


def _timing(table: Mapping[str, Any], where: str, bots: Collection[str] | None = None) -> TimingPolicy:
    try:
        return TimingPolicy.from_toml(table, bots)
    except UsageError as exc:
        raise UsageError(f"{where}: {exc.message}", hint=exc.hint) from None


@dataclass(frozen=True)
class RootConfig:
    """Settings for a whole root."""

    settle: int = 2
    """Seconds a dropped file must be left alone before it is read."""
    poll: int = 30
    """Seconds between passes with ``--watch``."""
    timing: Mapping[str, Any] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> RootConfig:
        """Read ``ROOT/moderator.toml`` (all settings optional)."""
        path = root / CONFIG_NAME
        raw = read_toml(path)
        mod = _table(raw, "moderator", str(path))
        unknown = sorted(set(mod) - {"settle", "poll"})
        if unknown:
            raise UsageError(
                f"{path} [moderator]: unknown setting(s) {shown(', '.join(unknown), 120)}",
                hint="known settings: poll, settle",
            )
        timing = _table(raw, "timing", str(path))
        _table(raw, "mail", str(path))
        # Fail early on a bad default; a bot named here must be some installed game's.
        named_bot = any(str(timing.get(k, "")).strip().lower().startswith("bot:") for k in STAND_INS)
        _timing(timing, str(path), installed_bots() if named_bot else None)
        return cls(
            settle=_duration(mod.get("settle", 2), f"{path} [moderator] settle", 0, MAX_SETTLE),
            poll=max(1, _duration(mod.get("poll", 30), f"{path} [moderator] poll", 0, MAX_POLL)),
            timing=timing,
            raw=raw,
        )


@dataclass(frozen=True)
class GameConfig:
    """One game's settings: its timing policy and its players' mail addresses."""

    timing: TimingPolicy
    emails: Mapping[str, str]
    """Lower-case player name -> address."""

    def email_of(self, name: str) -> str | None:
        return self.emails.get(name.lower())

    @classmethod
    def load(cls, game_dir: Path, root: RootConfig, bots: Collection[str] | None = None) -> GameConfig:
        """Read ``<game>/moderator.toml`` over the root's defaults; a stand-in bot must be
        one of ``bots`` (the game's) when they are given.  Raises UsageError."""
        path = game_dir / CONFIG_NAME
        raw = read_toml(path)
        unknown = sorted(set(raw) - {"timing", "players"})
        if unknown:
            raise UsageError(
                f"{path}: unknown table(s) {shown(', '.join(unknown), 120)}",
                hint="a game's moderator.toml holds [timing] and [players.<name>] only",
            )
        timing = _timing({**root.timing, **_table(raw, "timing", str(path))}, str(path), bots)
        emails: dict[str, str] = {}
        for name, table in _table(raw, "players", str(path)).items():
            where = f"{path} [players.{shown(name, 40)}]"
            if not isinstance(table, dict):
                raise UsageError(
                    f"{where}: expected a table, not {_shown_value(table)}",
                    hint=f'write [players.{shown(name, 40)}] and below it: email = "name@example.org"',
                )
            extra = sorted(set(table) - {"email"})
            if extra:
                raise UsageError(
                    f"{where}: unknown setting(s) {shown(', '.join(extra), 120)}", hint="known: email"
                )
            address = table.get("email")
            if address is not None:
                if not isinstance(address, str) or not _ADDRESS.fullmatch(address):
                    raise UsageError(
                        f"{where} email: not a mail address: {_shown_value(address)}",
                        hint='write one address, like email = "alice@example.org"',
                    )
                emails[name.lower()] = address
        return cls(timing, emails)
