"""Hostile input review (tenth session): two players' cards that hold one key.

A player may send a second card under another name made from their own key (the card is
self-signed, so it verifies): ``pbem new`` took both seats silently, and that one person
then read both seats' hidden cards.  It now warns, as it does for a card holding the
moderator's own key.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity


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
