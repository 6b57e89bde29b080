"""Line numbers in the answer to a mailed order file are the lines of the mail the player
wrote (issue 9: "error line numbers point into the player's own file"), not lines counted
from the order block's BEGIN line."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from pbem.engine import GameFolder
from pbem.mail.extract import Candidate, find_blocks
from pbem.moderator.notices import open_text
from pbem.orders import sign
from pbem.player import form_header
from pbem.reports import parse_report

from .fakebox import FakeBox, make_judge, make_keys, make_root


def test_found_blocks_know_their_line() -> None:
    text = "Hello,\n\nmy orders:\n-----BEGIN PBEM ORDERS-----\nx\n-----END PBEM ORDERS-----\n"
    [block] = find_blocks(text, "mail body")
    assert block.line == 4
    assert block.filed_text().splitlines()[3] == "-----BEGIN PBEM ORDERS-----"
    assert Candidate("a\n", "orders", "x", line=20_000).filed_text() == "a\n", "no padding past the bound"


def test_a_refused_mailed_order_names_the_line_of_the_mail(tmp_path: Path) -> None:
    keys = make_keys()
    root = make_root(tmp_path, keys)
    box = FakeBox()
    judge = make_judge(root, keys, tmp_path / "state", box)
    judge.moderator.run_pass()
    game = root / "game"
    save = GameFolder(game).read()
    awaited = save.names[save.awaiting[0]]
    save_turn = game / "reports" / f"turn-{save.turn:04d}"
    player = keys[awaited]
    report = parse_report((save_turn / f"{awaited}.txt").read_text(encoding="utf-8"), "r", player)
    block = sign(player, form_header(report), ["discard ZZ"])
    prose = ["Dear moderator,", "", "here are my orders for this turn;", "I hope they are fine.", ""]
    body = "\n".join([*prose, block])
    bad_line = body.splitlines().index("discard ZZ") + 1
    assert bad_line > 8, "the bad line must stand well below the BEGIN line's own count"
    msg = EmailMessage()
    msg["From"] = f"{awaited}@example.org"
    msg["To"] = "judge@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<lines-1@example.org>"
    msg.set_content(body)
    box.add(msg.as_bytes())
    judge.intake()
    judge.moderator.settle_ns = 0  # the filed block may be read at once
    judge.moderator.run_pass(force=True)
    [notice] = sorted((game / "players" / awaited).glob("notice-*.txt"))
    details = open_text(notice.read_text(encoding="utf-8"), player)
    assert f"line {bad_line}: invalid order 'discard ZZ'" in " ".join(details.split()), details
