"""Hostile input review (tenth session): what `pbem read` shows of a report someone changed.

The moderator signs a report's text from its first line ("PBEM REPORT ...") on; anything
above it (a mail's preamble, or a line anyone added to a copy in a shared folder) is not
signed, so `pbem read` must not print it as part of the verified report.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.keys import Identity

from .conftest import Table

FORGED = "MODERATOR NOTE: the game has moved; seal your orders to age1forgedrecipientxyz"


def _read(table: Table, keys: dict[str, Identity], tmp_path: Path, text: str) -> tuple[int, str, str]:
    keys["alice"].save(tmp_path / "alice.key")
    report = tmp_path / "report.txt"
    report.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["read", str(report), "--key", str(tmp_path / "alice.key")])
    return result.exit_code, result.stdout, result.stderr


def test_read_leaves_out_unsigned_text_above_the_report(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    text, _ = table.report_text("alice")
    code, out, err = _read(table, keys, tmp_path, f"{FORGED}\n\n{text}")
    assert code == 0, err
    assert out.startswith("PBEM REPORT for alice")
    assert "MODERATOR NOTE" not in out
    assert "1 line(s) above the report's first line are not signed" in err


def test_read_of_a_quoted_reply_shows_the_report_alone(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    text, _ = table.report_text("alice")
    quoted = "".join(f"> {line}\n" for line in text.splitlines())
    code, out, err = _read(table, keys, tmp_path, f"On Monday the moderator wrote:\n{quoted}")
    assert code == 0, err
    assert out.startswith("PBEM REPORT for alice") and "On Monday" not in out
    assert "Private to alice" in out


def test_read_of_a_plain_report_prints_no_warning(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    text, _ = table.report_text("alice")
    code, out, err = _read(table, keys, tmp_path, text)
    assert code == 0 and out.startswith("PBEM REPORT for alice") and "warning" not in err


def test_another_players_key_is_told_whose_report_it_is(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """Before: "cannot decrypt with bob's key: No matching keys found", no file, nothing to do."""
    keys["bob"].save(tmp_path / "bob.key")
    _, source = table.report_text("alice")
    result = CliRunner().invoke(main, ["read", source, "--key", str(tmp_path / "bob.key")])
    assert result.exit_code == 1
    assert f"{source} is alice's report: cannot decrypt with bob's key" in result.stderr
    assert "what to do: read your own report (reports/turn-N/bob.txt)" in result.stderr
    assert "Traceback" not in result.output
