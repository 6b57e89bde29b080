"""Whom a player trusts: the moderator key is pinned on first use, or given explicitly; and
the moderator's own safety rails (no rollback once the seed is public, reports rebuilt)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.engine import SeenRecord
from pbem.errors import RollbackError, SignatureError, UsageError
from pbem.keys import Identity
from pbem.player import KnownModerators, read_report
from pbem.reports import parse_report

from .conftest import Table, new_table


def test_first_report_pins_the_moderator_and_a_forgery_is_refused(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    home = tmp_path / "alice-home"
    text, source = table.report_text("alice")
    read_report(text, source, keys["alice"], home=home)
    game_id = table.folder.read().game_id
    assert game_id in (home / "moderators.json").read_text()

    # mallory runs a look-alike game with the same id in a shared folder
    fake = new_table(tmp_path / "fake", dict(keys, moderator=keys["mallory"]), "game")
    assert fake.folder.read().game_id == game_id
    fake_text, fake_source = fake.report_text("alice")
    parse_report(fake_text, fake_source, keys["alice"])  # self-consistent on its own
    with pytest.raises(SignatureError, match="a forged report, or the moderator changed keys"):
        read_report(fake_text, fake_source, keys["alice"], home=home)

    # an explicit card wins, and re-pins (the moderator really changed keys)
    read_report(fake_text, fake_source, keys["alice"], keys["mallory"].public(), home=home)
    with pytest.raises(SignatureError):
        read_report(text, source, keys["alice"], home=home)


def test_pins_are_per_game(tmp_path: Path, keys: dict[str, Identity]) -> None:
    pins = KnownModerators(tmp_path)
    assert pins.check("G1", keys["moderator"].public(), "r") is True
    assert pins.check("G1", keys["moderator"].public(), "r") is False
    assert pins.check("G2", keys["moderator2"].public(), "r") is True
    with pytest.raises(SignatureError):
        pins.check("G1", keys["moderator2"].public(), "r")


def test_cli_read_with_explicit_moderator(table: Table, keys: dict[str, Identity], tmp_path: Path) -> None:
    for name in ("alice", "moderator", "moderator2"):
        (tmp_path / f"{name}.pub").write_text(keys[name].public().to_text())
        if name == "alice":
            keys[name].save(tmp_path / "alice.key")
    _, source = table.report_text("alice")
    runner = CliRunner()
    ok = runner.invoke(
        main,
        [
            "read",
            source,
            "--key",
            str(tmp_path / "alice.key"),
            "--moderator",
            str(tmp_path / "moderator.pub"),
        ],
    )
    assert ok.exit_code == 0 and "Private to alice" in ok.output
    bad = runner.invoke(
        main,
        [
            "read",
            source,
            "--key",
            str(tmp_path / "alice.key"),
            "--moderator",
            str(tmp_path / "moderator2.pub"),
        ],
    )
    assert bad.exit_code == 1 and "was not signed by moderator moderator2" in bad.output
    status = runner.invoke(
        main, ["status", str(table.folder.path), "--moderator", str(tmp_path / "moderator2.pub")]
    )
    assert status.exit_code == 1 and "signed by moderator moderator" in status.output


def test_no_rollback_once_the_seed_is_public(finished: Table, tmp_path: Path) -> None:
    folder = finished.copy_to(tmp_path / "copy")
    with pytest.raises(UsageError, match="seed is revealed"):
        folder.rollback(finished.moderator, 2, now=finished.clock)


def test_publish_rebuilds_lost_reports(table: Table, tmp_path: Path, keys: dict[str, Identity]) -> None:
    table.play_step()
    turn = table.folder.read().turn
    shutil.rmtree(table.folder.reports_dir(turn))
    keys["moderator"].save(tmp_path / "mod.key")
    result = CliRunner().invoke(main, ["publish", str(table.folder.path), "--key", str(tmp_path / "mod.key")])
    assert result.exit_code == 0, result.output
    assert table.report("alice").data["turn"] == turn
    assert (table.folder.reports_dir(turn) / "public.txt").exists()


def test_rollback_records_are_one_file_per_game(
    table: Table, tmp_path: Path, keys: dict[str, Identity]
) -> None:
    """Moderators working on different games never rewrite each other's records."""
    other = new_table(tmp_path / "other", keys, "other")
    seen = SeenRecord(tmp_path / "shared-home")
    first, second = table.folder.read(), other.folder.read()
    seen.record(first)
    seen.record(second)
    assert sorted(p.stem for p in (tmp_path / "shared-home" / "seen").iterdir()) == sorted(
        [first.game_id, second.game_id]
    )
    table.play_step()
    seen.record(table.folder.read())
    seen.check(second)  # untouched by the other game's newer revision
    with pytest.raises(RollbackError, match="an old save was put back"):
        seen.check(first)


def test_status_says_when_reports_are_missing(table: Table) -> None:
    turn = table.folder.read().turn
    (table.folder.reports_dir(turn) / "bob.txt").unlink()
    result = CliRunner().invoke(main, ["status", str(table.folder.path)])
    assert result.exit_code == 0
    assert f"reports of turn {turn} are missing for bob" in result.output and "pbem publish" in result.output
