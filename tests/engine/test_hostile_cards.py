"""Hostile input review (tenth session): two players' cards that hold one key.

A player may send a second card under another name made from their own key (the card is
self-signed, so it verifies): ``pbem new`` took both seats silently, and that one person
then read both seats' hidden cards.  It now warns, as it does for a card holding the
moderator's own key; so does ``pbem replace`` (for another seat's key or the moderator's).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity

from .conftest import Table


def _new(keys: dict[str, Identity], tmp_path: Path, cards: dict[str, Path]) -> Result:
    keys["moderator"].save(tmp_path / "mod.key")
    args = ["new", "symbiote", str(tmp_path / "game"), "--moderator-key", str(tmp_path / "mod.key")]
    for name, card in cards.items():
        args += ["--player", f"{name}={card}"]
    return CliRunner().invoke(main, args)


def _card(identity: Identity, path: Path) -> Path:
    path.write_text(identity.public().to_text())
    return path


def test_two_seats_with_one_key_are_warned_about(keys: dict[str, Identity], tmp_path: Path) -> None:
    keys["bob"].save(tmp_path / "bob.key")
    text = (tmp_path / "bob.key").read_text().replace("name: bob\n", "name: bobby\n")
    (tmp_path / "bobby.key").write_text(text)
    (tmp_path / "bobby.key").chmod(0o600)
    bobby = Identity.load(tmp_path / "bobby.key")
    assert bobby.name == "bobby" and bobby.public().key_id == keys["bob"].public().key_id
    cards = {
        "alice": _card(keys["alice"], tmp_path / "alice.pub"),
        "bob": _card(keys["bob"], tmp_path / "bob.pub"),
        "bobby": _card(bobby, tmp_path / "bobby.pub"),
    }
    result = _new(keys, tmp_path, cards)
    assert result.exit_code == 0, result.output
    assert "warning: the cards of bob and bobby hold the same key" in result.stderr
    assert "reads both players' hidden cards" in result.stderr


def test_cards_of_their_own_get_no_warning(keys: dict[str, Identity], tmp_path: Path) -> None:
    cards = {name: _card(keys[name], tmp_path / f"{name}.pub") for name in ("alice", "bob", "carol")}
    result = _new(keys, tmp_path, cards)
    assert result.exit_code == 0 and "warning" not in result.stderr, result.output


def _replace(table: Table, tmp_path: Path, seat: str, card: Path) -> Result:
    if not (tmp_path / "mod.key").exists():
        table.moderator.save(tmp_path / "mod.key")
    return CliRunner().invoke(
        main,
        ["replace", str(table.folder.path), seat, str(card), "--key", str(tmp_path / "mod.key")],
        env={"PBEM_STATE_DIR": str(tmp_path / "state")},
    )


def test_replace_with_another_seats_key_or_the_moderators_is_warned_about(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    keys["bob"].save(tmp_path / "bob.key")
    text = (tmp_path / "bob.key").read_text().replace("name: bob\n", "name: carol\n")
    (tmp_path / "carol.key").write_text(text)
    (tmp_path / "carol.key").chmod(0o600)
    result = _replace(
        table, tmp_path, "carol", _card(Identity.load(tmp_path / "carol.key"), tmp_path / "c.pub")
    )
    assert result.exit_code == 0, result.output
    assert "warning: the card of carol holds the same key as bob" in result.stderr
    result = _replace(table, tmp_path, "alice", _card(keys["moderator"], tmp_path / "m.pub"))
    assert result.exit_code == 0 and "(the moderator: every seat)" in result.stderr, result.output


def test_replace_with_a_card_of_their_own_gets_no_warning(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    result = _replace(table, tmp_path, "carol", _card(keys["mallory"], tmp_path / "mallory.pub"))
    assert result.exit_code == 0 and "warning" not in result.stderr, result.output
