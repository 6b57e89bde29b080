"""A deterministic random generator that gives the same numbers everywhere.

Python's ``random`` may change between versions, so a game could not be re-played and
verified years later.  This generator is SHAKE-256 in counter mode over a secret key: block
``i`` is ``SHAKE-256(key || i as 8 bytes, big-endian)`` read as 32 big-endian 64-bit words,
used in order.  ``key`` is ``SHA-256("pbem-rng/v1\0" || seed material)``.  The same seed
gives the same draws on every platform and Python version.  Integers are drawn by rejection
sampling, so every outcome of ``randbelow(n)`` is exactly equally likely.

The engine derives one generator per resolved turn from the game's secret seed, and
publishes :func:`commitment` of the seed in the first report; revealing the seed after
the game lets anyone re-play it (``pbem verify``).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_DOMAIN = b"pbem-rng/v1\x00"
_WORDS = 32
_UNPACK = struct.Struct(f">{_WORDS}Q").unpack


def commitment(seed: bytes) -> str:
    """The public hash that binds a game to its secret seed (hex)."""
    return hashlib.sha256(b"pbem-seed/v1\x00" + seed).hexdigest()


def seeded_entropy(label: str) -> Callable[[int], bytes]:
    """A deterministic stand-in for ``os.urandom`` (demos, tests, benchmarks): call k returns
    the first n bytes of SHA-256 of ``"<label>/<k>"``.  Never for real games' secrets."""
    counter = 0

    def take(n: int) -> bytes:
        nonlocal counter
        counter += 1
        return hashlib.sha256(f"{label}/{counter}".encode()).digest()[:n]

    return take


class Rng:
    """A stream of uniform random numbers from a key; not thread-safe, cheap to create."""

    __slots__ = ("_counter", "_key", "_words")

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.sha256(_DOMAIN + key).digest()
        self._counter = 0
        self._words: list[int] = []

    @classmethod
    def for_turn(cls, seed: bytes, turn: int, label: str = "turn") -> Rng:
        """The generator used to resolve ``turn`` of a game with this seed."""
        return cls(seed + f"\x00{label}\x00{turn}".encode())

    def fork(self, label: str) -> Rng:
        """An independent generator derived from this one's key and a label."""
        return Rng(self._key + b"\x00fork\x00" + label.encode())

    def _next64(self) -> int:
        if not self._words:
            block = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(8 * _WORDS)
            self._counter += 1
            self._words = list(_UNPACK(block))
            self._words.reverse()
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n).  Raises ValueError if n < 1."""
        if n < 1:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if n == 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        return low + self.randbelow(high - low + 1)

    def coin(self) -> bool:
        """A fair coin: True for heads."""
        return self.randbelow(2) == 1

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence.  Raises IndexError if it is empty."""
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """k distinct elements in random order.  Raises ValueError if k > len(items)."""
        if k > len(items):
            raise ValueError(f"sample of {k} from {len(items)} items")
        pool = list(items)
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
