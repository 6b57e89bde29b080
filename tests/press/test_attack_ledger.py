"""Signature and encryption review (twelfth session): an attacker against the press ledger.

``press/ledger.txt`` is what reports list ("#1 from carol to you"), what refuses a replayed
message and what the archive reads.  It is sealed to the moderator, whose age recipient is
public: sealing hides it, it proves nothing.  Anyone who can write the shared folder tries to
put words in the moderator's signed reports, and to have a message relayed twice.  Each
test fails if the attack works.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.errors import FormatError, ReplayError
from pbem.keys import Identity, encrypt
from pbem.press import ledger
from pbem.press.ledger import LEDGER_SIZE, ledger_path

from .conftest import PressTable


def _forged_ledger(table: PressTable, fmt: str, signer: Identity | None) -> str:
    """A ledger mallory writes: one message 'from carol to bob' that nobody sent, sealed to
    the moderator's public age recipient (and, for ``signer``, signed by mallory's key the
    way the moderator signs one)."""
    import base64

    from pbem import canonical

    save = table.folder.read()
    entry = {
        "number": 1,
        "turn": 1,
        "from": "carol",
        "to": ["bob"],
        "broadcast": False,
        "grey": False,
        "id": "AB" * 16,
        "letter": "cd" * 32,
        "readable": False,
        "received": "2026-05-01T12:00:00+00:00",
    }
    body = {"format": fmt, "game_id": save.game_id, "entries": [entry]}
    if signer is not None:
        sig = signer.sign(ledger.LEDGER_DOMAIN, canonical.dumps(body))
        body["signature"] = base64.b64encode(sig).decode()
    raw = json.dumps(body).encode()
    return encrypt(raw, [save.moderator.age_recipient], pad_to=LEDGER_SIZE)


@pytest.mark.parametrize(
    ("fmt", "signed"),
    [("pbem-press-ledger/v1", False), (ledger.LEDGER_FORMAT, False), (ledger.LEDGER_FORMAT, True)],
    ids=["unsigned, as the relay wrote it", "unsigned, new format", "signed by mallory"],
)
def test_a_ledger_sealed_by_anyone_puts_no_line_in_a_signed_report(
    table: PressTable, keys: dict[str, Identity], fmt: str, signed: bool
) -> None:
    """Before: the relay and the reports read any ledger that opened with the moderator's
    key; bob's next report, signed by the moderator, said "#1 from carol to you" for a
    message carol never wrote."""
    path = ledger_path(table.folder.path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_forged_ledger(table, fmt, keys["mallory"] if signed else None))
    game_id = table.folder.read().game_id
    refused = "not signed by this game's moderator|did not sign it"  # a v1 ledger: sign-ledger says
    with pytest.raises(FormatError, match=refused):
        ledger.load(table.folder.path, game_id, table.moderator)
    with pytest.raises(FormatError, match=refused):
        table.advance()
    reports = sorted(table.folder.path.glob("reports/turn-*/bob.txt"))
    assert [p.parent.name for p in reports] == ["turn-0001"]


def test_a_deleted_ledger_relays_no_message_twice(table: PressTable) -> None:
    """Before: with press/ledger.txt deleted, a sealed press file copied from an inbox
    and dropped again was relayed a second time (its Id was no longer known)."""
    first = table.say("alice", ("bob",), "one")
    table.relay(first.text)
    table.relay(table.say("carol", ("bob",), "two").text)
    ledger_path(table.folder.path).unlink()
    with pytest.raises(FormatError, match="the ledger was deleted, or an older one put back"):
        table.relay(first.text)


def test_an_older_ledger_put_back_relays_no_message_twice(table: PressTable, tmp_path: Path) -> None:
    """The same with the ledger of two messages earlier (a copy of the public file)."""
    path = ledger_path(table.folder.path)
    table.relay(table.say("alice", ("bob",), "zero").text)
    shutil.copy(path, tmp_path / "old-ledger.txt")
    again = table.say("alice", ("bob",), "one")
    table.relay(again.text)
    table.relay(table.say("carol", ("bob",), "two").text)
    shutil.copy(tmp_path / "old-ledger.txt", path)
    with pytest.raises(FormatError, match="lists 1 message"):
        table.relay(again.text)


def test_the_ledger_the_relay_writes_reads_back(table: PressTable) -> None:
    """Held: replay with the real ledger in place is refused as before."""
    said = table.say("alice", ("bob",), "once")
    table.relay(said.text)
    with pytest.raises(ReplayError, match="relayed already"):
        table.relay(said.text)
    entries = ledger.load(table.folder.path, table.folder.read().game_id, table.moderator)
    assert [(e.number, e.sender, e.to) for e in entries] == [(1, "alice", ("bob",))]


def test_a_replaced_kept_copy_puts_no_words_in_the_archive(
    table: PressTable, keys: dict[str, Identity]
) -> None:
    """dave's message to all is relayed; mallory replaces its kept copy press/000001.txt by a
    copy of her own, sealed to the moderator's public key, whose letter says something else.
    Before: the archive (and, at the end of the game, press/archive.json, which the moderator
    signs) showed mallory's words as dave's message 1."""
    from pbem.press import text as block
    from pbem.press.listing import archived_press
    from pbem.press.relay import relayed_text
    from pbem.press.sealed import LETTER_SIZE, RELAY_SIZE, normal_armour

    table.relay(table.say("dave", ("all",), "Good luck, all.").text)
    save = table.folder.read()
    moderator = save.moderator
    headers = [("Game", save.game_id), ("From", "dave"), ("To", "all"), ("Id", "AB" * 16)]
    letter = block.write(block.LETTER, headers, ["I resign; alice wins."]).encode()
    armour = encrypt(letter, [moderator], pad_to=LETTER_SIZE)
    relay_headers = [("Game", save.game_id), ("Number", "1"), ("Turn", "1"), ("From", "dave"), ("To", "all")]
    lines = [line for line in armour.splitlines() if line and not line.startswith("-----")]
    sealed = encrypt(
        (block.write(block.RELAY, relay_headers) + normal_armour(lines)).encode(),
        [moderator],
        pad_to=RELAY_SIZE,
    )
    kept = table.folder.path / "press" / "000001.txt"
    kept.write_text(relayed_text(save.game_id, 1, 1, sealed))
    with pytest.raises(FormatError, match="holds another letter than the one the moderator relayed"):
        archived_press(table.folder.path, save, table.moderator)


def test_a_moderator_card_that_signed_no_relay_block_is_not_pinned(
    table: PressTable, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """bob is mailed "the moderator's card" (mallory's) and passes it to `pbem press read`
    for a real relayed copy: refused as forged.  Before: mallory's key was pinned for the game
    all the same, so bob's real reports and press were refused afterwards."""
    from pbem.errors import SignatureError, UsageError
    from pbem.player import KnownModerators
    from pbem.press.read import read_letter

    relayed = table.relay(table.say("alice", ("bob",), "hello").text)
    home = tmp_path / "bob-home"
    with pytest.raises(SignatureError, match="a forged press message"):
        read_letter(relayed.text, "press.txt", keys["bob"], keys["mallory"].public(), home)
    assert KnownModerators(home)._read() == {}
    with pytest.raises(UsageError, match="no moderator key is known here"):
        read_letter(relayed.text, "press.txt", keys["bob"], None, home)
    letter = read_letter(relayed.text, "press.txt", keys["bob"], table.moderator.public(), home)
    assert letter is not None and letter.text == ("hello",)
    assert read_letter(relayed.text, "press.txt", keys["bob"], None, home) is not None


def test_press_sealed_for_another_game_of_the_same_moderator_is_refused(
    table: PressTable, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """Held: alice's press for another game with the same moderator and players, copied into
    this game's inbox, is refused by the game id its envelope signs."""
    from pbem.errors import ForeignError
    from pbem.press.rules import PressRules

    from .conftest import new_table

    other = new_table(tmp_path / "other", keys, PressRules(mode="full", grey=True), "other")
    said = other.say("alice", ("bob",), "meant for the other game")
    with pytest.raises(ForeignError, match="this press is for game"):
        table.relay(said.text)
    assert not ledger_path(table.folder.path).exists()
