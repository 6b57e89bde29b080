"""Mail clients review (eleventh session): a mail whose base64 transfer encoding is damaged
(cut off by a gateway, or a character changed on the way) is answered saying so.  Before,
the answer was "no order block was found in your mail", which sends a player who did paste
the block to look for a mistake of their own.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from .clientkit import World, judge_mail, make_world, raw_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("encoding"))


@pytest.mark.parametrize("damage", ["cut off", "a character changed"])
def test_damaged_base64_is_named_in_the_answer(world: World, damage: str, tmp_path: Path) -> None:
    encoded = base64.encodebytes(("Hi\r\n\r\n" + world.sealed.replace("\n", "\r\n")).encode())
    cut = len(encoded) // 2
    while len(encoded[:cut].replace(b"\n", b"")) % 4 != 2:  # cut inside a group of four
        cut += 1
    broken = encoded[:cut] if damage == "cut off" else encoded.replace(b"A", b"!", 1)
    outcome = judge_mail(world, raw_mail(world, broken, "text/plain; charset=utf-8", "base64"), tmp_path)
    assert not outcome.accepted and outcome.quarantined == 1
    [answer] = outcome.answers
    assert "The base64 encoding of the text/plain body is damaged" in answer, answer


def test_intact_base64_is_read_as_before(world: World, tmp_path: Path) -> None:
    encoded = base64.encodebytes(world.sealed.encode())
    outcome = judge_mail(world, raw_mail(world, encoded, "text/plain; charset=utf-8", "base64"), tmp_path)
    assert outcome.accepted and outcome.answers == ()
