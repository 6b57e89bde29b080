"""Grey press reveals nothing of its sender to its recipients.

Alice and Carol each send Bob the same grey message through a moderated shared folder with
mail on.  Everything Bob can see of each (the file in his folder and its name, the mail,
the relayed copy's clear lines, what his key decrypts: the moderator's relay block and the
letter, and the raw age headers of both layers) is compared: they may differ only in the
message number, the letter's random Id and hash, and the random bytes of encryption, and no
byte of any of them names the sender, her key id, signing key or age recipient, or a time.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

from pbem.keys import Identity
from pbem.press import text as block
from pbem.press.relay import open_press
from pbem.press.sealed import LETTER_SIZE, RELAY_SIZE, armour_lines, open_block, stanzas
from pbem.transit import age_plaintext_length as plaintext_length

from .conftest import mailed_grey_table, new_table

T0 = 1_800_000_000
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


def _without_grease(armour: str) -> bytes:
    """An age file's bytes with its grease stanza (random, added by rage to every file
    whoever writes it) taken out."""
    lines = armour_lines(armour)
    assert lines is not None
    raw = base64.b64decode("".join(lines))
    head, rest = raw.split(b"\n--- ", 1)
    kept, skip = [], False
    for line in head.split(b"\n"):
        if line.startswith(b"-> "):
            skip = b"-grease" in line.split(b" ")[1]
        if not skip:
            kept.append(line)
    return b"\n".join(kept) + b"\n--- " + rest


def _identifiers(identity: Identity) -> list[bytes]:
    card = identity.public()
    return [
        card.name.encode(),
        card.key_id.encode(),
        card.key_id.lower().encode(),
        card.verify_key,
        card.verify_key.hex().encode(),
        base64.b64encode(card.verify_key),
        card.age_recipient.encode(),
    ]


def test_grey_press_reveals_nothing_of_its_sender(tmp_path: Path, keys: dict[str, Identity]) -> None:

    table, moderator = mailed_grey_table(tmp_path / "root", keys, tmp_path / "state")
    game = table.folder.path
    outbox = moderator.outbox
    assert outbox is not None
    text = "Watch your back: the one on your left is counting cards."
    seen: dict[str, dict[str, Any]] = {}
    for sender in ("alice", "carol"):
        said = table.say(sender, ("bob",), text, grey=True)
        # the sender's own file name and time must not travel
        dropped = game / "inbox" / sender / f"{sender}-grey-press.txt"
        dropped.write_text(said.text)
        moderator.run_pass(force=True)
        mails = [m for _, m in outbox.pending() if m.to == "bob@example.org"]
        for path, _ in outbox.pending():
            outbox.mark_sent(path)
        [mail] = mails
        files = sorted(p for p in (game / "players" / "bob").iterdir() if p.name.startswith("press-"))
        copy = files[-1]
        assert mail.body.strip() == copy.read_text().strip(), "the mail is the copy in Bob's folder"
        relay_plain = open_block(copy.read_text(), keys["bob"], "copy", "press")
        assert relay_plain is not None
        [(_, letter_armour)] = block.age_blocks(relay_plain[0].split(block.end(block.RELAY), 1)[1])
        letter_plain = open_block(letter_armour, keys["bob"], "letter", "letter")
        assert letter_plain is not None
        relay = block.parse(relay_plain[0], block.RELAY, "relay")
        letter = block.parse(letter_plain[0], block.LETTER, "letter")
        outer = [line for line in copy.read_text().split("-----BEGIN AGE")[0].splitlines()]
        seen[sender] = {
            "name": copy.name,
            "subject": mail.subject,
            "attachments": mail.attachments,
            "clear": outer,
            "relay": relay,
            "letter": letter,
            "outer_bytes": _without_grease(copy.read_text()),
            "letter_bytes": _without_grease(letter_armour),
            "outer_len": plaintext_length(armour_lines(copy.read_text()) or []),
            "letter_len": plaintext_length(armour_lines(letter_armour) or []),
            "stanzas": stanzas(armour_lines(letter_armour) or []),
            "everything": b"\n".join(
                [
                    copy.name.encode(),
                    mail.subject.encode(),
                    copy.read_bytes(),
                    relay_plain[0].encode(),
                    letter_plain[0].encode(),
                    _without_grease(copy.read_text()),
                    _without_grease(letter_armour),
                ]
            ),
        }
        assert dropped.name not in seen[sender]["everything"].decode("utf-8", "replace")
    a, c = seen["alice"], seen["carol"]
    # names, subjects and clear lines differ only in the message number
    assert (a["name"], c["name"]) == ("press-000001.txt", "press-000002.txt")
    assert str(a["subject"]).replace("message 1", "message N") == str(c["subject"]).replace(
        "message 2", "message N"
    )
    assert a["attachments"] == c["attachments"] == ()
    assert [line.replace("message 1", "message N") for line in a["clear"]] == [
        line.replace("message 2", "message N") for line in c["clear"]
    ]
    # the decrypted layers: same headers but for the number, the random Id and the hash
    ra, rc = a["relay"], c["relay"]
    assert isinstance(ra, block.Block) and isinstance(rc, block.Block)
    differ = {k for (k, v), (_, w) in zip(ra.headers, rc.headers, strict=True) if v != w}
    assert differ == {"Number", "Letter"}
    assert not ra.has("Key") and ra.header("From") == "someone"
    la, lc = a["letter"], c["letter"]
    assert isinstance(la, block.Block) and isinstance(lc, block.Block)
    assert la.signature is None and lc.signature is None
    assert {k for (k, v), (_, w) in zip(la.headers, lc.headers, strict=True) if v != w} == {"Id"}
    assert la.text == lc.text and la.header("From") == "someone" and not la.has("Turn")
    # sizes: every layer padded to one size, and the age files equal in length but for grease
    assert a["outer_len"] == c["outer_len"] == RELAY_SIZE
    assert a["letter_len"] == c["letter_len"] == LETTER_SIZE
    assert len(a["outer_bytes"]) == len(c["outer_bytes"])
    assert len(a["letter_bytes"]) == len(c["letter_bytes"])
    assert [s for s in a["stanzas"] if s == "X25519"] == ["X25519"], "encrypted to Bob alone"
    # no byte names the sender, her keys, or a time
    for sender, other in (("alice", a), ("carol", c)):
        everything = other["everything"]
        assert isinstance(everything, bytes)
        for ident in _identifiers(keys[sender]):
            assert ident not in everything, (sender, ident)
        assert not _ISO.search(everything.decode("utf-8", "replace"))
    # the journal, which the folder shows, names no sender either
    journal = (game / "moderator" / "record.json").read_text()
    assert "a press file: relayed" in journal
    assert "alice" not in journal and "carol" not in journal


def test_the_moderator_could_tell_but_recipients_cannot_open_the_envelope(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    from pbem.press.rules import PressRules

    table = new_table(tmp_path, keys, PressRules(mode="full", grey=True))
    said = table.say("alice", ("bob",), "hi", grey=True)
    assert open_press(said.text, keys["bob"], "x") is None, "the sealed file is for the moderator only"
    assert open_press(said.text, keys["moderator"], "x") is not None
