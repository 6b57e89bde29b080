"""Mail clients review (eleventh session): a reply that carries the player's earlier orders.

Outlook (and any client set to "include original message" without ``>`` marks) puts the
mail replied to below a "-----Original Message-----" line, unquoted: a player who answers
their own orders mail with new orders sends both blocks, the new one (higher Seq) and the
old one.  The new orders must be accepted, and the player must not be told "REJECTED" about
the old block they never meant to send again.  Before, both were filed: the old one was
refused as a replay ("sign them again with Seq: 3") beside the acceptance, or, when it came
second, accepted first and then replaced.
"""

from __future__ import annotations

from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.orders import parse, sign

from .clientkit import World, headers, judge_mail, make_world, text_mail


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("replies"))


def _newer(world: World) -> str:
    header = parse(world.clear).header
    return sign(world.player, replace(header, seq=header.seq + 1), ["draw  # on second thoughts"])


ORIGINAL = "\n\n-----Original Message-----\nFrom: alice\nSent: Monday\nTo: judge\nSubject: my orders\n\n"


@pytest.mark.parametrize("newer_first", [True, False])
def test_an_outlook_reply_files_only_the_newest_orders(
    world: World, newer_first: bool, tmp_path: Path
) -> None:
    newer = _newer(world)
    body = (newer + ORIGINAL + world.clear) if newer_first else (world.clear + "\nnew:\n" + newer)
    outcome = judge_mail(world, text_mail(world, body, "RE: my orders"), tmp_path)
    assert outcome.accepted
    assert len(outcome.notices) == 1, outcome.notices
    assert "ACCEPTED" in outcome.notices[0] and "REJECTED" not in outcome.notices[0]
    accepted = sorted(p.name for p in (tmp_path / "root" / "game" / "orders").rglob("*.txt"))
    assert accepted == [f"{world.player.name}.seq2.txt"], accepted


def test_blocks_for_another_turn_are_both_filed(world: World, tmp_path: Path) -> None:
    header = parse(world.clear).header
    later = sign(world.player, replace(header, turn=header.turn + 1, seq=header.seq + 1), ["draw"])
    outcome = judge_mail(
        world, text_mail(world, world.clear + "\nand for next turn:\n" + later, "RE: my orders"), tmp_path
    )
    assert outcome.accepted
    assert len(outcome.notices) == 2, "each block is answered: the other turn's is not thrown away"


def test_a_damaged_pasted_copy_does_not_hide_the_attached_file(world: World, tmp_path: Path) -> None:
    """The same Seq pasted (a client put smart quotes in) and attached: both are filed."""
    msg = headers(EmailMessage(), world)
    msg.set_content("Pasted and attached:\n\n" + world.clear.replace("don't", "don\u2019t"))
    msg.add_attachment(world.clear.encode("utf-8"), maintype="text", subtype="plain", filename="orders.txt")
    outcome = judge_mail(world, msg.as_bytes(), tmp_path)
    assert outcome.accepted, outcome
