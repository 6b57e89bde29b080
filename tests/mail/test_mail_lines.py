"""Line numbers in the answer to a mailed order file are the lines of the mail the player
wrote (issue 9: "error line numbers point into the player's own file"), not lines counted
from the order block's BEGIN line."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.extract import Candidate, find_blocks
from pbem.moderator.notices import open_text

from .fakebox import refused_by_mail


def test_found_blocks_know_their_line() -> None:
    text = "Hello,\n\nmy orders:\n-----BEGIN PBEM ORDERS-----\nx\n-----END PBEM ORDERS-----\n"
    [block] = find_blocks(text, "mail body")
    assert block.line == 4
    assert block.filed_text().splitlines()[3] == "-----BEGIN PBEM ORDERS-----"
    assert Candidate("a\n", "orders", "x", line=20_000).filed_text() == "a\n", "no padding past the bound"


def test_a_refused_mailed_order_names_the_line_of_the_mail(tmp_path: Path) -> None:
    prose = ["Dear moderator,", "", "here are my orders for this turn;", "I hope they are fine.", ""]
    bodies: list[str] = []

    def body(block: str) -> str:
        bodies.append("\n".join([*prose, block]))
        return bodies[-1]

    text, player, _ = refused_by_mail(
        tmp_path, body, {"Subject": "orders", "Message-ID": "<lines-1@example.org>"}
    )
    bad_line = bodies[0].splitlines().index("discard ZZ") + 1
    assert bad_line > 8, "the bad line must stand well below the BEGIN line's own count"
    details = open_text(text, player)
    assert f"line {bad_line}: invalid order 'discard ZZ'" in " ".join(details.split()), details
