"""pbem.rng.Rng made faster (issue 13) gives exactly the stream it gave before: the plain
implementation it replaced is kept here, and every call sequence, seed and bound, including
the rare rejected words, must give the same numbers from both."""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import MutableSequence, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.rng import Rng

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 150
TOP = 1 << 64


class PlainRng:
    """pbem.rng.Rng as it was before the fast paths (the published construction, step by step)."""

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.sha256(b"pbem-rng/v1\x00" + key).digest()
        self._counter = 0
        self._words: list[int] = []

    def fork(self, label: str) -> PlainRng:
        return PlainRng(self._key + b"\x00fork\x00" + label.encode())

    def _next64(self) -> int:
        if not self._words:
            block = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(256)
            self._counter += 1
            self._words = list(struct.unpack(">32Q", block))
            self._words.reverse()
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if n == 1:
            return 0
        limit = TOP - (TOP % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def randint(self, low: int, high: int) -> int:
        return low + self.randbelow(high - low + 1)

    def coin(self) -> bool:
        return self.randbelow(2) == 1

    def choice(self, items: Sequence[Any]) -> Any:
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[Any], k: int) -> list[Any]:
        if k > len(items):
            raise ValueError(f"sample of {k} from {len(items)} items")
        pool = list(items)
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


# Bounds around every edge of the fast path: 1, small, 2**32 either side, near and past 2**64.
BOUNDS = st.one_of(
    st.integers(1, 60),
    st.integers(1, 2**40),
    st.sampled_from([2, 3, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 1, 2**64]),
    st.integers(2**32 - 3, 2**32 + 3),
    st.integers(2**63, 2**64),
)
CALLS = st.lists(
    st.one_of(
        st.tuples(st.just("randbelow"), BOUNDS),
        st.tuples(st.just("randint"), st.integers(-50, 50), st.integers(50, 10**12)),
        st.tuples(st.just("coin")),
        st.tuples(st.just("choice"), st.integers(1, 70)),
        st.tuples(st.just("shuffle"), st.integers(0, 110)),
        st.tuples(st.just("sample"), st.integers(0, 60), st.integers(0, 60)),
        st.tuples(st.just("fork"), st.text(max_size=8)),
    ),
    max_size=60,
)


def _play(rng: Any, calls: list[tuple[Any, ...]]) -> list[Any]:
    """What ``rng`` answers to ``calls``, in order (a fork's first draws stand for the fork)."""
    out: list[Any] = []
    for name, *args in calls:
        if name == "randbelow":
            out.append(rng.randbelow(args[0]))
        elif name == "randint":
            out.append(rng.randint(*args))
        elif name == "coin":
            out.append(rng.coin())
        elif name == "choice":
            out.append(rng.choice(list(range(args[0]))))
        elif name == "shuffle":
            items = list(range(args[0]))
            rng.shuffle(items)
            out.append(items)
        elif name == "sample":
            size, k = args
            out.append(rng.sample(range(size), min(k, size)))
        else:
            child = rng.fork(args[0])
            out.append([child.randbelow(1000) for _ in range(3)])
    return out


@settings(max_examples=EXAMPLES, deadline=None)
@given(key=st.binary(max_size=40), calls=CALLS)
def test_same_stream_as_the_plain_implementation(key: bytes, calls: list[tuple[Any, ...]]) -> None:
    assert _play(Rng(key), calls) == _play(PlainRng(key), calls)


def test_long_runs_cross_many_blocks_identically() -> None:
    """Thousands of draws (dozens of 32-word blocks), mixed bounds, several seeds."""
    for seed in (b"", b"seed", b"bench-bot/7/12", bytes(range(256))):
        fast, plain = Rng(seed), PlainRng(seed)
        bounds = [2, 52, 7, 2**33, 1, 10**19, 3]
        got = [fast.randbelow(bounds[i % len(bounds)]) for i in range(3000)]
        assert got == [plain.randbelow(bounds[i % len(bounds)]) for i in range(3000)]
        assert fast.randint(-5, 5) == plain.randint(-5, 5)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    words=st.lists(
        st.one_of(st.integers(0, TOP - 1), st.integers(TOP - 2**33, TOP - 1), st.just(TOP - 1)),
        min_size=1,
        max_size=6,
    ),
    n=BOUNDS,
)
def test_rejected_words_are_skipped_alike(words: list[int], n: int) -> None:
    """Words at the top of the range (one in 2**32 draws, so never met by chance in a test)
    go through the exact rejection limit: put them first in both streams and compare."""
    fast, plain = Rng(b"k"), PlainRng(b"k")
    fast._words.extend(reversed(words))  # the next word is the list's last
    plain._words = list(reversed(words))
    assert [fast.randbelow(n) for _ in range(40)] == [plain.randbelow(n) for _ in range(40)]


