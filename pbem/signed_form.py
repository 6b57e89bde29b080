"""What ``pbem sign`` made of a form: :class:`SignedForm` (returned by
:func:`pbem.player.sign_form`).

A module of its own so that reading a report (``pbem read``), which imports
:mod:`pbem.player`, does not pay for making this class (a frozen dataclass costs about a
millisecond to create at start-up: issue 13)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SignedForm:
    """What :func:`pbem.player.sign_form` wrote, and what it did on the way."""

    text: str
    checked: int | None
    """Orders accepted by the rules, or None when they were not checked."""
    report: str | None
    """Where the report they were checked against came from."""
    sealed_to: str | None
    """The moderator the file is sealed to (their name), or None when it is not sealed."""
