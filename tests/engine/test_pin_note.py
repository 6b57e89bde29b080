"""``pbem read`` says when it starts to trust a moderator key (twelfth session; left by the
signature and encryption review).

pbem trusts the key that signed the first report of a game a player reads (trust on first
use): a forged report of the player's own seat read before any real one pins the forger, and
nothing said so.  Now the first read of a game prints a note on standard error naming the
key id, to compare with the Key-Id line of the card the moderator gave; later reads, and a
read with ``--moderator CARD`` (the key given, not guessed), print none."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.keys import Identity

from .conftest import Table


def test_the_first_read_of_a_game_names_the_key_it_trusts(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    keys["alice"].save(tmp_path / "alice.key")
    text, _ = table.report_text("alice")
    report = tmp_path / "report.txt"
    report.write_text(text, encoding="utf-8")
    read = ["read", str(report), "--key", str(tmp_path / "alice.key")]
    first = CliRunner().invoke(main, read)
    assert first.exit_code == 0, first.output
    key_id = keys["moderator"].public().key_id
    assert f"its moderator's key {key_id} is now trusted for the game" in first.stderr
    assert "Key-Id line of the card your moderator gave you" in first.stderr
    again = CliRunner().invoke(main, read)
    assert again.exit_code == 0 and again.stderr == "", again.stderr


def test_no_note_when_the_moderators_card_is_given(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    keys["alice"].save(tmp_path / "alice.key")
    (tmp_path / "mod.pub").write_text(keys["moderator"].public().to_text(), encoding="utf-8")
    text, _ = table.report_text("alice")
    report = tmp_path / "report.txt"
    report.write_text(text, encoding="utf-8")
    done = CliRunner().invoke(
        main,
        ["read", str(report), "--key", str(tmp_path / "alice.key"), "--moderator", str(tmp_path / "mod.pub")],
    )
    assert done.exit_code == 0 and done.stderr == "", done.stderr
