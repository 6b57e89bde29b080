"""Side channels of grey press outside the recipient's own files.

``test_grey_leak.py`` compares what the recipient sees of grey messages from two senders.
Every other player can read the shared folder too (and, on a mailing list, every mail):
two tables, one where Alice and one where Carol sends Bob the same grey message through a
moderated shared folder with mail on, must write the same files (by name and outsider
byte count, outside the inboxes, which the press guide already names as what pbem cannot
hide) and the same mails (by recipient and subject).  Before, the sender got a RELAYED
notice in her own folder, in clear: "Your press message ... was relayed as message 1 to
bob, as grey press", and a mail saying so.  The sender now learns it from the private part
of her next report, which every player gets anyway.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.player import read_report
from pbem.press.rules import PressRules
from pbem.timing import FixedClock

from .conftest import PLAYERS, T0, PressTable, mailed_grey_table, new_table

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # test_sizes
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _files(game: Path) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Every file of the game folder outside the inboxes, with its outsider byte count."""
    from test_sizes import outsider_size

    return {
        str(p.relative_to(game)): outsider_size(p.read_text(encoding="utf-8"))
        for p in sorted(game.rglob("*"))
        if p.is_file() and "inbox" not in p.relative_to(game).parts
    }


def _grey_from(sender: str, tmp_path: Path, keys: dict[str, Identity]) -> tuple[PressTable, Moderator, dict]:
    """A table where ``sender`` sends Bob one grey message; what changed in the folder and
    the mails the pass wrote."""
    table, moderator = mailed_grey_table(tmp_path / sender, keys, tmp_path / sender / "state")
    game = table.folder.path
    outbox = moderator.outbox
    assert outbox is not None
    before = _files(game)
    said = table.say(sender, ("bob",), "Mind the marker.", grey=True)
    (game / "inbox" / sender / "press.txt").write_text(said.text)
    moderator.run_pass(force=True)
    after = _files(game)
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    mails = sorted((m.to, m.subject) for _, m in outbox.pending())
    for path, _ in outbox.pending():
        outbox.mark_sent(path)
    return table, moderator, {"files": changed, "mails": mails}


def test_a_grey_sender_is_not_named_by_any_file_or_mail(tmp_path: Path, keys: dict[str, Identity]) -> None:
    seen = {sender: _grey_from(sender, tmp_path, keys) for sender in ("alice", "carol")}
    a, c = seen["alice"][2], seen["carol"][2]
    assert "players/bob/press-000001.txt" in a["files"], "the message was delivered"
    assert [to for to, _ in a["mails"]] == ["bob@example.org"], a["mails"]
    assert a["mails"] == c["mails"]
    assert a["files"].keys() == c["files"].keys(), sorted(set(a["files"]) ^ set(c["files"]))
    assert a["files"] == c["files"]
    for sender in ("alice", "carol"):
        game = seen[sender][0].folder.path
        for path in (game / "players" / sender).glob("notice-*"):
            assert "grey" not in path.read_text(), path.name


def test_the_grey_sender_learns_it_from_her_next_report(tmp_path: Path, keys: dict[str, Identity]) -> None:
    table, moderator, _ = _grey_from("alice", tmp_path, keys)
    table.advance()  # the silent seats' default orders
    moderator.run_pass(force=True)
    texts = {}
    for name in PLAYERS:
        text, source = table.report_text(name)
        report = read_report(text, source, keys[name], home=table.home)
        texts[name] = report.private_text or ""
    assert "\nYour grey messages relayed in turn 1 (as from someone): 1\n" in texts["alice"]
    assert "#1 from someone to you" in texts["bob"]
    for name in ("bob", "carol", "dave"):  # the line is there for everyone, one length
        assert "\nYour grey messages relayed in turn 1 (as from someone): 0\n" in texts[name], name


def test_a_relayed_notice_names_neither_recipients_nor_number_in_clear(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    """Signed press: the sender's RELAYED notice sits in her folder, which every player reads;
    to whom and as which message is in its encrypted details (it said "relayed as message 1
    to bob, under your name" in clear)."""
    from pbem.moderator.notices import open_text
    from pbem.orders import AGE_BEGIN

    root = tmp_path / "root"
    root.mkdir()
    (root / "moderator.toml").write_text("[moderator]\nsettle = 0\n")
    table = new_table(root, keys, PressRules(mode="full", grey=True), "g")
    game = table.folder.path
    moderator = Moderator(root, keys["moderator"], clock=FixedClock(T0), state_dir=root / "state", settle=0)
    moderator.run_pass(force=True)
    said = table.say("alice", ("bob",), "Mind the marker.")
    (game / "inbox" / "alice" / "press.txt").write_text(said.text)
    moderator.run_pass(force=True)
    assert (game / "players" / "bob" / "press-000001.txt").is_file()
    [notice] = (game / "players" / "alice").glob("notice-*")
    text = notice.read_text(encoding="utf-8")
    clear = text.split(AGE_BEGIN, 1)[0]
    assert "RELAYED" in clear
    assert "bob" not in clear and "message 1" not in clear, clear
    assert "relayed as message 1 to bob, under your name" in open_text(text, keys["alice"]).replace(
        "\n  ", " "
    )
