"""A press file relayed by ``pbem submit`` is stamped with the command's clock (the one it
files orders by, :func:`pbem.cli._now`), passed in, not read again from the system clock
inside the press code."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.keys import Identity

WHEN = datetime(2031, 5, 6, 7, 8, 9, tzinfo=UTC)


def run(*args: object) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.output


def test_submit_stamps_relayed_press_with_the_commands_clock(
    tmp_path: Path, keys: dict[str, Identity], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, identity in keys.items():
        identity.save(tmp_path / f"{name}.key")
        (tmp_path / f"{name}.pub").write_text(identity.public().to_text())
    players = [a for n in ("alice", "bob", "carol") for a in ("--player", f"{n}={tmp_path / n}.pub")]
    run(
        "new",
        "symbiote",
        tmp_path / "g",
        "--moderator-key",
        tmp_path / "moderator.key",
        *players,
        "--press",
        "full",
    )
    report = tmp_path / "g" / "reports" / "turn-0001" / "alice.txt"
    said = tmp_path / "p.txt"
    run("say", report, "--key", tmp_path / "alice.key", "--to", "bob", "-m", "Truce?", "-o", said)
    monkeypatch.setattr("pbem.cli._now", lambda: WHEN)
    run("submit", tmp_path / "g", said, "--key", tmp_path / "moderator.key")
    listed = run("press", "list", tmp_path / "g", "--key", tmp_path / "moderator.key")
    assert "alice -> bob" in listed and WHEN.isoformat(timespec="seconds") in listed, listed
