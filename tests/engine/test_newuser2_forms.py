"""The Parasite order form reads as prose: the hand-limit paragraph was written by the game
in lines of 71-75 columns, which pbem's 70-column folding broke again, leaving "be in" alone
on a line ("... give CARD to PLAYER, who must" / "#     be in" / "#   your Location then)")."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main

NAMES = ("alice", "bob", "carol", "dave")


def test_the_hand_limit_paragraph_is_not_broken_by_folding(tmp_path: Path) -> None:
    for name in (*NAMES, "mod"):
        assert CliRunner().invoke(main, ["keygen", name, "--out", str(tmp_path)]).exit_code == 0
    env = {"PBEM_HOME": str(tmp_path / "home")}
    args = ["new", "parasite", str(tmp_path / "game"), "--moderator-key", str(tmp_path / "mod.key")]
    args += [f"--player={n}={tmp_path / n}.pub" for n in NAMES]
    assert CliRunner().invoke(main, args, env=env).exit_code == 0
    report = tmp_path / "game" / "reports" / "turn-0001" / "alice.txt"
    form = tmp_path / "form.txt"
    key = str(tmp_path / "alice.key")
    result = CliRunner().invoke(main, ["orders", str(report), "--key", key, "-o", str(form)], env=env)
    assert result.exit_code == 0, result.output
    lines = form.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "the hand limit of 3" in line)
    assert lines[at + 1 : at + 3] == [
        "#   the rest; name them now (discard CARD | give CARD to PLAYER, who",
        "#   must be in your Location then), or you are asked which to discard.",
    ]
    assert all(len(line) <= 70 for line in lines[at : at + 3])
