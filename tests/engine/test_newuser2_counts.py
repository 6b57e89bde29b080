"""One game, one count of its turns: ``pbem demo`` said "over after 44 turns" and ``pbem
verify`` "44 turns re-played", while ``pbem archive`` summed the same game up as "45 turns"
(it counted the page of the final position, where nobody plays)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main


def test_demo_verify_and_archive_count_the_same_turns(tmp_path: Path) -> None:
    env = {"PBEM_HOME": str(tmp_path / "home")}
    demo = CliRunner().invoke(
        main, ["demo", "symbiote", "--players", "3", "--seed", "3", "--out", str(tmp_path / "d")], env=env
    )
    assert demo.exit_code == 0, demo.output
    [played] = re.findall(r"over after (\d+) turns", demo.output)
    game = str(tmp_path / "d" / "game")
    verify = CliRunner().invoke(main, ["verify", game], env=env)
    assert verify.exit_code == 0, verify.output
    assert f"verified: {played} turns re-played" in verify.output
    archive = CliRunner().invoke(main, ["archive", game, "--out", str(tmp_path / "a")], env=env)
    assert archive.exit_code == 0, archive.output
    assert f"Symbiote, {played} turns played: " in archive.output
    page = next((tmp_path / "a").glob("*.txt")).read_text()
    assert f"Re-played {played} turns" in page
