"""A press ledger written unsigned by the first day's pbem is signed by the moderator, on
purpose, with ``pbem press sign-ledger``.

The twelfth session's attack review made the moderator sign ``press/ledger.txt`` (an
unsigned ledger sealed to the moderator's public age key could be written by anyone) and
refused every other ledger, so a game that had relayed press before could never relay,
report or archive press again: "restore the ledger from a backup" restored another unsigned
one.  Now the refusal of such a ledger says what to do, and the moderator, who alone can
open it, signs it after checking the messages it lists; a ledger of another game, or one
older than the relayed copies in ``press/``, is still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.errors import FormatError
from pbem.keys import encrypt
from pbem.press import ledger
from pbem.press.rules import ALL

from .conftest import PressTable


def _unsigned(table: PressTable, game_id: str | None = None, change: dict[str, object] | None = None) -> None:
    """Write the game's ledger as the first day's pbem did: v1, unsigned, sealed to the
    moderator (``change``: fields of its first entry changed, as a forger would)."""
    save = table.folder.read()
    entries = list(ledger.load(table.folder.path, save.game_id, table.moderator))
    if change:
        entries[0] = ledger.Entry.from_json({**entries[0].to_json(), **change}, "test")
    doc = {
        "format": ledger.LEGACY_FORMAT,
        "game_id": game_id or save.game_id,
        "entries": [e.to_json() for e in entries],
    }
    raw = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
    ledger.ledger_path(table.folder.path).write_text(
        encrypt(raw, [table.moderator.public()], pad_to=ledger.LEDGER_SIZE)
    )


def _key(table: PressTable, tmp_path: Path) -> str:
    path = tmp_path / "mod.key"
    if not path.exists():
        table.moderator.save(path)
    return str(path)


def test_an_unsigned_ledger_is_signed_by_the_moderator_on_purpose(table: PressTable, tmp_path: Path) -> None:
    table.relay(table.say("alice", ("bob",), "one").text)
    _unsigned(table)
    with pytest.raises(FormatError, match="pbem press sign-ledger") as refused:
        table.relay(table.say("carol", (ALL,), "two").text)
    assert "first day of press" in refused.value.message
    result = CliRunner().invoke(
        main, ["press", "sign-ledger", str(table.folder.path), "--key", _key(table, tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "1 message, signed by your key" in result.output and "alice -> bob" in result.output
    table.relay(table.say("carol", (ALL,), "two").text)  # the game's press goes on
    save = table.folder.read()
    assert [e.sender for e in ledger.load(table.folder.path, save.game_id, table.moderator)] == [
        "alice",
        "carol",
    ]
    again = CliRunner().invoke(
        main, ["press", "sign-ledger", str(table.folder.path), "--key", _key(table, tmp_path)]
    )
    assert again.exit_code == 0 and "2 messages" in again.output, again.output


def test_an_unsigned_ledger_of_another_game_or_older_than_press_is_still_refused(
    table: PressTable, tmp_path: Path
) -> None:
    table.relay(table.say("alice", ("bob",), "one").text)
    _unsigned(table, game_id="0" * 16)
    key = _key(table, tmp_path)
    result = CliRunner().invoke(main, ["press", "sign-ledger", str(table.folder.path), "--key", key])
    assert result.exit_code == 1 and "the press ledger of another game" in result.output, result.output
    save = table.folder.read()
    doc = {"format": ledger.LEGACY_FORMAT, "game_id": save.game_id, "entries": []}
    raw = json.dumps(doc).encode()
    ledger.ledger_path(table.folder.path).write_text(
        encrypt(raw, [table.moderator.public()], pad_to=ledger.LEDGER_SIZE)
    )
    (table.folder.path / "press" / "000002.txt").write_text("a kept copy")  # press/ keeps more
    result = CliRunner().invoke(main, ["press", "sign-ledger", str(table.folder.path), "--key", key])
    assert result.exit_code == 1 and "an older one put back" in result.output, result.output


def test_a_signed_ledger_is_left_as_it_is(table: PressTable, tmp_path: Path) -> None:
    table.relay(table.say("alice", ("bob",), "one").text)
    before = ledger.ledger_path(table.folder.path).read_bytes()
    result = CliRunner().invoke(
        main, ["press", "sign-ledger", str(table.folder.path), "--key", _key(table, tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert ledger.ledger_path(table.folder.path).read_bytes() == before


def test_no_ledger_says_so(table: PressTable, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["press", "sign-ledger", str(table.folder.path), "--key", _key(table, tmp_path)]
    )
    assert result.exit_code == 1 and "no press ledger" in result.output, result.output


@pytest.mark.parametrize(
    "change",
    [{"from": "carol"}, {"to": ["bob", "dave"]}, {"turn": 2}, {"letter": "cd" * 32}],
    ids=["another sender", "another recipient", "another turn", "another letter"],
)
def test_an_entry_no_signed_copy_stands_for_is_not_signed(
    table: PressTable, tmp_path: Path, change: dict[str, object]
) -> None:
    """A ledger forged in the unsigned format (anyone can seal one to the moderator) cannot
    be made the moderator's by sign-ledger: each entry must be what the moderator's signed
    relay block in press/NNNNNN.txt says."""
    table.relay(table.say("alice", ("bob",), "one").text)
    _unsigned(table, change=change)
    before = ledger.ledger_path(table.folder.path).read_bytes()
    key = _key(table, tmp_path)
    result = CliRunner().invoke(main, ["press", "sign-ledger", str(table.folder.path), "--key", key])
    assert result.exit_code == 1, result.output
    assert "is not the one the moderator's signed copy" in result.output
    assert ledger.ledger_path(table.folder.path).read_bytes() == before, "nothing was signed"


def test_an_entry_without_its_copy_is_not_signed(table: PressTable, tmp_path: Path) -> None:
    table.relay(table.say("alice", ("bob",), "one").text)
    _unsigned(table)
    (table.folder.path / "press" / "000001.txt").unlink()
    result = CliRunner().invoke(
        main, ["press", "sign-ledger", str(table.folder.path), "--key", _key(table, tmp_path)]
    )
    assert result.exit_code == 1 and "or that copy is missing" in result.output, result.output
