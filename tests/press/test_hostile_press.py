"""Hostile input review (tenth session): terminal escapes in a letter another player signed.

``pbem say`` refuses control characters, but a player may sign a letter by other means, and
the moderator cannot read private press to refuse it.  The recipient's ``pbem press read``
printed the text as it came: an escape sequence in it reached the reader's terminal (set
its title, wrote its clipboard).  Now every character ``say`` refuses is shown as its
escape once the signature is checked, for the reader and in the archive.
"""

from __future__ import annotations

import unicodedata

import pytest

from pbem.press import say as say_module
from pbem.press.listing import archived_press
from pbem.press.rules import ALL

from .conftest import PressTable

HOSTILE = ["hello \x1b]0;PWNED\x07 and \x1b]52;c;ZWNobyBwd25lZA==\x07", "bell\x07\x00end"]


def _controls(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) == "Cc" and c != "\n"]


@pytest.fixture
def hostile_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sender whose program skipped pbem say's check of the message."""
    monkeypatch.setattr(say_module, "message_lines", lambda text, source: list(HOSTILE))


def test_a_private_letter_with_escapes_is_shown_escaped(table: PressTable, hostile_client: None) -> None:
    relayed = table.relay(table.say("alice", ("bob",), "ignored").text)
    letter = table.read(relayed, "bob")
    assert letter is not None and letter.sender == "alice"
    shown = letter.render()
    assert _controls(shown) == [], repr(shown)
    assert "hello \\x1b]0;PWNED\\x07" in shown and "bell\\x07\\x00end" in shown


def test_press_to_all_with_escapes_is_archived_escaped(table: PressTable, hostile_client: None) -> None:
    table.relay(table.say("alice", (ALL,), "ignored").text)
    [message] = archived_press(table.folder.path, table.folder.read(), table.moderator)
    assert all(_controls(line) == [] for line in message.text), message.text
    assert message.text[0].startswith("hello \\x1b]0;PWNED")


def test_plain_letters_are_shown_as_written(table: PressTable) -> None:
    relayed = table.relay(table.say("alice", ("bob",), "Ça va? Ünïcode — fine.\n\nTabs\tbecome spaces.").text)
    letter = table.read(relayed, "bob")
    assert letter is not None
    assert letter.text == ("Ça va? Ünïcode — fine.", "", "Tabs    become spaces.")
