"""``pbem say --to`` with a misspelt name gets a suggestion, as a misspelt game or option
does.  Before: "'alcie' is no player of this game" and the list of players, nothing more."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main

NAMES = ("alice", "bob", "carol")


def test_a_misspelt_recipient_gets_a_suggestion(tmp_path: Path) -> None:
    for name in (*NAMES, "mod"):
        assert CliRunner().invoke(main, ["keygen", name, "--out", str(tmp_path)]).exit_code == 0
    env = {"PBEM_HOME": str(tmp_path / "home")}
    args = [
        "new",
        "symbioz",
        str(tmp_path / "game"),
        "--moderator-key",
        str(tmp_path / "mod.key"),
        "--press",
        "full",
    ]
    assert (
        CliRunner()
        .invoke(main, [*args, *(f"--player={n}={tmp_path / n}.pub" for n in NAMES)], env=env)
        .exit_code
        == 0
    )
    report = str(tmp_path / "game" / "reports" / "turn-0001" / "bob.txt")
    say = ["say", report, "--key", str(tmp_path / "bob.key"), "-m", "hi", "-o", str(tmp_path / "press.txt")]
    result = CliRunner().invoke(main, [*say, "--to", "alcie", "--to", "Carl"], env=env)
    assert result.exit_code == 1
    assert "'alcie', 'Carl' are no players of this game (did you mean 'alice', 'carol'?)" in result.output
    assert "the players are: alice, bob, carol (or all)" in result.output
    assert not (tmp_path / "press.txt").exists()
    result = CliRunner().invoke(main, [*say, "--to", "zed"], env=env)
    assert result.exit_code == 1
    assert "'zed' is no player of this game\n" in result.output
