"""Sizes of encrypted parts: every plaintext is padded so that its length says nothing hidden.

age hides what a block says but not how long it is (the ciphertext is the plaintext plus a
fixed overhead per recipient, and the random "grease" stanzas rage adds are independent of
the content).  A report's private part that is one byte longer for every ten in the hand
tells everyone how many tens the hand holds.  So every plaintext pbem encrypts is padded to
a size that depends only on public facts:

- a player's report, private part: one size per game (:attr:`Padding.report`), plus room
  for the press lines in a game with press rules (:func:`pbem.reports.private_size`);
- the save's secret part (state, seed, this turn's orders, the log of every turn so far):
  :meth:`Padding.secret_size` of the turn number, a base plus an allowance per turn, since
  the log grows every turn;
- a sealed order file: :data:`ORDERS_SIZE` for every game (the player's ``pbem sign`` knows
  the game's id, not its kind, so the size cannot depend on the game);
- the secret details of a moderator's notice: :data:`NOTICE_SIZE`;
- anything else: :data:`DEFAULT_SIZE`.

A game declares its sizes as data (``GameInfo.padding``); the engine default is generous.
A plaintext larger than its size is never refused: it goes to the next size up (the size
doubled, as often as needed), which then says only "larger than usual".  The tests play
every registered game and check that no real game reaches a second size.

The padding is white space at the end (spaces, then one newline): JSON readers skip it,
pbem's text readers work line by line and strip it, and ``age -d`` shows the text followed
by blank space.  Nothing signed is padded: signatures cover the text inside the padding
(orders) or the armoured ciphertext (reports), so no signature changes meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_SIZE = 1024
"""Bytes an encrypted part with no declared size is padded to (then doubled as needed)."""

ORDERS_SIZE = 2048
"""Bytes every sealed order file's plaintext (the signed block) is padded to."""

NOTICE_SIZE = 4096
"""Bytes the encrypted details of a moderator's notice are padded to."""

MAX_SIZE = 1 << 30
"""Largest size a game may declare (1 GiB): a guard against a typo, not a real limit."""


def _check_size(name: str, value: int, low: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_SIZE:
        raise ValueError(
            f"padding size {name} must be a whole number from {low} to {MAX_SIZE}, got {value!r}"
        )


@dataclass(frozen=True)
class Padding:
    """Plaintext sizes (bytes) a game's encrypted parts are padded to.

    Choose them from measured maxima with a margin (``tests/test_sizes.py`` measures every
    registered game and fails when a real game outgrows them).  Raises ValueError for a size
    that is not a positive whole number.
    """

    report: int = 4096
    """A player's private report part (hand, what was drawn, the private data block)."""
    secret: int = 16384
    """The save's secret part on turn 1."""
    secret_per_turn: int = 4096
    """Added to :attr:`secret` for every turn after the first (the log of orders grows)."""

    def __post_init__(self) -> None:
        _check_size("report", self.report)
        _check_size("secret", self.secret)
        _check_size("secret_per_turn", self.secret_per_turn, low=0)

    def secret_size(self, turn: int) -> int:
        """The size of the save's secret part on ``turn`` (a public number)."""
        return self.secret + self.secret_per_turn * max(0, turn - 1)


DEFAULT_PADDING = Padding()
"""What a game that declares nothing gets."""


def padded_size(length: int, size: int) -> int:
    """The length a plaintext of ``length`` bytes is padded to: ``size``, doubled until it fits.

    Raises ValueError if ``size`` is not positive.
    """
    if size < 1:
        raise ValueError(f"padding size must be positive, got {size}")
    target = size
    while target < length:
        target *= 2
    return target


def pad(data: bytes, size: int) -> bytes:
    """``data`` followed by white space up to :func:`padded_size` (spaces, then a newline).

    Readers ignore the padding: JSON skips white space, pbem's text readers strip it.
    Raises ValueError if ``size`` is not positive.
    """
    missing = padded_size(len(data), size) - len(data)
    if missing == 0:
        return data
    return data + b" " * (missing - 1) + b"\n"
