"""Signature and encryption review (twelfth session): an attacker against the moderator's key.

A player pins the moderator's key of a game the first time they read one of its reports
(``$PBEM_HOME/moderators.json``).  Anyone can make a moderator key and sign a report naming
a game's id (it is public): whatever the player refuses to read must not decide which key
is pinned.  Each test fails if the attack works.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine import GameFolder
from pbem.errors import ReplayError, SignatureError, UsageError
from pbem.keys import Identity
from pbem.player import KnownModerators, read_report
from pbem.witness import witness

from .conftest import NOW, PLAYERS, Table, entropy


def _rogue(table: Table, keys: dict[str, Identity], root: Path) -> GameFolder:
    """A game of the same id and players as ``table``'s, run by mallory's key."""
    return GameFolder.create(
        root / "rogue",
        "symbiote",
        keys["mallory"],
        [keys[n].public() for n in PLAYERS],
        {"dealer": "last-seat"},
        now=NOW,
        entropy=entropy("rogue"),
        home=root / "rogue-home",
        game_id=table.folder.read().game_id,
    )


def test_a_refused_public_report_does_not_pin_its_key(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """mallory drops a "public report" of alice's game, signed by mallory's key, in the shared
    folder; alice reads it first (refused: it is the public report).  Before: mallory's key was
    pinned all the same, and alice's real report was then refused as "a forged report, or the
    moderator changed keys", naming mallory's key as the game's."""
    rogue = _rogue(table, keys, tmp_path)
    home = tmp_path / "alice-home"
    forged = (rogue.reports_dir(1) / "public.txt").read_text()
    with pytest.raises(UsageError, match="is the public report"):
        read_report(forged, "public.txt", keys["alice"], home=home)
    game_id = table.folder.read().game_id
    assert KnownModerators(home)._read().get(game_id) is None
    text, source = table.report_text("alice")
    report = read_report(text, source, keys["alice"], home=home)
    assert report.data["player"] == "alice"
    assert KnownModerators(home)._read()[game_id]["sign"] == keys["moderator"].public().verify_key.hex()


def test_a_refused_report_with_a_moderator_given_does_not_pin_it(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """The same with ``--moderator`` (mallory's card, mailed as "the moderator's"): the public
    report is refused and nothing is pinned."""
    rogue = _rogue(table, keys, tmp_path)
    home = tmp_path / "alice-home"
    forged = (rogue.reports_dir(1) / "public.txt").read_text()
    with pytest.raises(UsageError):
        read_report(forged, "public.txt", keys["alice"], keys["mallory"].public(), home=home)
    assert KnownModerators(home)._read() == {}


def test_once_pinned_a_report_of_another_key_is_refused(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """Held: after alice read her real report, mallory's report of the game (encrypted to
    alice, naming her seat) is refused."""
    rogue = _rogue(table, keys, tmp_path)
    home = tmp_path / "alice-home"
    text, source = table.report_text("alice")
    read_report(text, source, keys["alice"], home=home)
    forged = (rogue.reports_dir(1) / "alice.txt").read_text()
    with pytest.raises(SignatureError, match="a forged report, or the moderator changed keys"):
        read_report(forged, "alice.txt", keys["alice"], home=home)


def test_verify_with_a_game_written_by_another_key_is_refused_by_the_kept_reports(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """Held: a game folder replaced by one of the same id and players signed by another key
    (its saves, history and reports all mallory's) is refused by alice's kept report, which
    the real moderator signed."""
    rogue = _rogue(table, keys, tmp_path)
    text, source = table.report_text("alice")
    final = rogue.read()
    with pytest.raises(SignatureError, match="was not signed by moderator mallory"):
        witness([final], final, [(text, source)])


def test_a_report_undone_by_a_rollback_is_not_believed_once_its_successor_was_read(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """The moderator rolls turn 2 back (a fresh shuffle; the old reports go to undone/);
    alice reads the new report of turn 2.  mallory then hands her the undone one, validly
    signed by the same moderator.  Before: `pbem read` showed it as her report, exit 0, and
    `pbem orders` wrote a form from it (orders from a position that no longer exists)."""
    from click.testing import CliRunner

    from pbem.cli import main

    home = tmp_path / "alice-home"
    while table.folder.read().turn < 2 or table.awaited() != "alice":
        table.play_step()
    turn = table.folder.read().turn
    old_text, _ = table.report_text("alice")
    old = tmp_path / "old.txt"
    old.write_text(old_text)
    table.folder.rollback(table.moderator, turn, now=table.tick())
    new_text, source = table.report_text("alice")
    assert new_text != old_text
    read_report(new_text, source, keys["alice"], home=home)
    with pytest.raises(ReplayError, match="was written again after it"):
        read_report(old_text, str(old), keys["alice"], home=home)
    keys["alice"].save(tmp_path / "alice.key")
    for command in ("read", "orders"):
        result = CliRunner().invoke(
            main, [command, str(old), "--key", str(tmp_path / "alice.key")], env={"PBEM_HOME": str(home)}
        )
        assert result.exit_code == 1, result.output
        assert f"reports/turn-{turn:04d}/alice.txt" in result.stderr
    # the newest one, and a report of an earlier turn, still read
    read_report(new_text, source, keys["alice"], home=home)
    first = table.folder.reports_dir(1) / "alice.txt"
    assert read_report(first.read_text(), str(first), keys["alice"], home=home).data["turn"] == 1
