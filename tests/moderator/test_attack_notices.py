"""Signature and encryption review (twelfth session): an attacker against notices.

A notice sits in the player's folder of a shared folder, or arrives by mail.  Its details
are encrypted to the player, whose age recipient is public: encryption proves nothing about
who wrote it.  Before, notices were not signed at all, and `pbem open` showed mallory's
"ACCEPTED" notice, or details she encrypted to the player ("the moderator's key changed:
seal your orders to age1..."), exactly as the moderator's.  Now the moderator signs every
notice's words; `pbem open` says on stderr whether the key pinned for the game signed it.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity, encrypt
from pbem.moderator.core import Moderator
from pbem.moderator.notices import Notice
from pbem.player import read_report
from pbem.timing import FixedClock

from .modkit import awaited, drop, new_game, order_block

FORGED = "Your orders are fine. The moderator's key changed: seal to age1forgedrecipientxyz"


def _open(tmp_path: Path, keys: dict[str, Identity], name: str, text: str, home: Path) -> Result:
    if not (tmp_path / f"{name}.key").exists():
        keys[name].save(tmp_path / f"{name}.key")
    notice = tmp_path / "notice.txt"
    notice.write_text(text, encoding="utf-8")
    return CliRunner().invoke(
        main, ["open", str(notice), "--key", str(tmp_path / f"{name}.key")], env={"PBEM_HOME": str(home)}
    )


def _rejected(root: Path, keys: dict[str, Identity], clock: FixedClock, home: Path) -> tuple[Path, str, str]:
    """A real REJECTED notice from a real moderator pass, and the player's home with the
    game's moderator pinned (the player read their report)."""
    game = new_game(root, keys, "g1")
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0)
    mod.run_pass()
    [name] = awaited(game)
    report = game / "reports" / "turn-0001" / f"{name}.txt"
    read_report(report.read_text(), str(report), keys[name], home=home)
    drop(game, name, "o.txt", order_block(game, keys, name, lines=["draw", "discard ZZ"]))
    mod.run_pass()
    [notice] = sorted((game / "players" / name).glob("notice-*"))
    return game, name, notice.read_text(encoding="utf-8")


def test_the_moderators_notice_is_said_to_be_signed(
    root: Path, keys: dict[str, Identity], clock: FixedClock, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    _, name, text = _rejected(root, keys, clock, home)
    result = _open(tmp_path, keys, name, text, home)
    assert result.exit_code == 0, result.output
    assert "REJECTED" in result.stdout and "discard ZZ" in result.stdout
    assert "pbem: signed by the moderator of game" in result.stderr
    assert "BEGIN PBEM NOTICE SIGNATURE" not in result.stdout


def test_a_notice_mallory_wrote_is_not_believed(
    root: Path, keys: dict[str, Identity], clock: FixedClock, tmp_path: Path
) -> None:
    """mallory's ACCEPTED notice with details encrypted to the player's public key; then one
    signed with her own key.  Before: shown like the moderator's, nothing said."""
    home = tmp_path / "home"
    _, name, real = _rejected(root, keys, clock, home)
    game_id = real.splitlines()[0].split("game ", 1)[1].split(",")[0]
    forged = Notice(
        "accepted",
        game_id=game_id,
        turn=1,
        source="o.txt",
        received="2027-01-15T08:00:00+00:00",
        message="Your orders for turn 1 were accepted.",
        secret=FORGED,
    )
    card = keys[name].public()
    for text in (forged.render([card]), forged.render([card], keys["mallory"])):
        result = _open(tmp_path, keys, name, text, home)
        assert result.exit_code == 0, result.output
        assert FORGED.split(":")[0] in " ".join(result.stdout.split())
        assert "signed by the moderator of game" not in result.stderr.replace("NOT signed", "")
        assert "do not act on it" in result.stderr


def test_a_real_notice_changed_or_with_lines_added_is_not_believed(
    root: Path, keys: dict[str, Identity], clock: FixedClock, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    _, name, real = _rejected(root, keys, clock, home)
    changed = real.replace("REJECTED", "ACCEPTED", 1)
    result = _open(tmp_path, keys, name, changed, home)
    assert "NOT signed by the moderator" in result.stderr
    details = encrypt(FORGED.encode(), [keys[name].public()], pad_to=256)
    result = _open(tmp_path, keys, name, f"{real}\n{details}", home)
    assert "line(s) above or below it are not part of it" in result.stderr


def test_without_a_pinned_key_the_signature_cannot_be_checked(
    root: Path, keys: dict[str, Identity], clock: FixedClock, tmp_path: Path
) -> None:
    _, name, real = _rejected(root, keys, clock, tmp_path / "home")
    result = _open(tmp_path, keys, name, real, tmp_path / "elsewhere")
    assert "no moderator key is pinned here" in result.stderr


def test_a_notice_naming_no_game_id_is_not_believed(tmp_path: Path, keys: dict[str, Identity]) -> None:
    text = "pbem moderator notice: game \x1b[2J, turn 1\nResult:   ACCEPTED\n"
    result = _open(tmp_path, keys, "alice", text, tmp_path / "home")
    assert result.exit_code == 0, result.output
    assert result.stderr == "pbem: warning: this notice names no game id pbem writes: do not act on it\n"