def test_bad_bounds_are_refused_alike() -> None:
    """Below 1 both refuse; above 2**64 (where the plain loop never ended) the fast one refuses."""
    for bad in (2**64 + 1, 3 * 2**70):
        try:
            Rng(b"k").randbelow(bad)
        except ValueError as exc:
            assert "n <= 2**64" in str(exc)
        else:
            raise AssertionError(f"randbelow({bad}) accepted")
    for n in (0, -1, -(2**70)):
        for rng in (Rng(b"k"), PlainRng(b"k")):
            try:
                rng.randbelow(n)
            except ValueError as exc:
                assert "n >= 1" in str(exc)
            else:
                raise AssertionError(f"randbelow({n}) accepted")
    assert Rng(b"k").randbelow(1) == 0


def test_the_key_is_derived_at_the_first_draw_from_the_material_given() -> None:
    """A generator that never draws costs no hash; one made from a bytearray changed later
    still draws from what it was given; fork before any draw is the plain fork."""
    idle = Rng(b"step")
    assert idle._key is None
    material = bytearray(b"seed")
    late = Rng(material)  # type: ignore[arg-type]  # a bytearray on purpose: Rng must copy it
    material[:] = b"other"
    plain = PlainRng(b"seed")
    assert [late.randbelow(100) for _ in range(50)] == [plain.randbelow(100) for _ in range(50)]
    assert late._key == hashlib.sha256(b"pbem-rng/v1\x00seed").digest()
    assert Rng(b"s").fork("a").randbelow(10**9) == PlainRng(b"s").fork("a").randbelow(10**9)
    try:
        Rng("text")  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        raise AssertionError("Rng accepted a str")


def test_the_first_block_comes_in_two_parts_with_the_same_words(monkeypatch: Any) -> None:
    """A generator that draws at most 17 words (as a bot's step or a turn's does) reads one
    SHAKE-256 rate (136 bytes, one permutation) instead of the whole 256-byte block; its
    18th word reads the rest of block 0, and every word is the plain construction's."""
    import pbem.rng as rng_module

    asked: list[int] = []
    real = rng_module._shake_256

    class Counting:
        def __init__(self, data: bytes) -> None:
            self._hash = real(data)

        def digest(self, length: int) -> bytes:
            asked.append(length)
            return self._hash.digest(length)

    monkeypatch.setattr(rng_module, "_shake_256", Counting)
    fast, plain = Rng(b"bench-bot/3/4"), PlainRng(b"bench-bot/3/4")
    words = [fast._next64() for _ in range(17)]
    assert asked == [136]
    words += [fast._next64() for _ in range(50)]  # the rest of block 0, then blocks 1 and 2
    assert asked == [136, 256, 256, 256]
    assert words == [plain._next64() for _ in range(67)]
    for size, reads in ((18, [136]), (19, [256]), (30, [256]), (52, [256, 256])):
        # A fresh generator's shuffle that needs more than 17 words reads block 0 at once.
        asked.clear()
        shuffled, plain_shuffled = list(range(size)), list(range(size))
        Rng(b"deck").shuffle(shuffled)
        PlainRng(b"deck").shuffle(plain_shuffled)
        assert (shuffled, asked) == (plain_shuffled, reads)
    drawn = Rng(b"deck")
    first = [drawn.randbelow(7) for _ in range(5)]
    rest = list(range(40))
    drawn.shuffle(rest)  # across the seam inside one call
    plain_drawn = PlainRng(b"deck")
    plain_rest = list(range(40))
    assert first == [plain_drawn.randbelow(7) for _ in range(5)]
    plain_drawn.shuffle(plain_rest)
    assert rest == plain_rest
