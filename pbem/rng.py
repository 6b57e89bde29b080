"""A deterministic random generator that gives the same numbers everywhere.

Python's ``random`` may change between versions, so a game could not be re-played and
verified years later.  This generator is SHAKE-256 in counter mode over a secret key: block
``i`` is ``SHAKE-256(key || i as 8 bytes, big-endian)`` read as 32 big-endian 64-bit words,
used in order.  ``key`` is ``SHA-256("pbem-rng/v1\0" || seed material)``.  The same seed
gives the same draws on every platform and Python version.  Integers are drawn by rejection
sampling, so every outcome of ``randbelow(n)`` is exactly equally likely.

Speed (issue 13): a block's words are kept in a list, the next one last, and
``randbelow(n)`` for 1 < n <= 2**32 (every bound a game uses) pops a word and computes the
exact rejection limit only for words at the very top of the range (one in 2**32), because
every smaller word is under every such limit; :meth:`Rng.shuffle` does the same inline.
The key is derived at the first draw, not when the generator is made, so a generator that
never draws costs no hash, and the first block is read in two parts (its first 17 words
take one Keccak permutation, all 32 take two), so one that draws a few numbers, as most
do, costs one permutation.
The stream is exactly the plain construction's (``tests/test_rng_stream.py`` keeps the
plain implementation and compares every kind of call, rejected words included).  A bound
above 2**64, where every word would be rejected, raises ValueError instead of looping.

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
_BLOCK = 8 * _WORDS
_UNPACK_REVERSED = struct.Struct(f"<{_WORDS}Q").unpack
_HEAD_WORDS = 17
"""SHAKE-256 gives 136 bytes (its rate) per Keccak permutation: a block's first 17 words cost
one permutation, all 32 two."""
_HEAD = 8 * _HEAD_WORDS
_UNPACK_HEAD_REVERSED = struct.Struct(f"<{_HEAD_WORDS}Q").unpack
_UNPACK_TAIL_REVERSED = struct.Struct(f"<{_WORDS - _HEAD_WORDS}Q").unpack
_FIRST = (0).to_bytes(8, "big")
_TAIL_NEXT = -1
"""``_counter`` while block 0's last 15 words are still to be read."""
_TOP = 1 << 64
_SMALL = 1 << 32
_SAFE = _TOP - _SMALL
"""Every n in (1, _SMALL] has a rejection limit (_TOP - _TOP % n) above _SAFE."""
_sha256 = hashlib.sha256
_shake_256 = hashlib.shake_256


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

    __slots__ = ("_counter", "_key", "_material", "_words")

    def __init__(self, key: bytes) -> None:
        # The key is derived at the first draw or fork (an engine often makes a generator
        # for a step that draws nothing: issue 13); ``_key`` is None until then.
        self._material = key if type(key) is bytes else bytes(key)  # a bytearray may change later
        self._key: bytes | None = None
        self._counter = 0
        self._words: list[int] = []  # the current block's unused words, the next one last

    def _derived(self) -> bytes:
        """The generator's key, SHA-256(domain || seed material), derived once."""
        key = self._key
        if key is None:
            key = self._key = _sha256(_DOMAIN + self._material).digest()
        return key

    @classmethod
    def for_turn(cls, seed: bytes, turn: int, label: str = "turn") -> Rng:
        """The generator used to resolve ``turn`` of a game with this seed."""
        return cls(seed + f"\x00{label}\x00{turn}".encode())

    def fork(self, label: str) -> Rng:
        """An independent generator derived from this one's key and a label."""
        return Rng(self._derived() + b"\x00fork\x00" + label.encode())

    def _refill(self, whole: bool = False) -> None:
        """Put the next words of the stream into ``_words`` (which is empty), the first one
        last: bytes read backwards as little-endian words are their big-endian words in
        reverse.  Block 0 comes in two parts, its first 17 words and then the other 15 (an
        extendable-output function's longer output starts with its shorter one, so these are
        the block's words); every later block comes whole, and so does block 0 when ``whole``
        says that more than its first part will be drawn (a shuffle of a deck, say)."""
        counter = self._counter
        if counter == 0 and not whole:
            head = _shake_256(self._derived() + _FIRST).digest(_HEAD)
            self._counter = _TAIL_NEXT
            self._words.extend(_UNPACK_HEAD_REVERSED(head[::-1]))
            return
        if counter == _TAIL_NEXT:
            tail = _shake_256(self._derived() + _FIRST).digest(_BLOCK)[_HEAD:]
            self._counter = 1
            self._words.extend(_UNPACK_TAIL_REVERSED(tail[::-1]))
            return
        block = _shake_256(self._derived() + counter.to_bytes(8, "big")).digest(_BLOCK)
        self._counter = counter + 1
        self._words.extend(_UNPACK_REVERSED(block[::-1]))

    def _next64(self) -> int:
        """The next 64-bit word of the stream."""
        words = self._words
        if not words:
            self._refill()
        return words.pop()

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n).  Raises ValueError if n < 1 or n > 2**64."""
        if 1 < n <= _SMALL:
            # The common case, the same numbers as _below_slowly: a word under _SAFE is under
            # every such n's rejection limit, so the limit is computed only above it.
            words = self._words
            if not words:
                self._refill()
            value = words.pop()
            if value < _SAFE:
                return value % n
            if value < _TOP - _TOP % n:
                return value % n
            return self._below_slowly(n)
        if n < 1:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        elif n == 1:
            return 0
        elif n > _TOP:
            # Every 64-bit word would be rejected: refused rather than looping for ever.
            raise ValueError(f"randbelow needs n <= 2**64, got {n}")
        return self._below_slowly(n)

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
        """Shuffle in place (Fisher-Yates): for i from the last index down to 1, swap item i
        with item randbelow(i + 1) (drawn as :meth:`randbelow` draws, inlined)."""
        size = len(items)
        if size > _SMALL:
            randbelow = self.randbelow
            for i in range(size - 1, 0, -1):
                j = randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        words = self._words
        if not words and self._counter == 0 and size - 1 > _HEAD_WORDS:
            self._refill(whole=True)  # a fresh generator's first block, read at once
        for i in range(size - 1, 0, -1):
            if not words:
                self._refill()
            value = words.pop()
            if value < _SAFE or value < _TOP - _TOP % (i + 1):
                j = value % (i + 1)
            else:
                j = self._below_slowly(i + 1)
            items[i], items[j] = items[j], items[i]

    def _below_slowly(self, n: int) -> int:
        """randbelow(n) by the plain loop: the next word under n's rejection limit, modulo n
        (also how the fast paths go on after a rejected word: the plain loop's next turn)."""
        limit = _TOP - _TOP % n
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """k distinct elements in random order.  Raises ValueError if k > len(items)."""
        if k > len(items):
            raise ValueError(f"sample of {k} from {len(items)} items")
        pool = list(items)
        randbelow = self.randbelow
        for i in range(k):
            j = i + randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
