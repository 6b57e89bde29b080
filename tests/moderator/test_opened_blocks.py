"""The blocks an identity keeps opened (``Identity.decrypt(..., keep=True)``): the moderator
opens an inbox file to see whether it is press (``open_press``, which keeps), and the engine
opens it again for the orders; the second opening is the kept answer.  Checked against the
plain way (``pyrage.decrypt``); an opening without ``keep`` is age's work every time."""

from __future__ import annotations

import os

import pyrage
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import keys as keys_module
from pbem.errors import FormatError
from pbem.keys import Identity

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "25"))

MODERATOR = Identity.generate("moderator")
OTHER = Identity.generate("other")


def _seal(plain: bytes, to: Identity, armored: bool) -> bytes:
    recipient = pyrage.x25519.Recipient.from_str(to.public().age_recipient)
    return pyrage.encrypt(plain, [recipient], armored=armored)


def _count_age(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count age's decryptions from here on: one entry in the list returned per call."""
    calls: list[int] = []
    real = pyrage.decrypt

    def counting(data: bytes, ids: list[object]) -> bytes:
        calls.append(1)
        return real(data, ids)

    monkeypatch.setattr(pyrage, "decrypt", counting)
    return calls


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(st.tuples(st.binary(max_size=300), st.booleans(), st.booleans()), min_size=1, max_size=12),
    st.randoms(use_true_random=False),
)
def test_kept_openings_are_what_age_says(blocks: list[tuple[bytes, bool, bool]], rnd: object) -> None:
    """Any sequence of blocks, sealed to this key or another, armoured or not, opened in any
    order and again: each answer is age's own (the plaintext, or a refusal every time)."""
    identity = Identity.generate("reader")
    sealed = [(_seal(p, identity if mine else OTHER, armored), p, mine) for p, mine, armored in blocks]
    order = [*sealed, *sealed]
    rnd.shuffle(order)  # type: ignore[attr-defined]
    for data, plain, mine in order:
        if mine:
            assert identity.decrypt(data, keep=True) == plain == pyrage.decrypt(data, [identity._age])
            assert identity.decrypt(data.decode("ascii") if data.startswith(b"-----") else data) == plain
        else:
            with pytest.raises(FormatError, match="cannot decrypt with reader's key"):
                identity.decrypt(data, keep=True)
        assert len(identity._opened) <= keys_module.OPENED_KEPT
        assert all(value is not None for value in identity._opened.values())


def test_a_second_opening_costs_no_decryption(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_age(monkeypatch)
    data = _seal(b"orders", MODERATOR, armored=True)
    assert MODERATOR.decrypt(data, keep=True) == MODERATOR.decrypt(data.decode("ascii")) == b"orders"
    assert len(calls) == 1, "opened once, the second answer kept"
    big = _seal(b"x" * (keys_module.OPENED_MAX_BYTES + 1), MODERATOR, armored=False)
    MODERATOR.decrypt(big, keep=True)
    MODERATOR.decrypt(big, keep=True)
    assert len(calls) == 3, "a large block is not kept"
    foreign = _seal(b"not yours", OTHER, armored=False)
    for _ in range(2):
        with pytest.raises(FormatError):
            MODERATOR.decrypt(foreign, keep=True)
    assert len(calls) == 5, "a refusal is not kept: age is asked again"
    assert foreign not in MODERATOR._opened and OTHER.decrypt(foreign) == b"not yours"


def test_an_opening_without_keep_is_ages_work_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the look ahead keeps: a reader that opens the same block again and again (a
    benchmark's crypto floor, a player's report read twice) asks age each time."""
    calls = _count_age(monkeypatch)
    reader = Identity.generate("reader")
    data = _seal(b"the floor", reader, armored=True)
    assert [reader.decrypt(data) for _ in range(3)] == [b"the floor"] * 3
    assert len(calls) == 3 and not reader._opened


def test_the_press_look_ahead_opens_an_order_file_for_the_order_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``open_press`` on a sealed order file (not press) keeps its opening, and the order
    reader's ``unseal`` of the same text is answered from it: one decryption for both."""
    from pbem.orders import OrderHeader, seal, sign, unseal
    from pbem.press.relay import open_press

    moderator, alice = Identity.generate("moderator"), Identity.generate("alice")
    text = seal(sign(alice, OrderHeader("X", 1, "alice", 1), ["draw"]), [moderator.public()])
    calls = _count_age(monkeypatch)
    assert open_press(text, moderator, "inbox/alice/t1.txt") is None
    assert "Player: alice" in unseal(text, moderator, "inbox/alice/t1.txt")
    assert len(calls) == 1
