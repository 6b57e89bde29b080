"""Moderator settings from TOML: root-wide defaults and per-game files.

``ROOT/moderator.toml`` holds defaults for every game under the root (``[moderator]``,
``[timing]``, ``[mail]``); ``ROOT/<game>/moderator.toml`` may override ``[timing]`` keys and
gives each player's mail address under ``[players.<name>]``.  Neither holds a secret.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.timing import TimingPolicy, parse_duration

CONFIG_NAME = "moderator.toml"


def read_toml(path: Path) -> dict[str, Any]:
    """A parsed TOML file, or {} if there is none.  Raises UsageError for a malformed file."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}", hint="fix the TOML syntax") from None


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
        raw = read_toml(root / CONFIG_NAME)
        mod = raw.get("moderator", {})
        unknown = sorted(set(mod) - {"settle", "poll"})
        if unknown:
            raise UsageError(f"{CONFIG_NAME} [moderator]: unknown setting(s) {', '.join(unknown)}")
        timing = raw.get("timing", {})
        TimingPolicy.from_toml(timing)  # fail early on a bad default
        return cls(
            settle=parse_duration(mod.get("settle", 2), "[moderator] settle"),
            poll=max(1, parse_duration(mod.get("poll", 30), "[moderator] poll")),
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
    def load(cls, game_dir: Path, root: RootConfig) -> GameConfig:
        """Read ``<game>/moderator.toml`` over the root's defaults.  Raises UsageError."""
        raw = read_toml(game_dir / CONFIG_NAME)
        unknown = sorted(set(raw) - {"timing", "players"})
        if unknown:
            raise UsageError(f"{game_dir / CONFIG_NAME}: unknown table(s) {', '.join(unknown)}")
        timing = TimingPolicy.from_toml({**root.timing, **raw.get("timing", {})})
        emails: dict[str, str] = {}
        for name, table in raw.get("players", {}).items():
            address = table.get("email") if isinstance(table, Mapping) else None
            if address is not None:
                if not isinstance(address, str) or "@" not in address:
                    raise UsageError(f"[players.{name}] email: not a mail address: {address!r}")
                emails[name.lower()] = address
        return cls(timing, emails)
