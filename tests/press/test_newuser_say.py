"""``pbem say`` refusing a message by the game's rules: the message said "pbem: pbem say:
'bobby' is no player of this game" (the command's name twice, as if it were the place);
it now says what was refused: your message."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.keys import Identity


def test_say_names_the_message_not_the_command(tmp_path: Path, keys: dict[str, Identity]) -> None:
    for name, identity in keys.items():
        identity.save(tmp_path / f"{name}.key")
        (tmp_path / f"{name}.pub").write_text(identity.public().to_text())
    players = [a for n in ("alice", "bob", "carol") for a in ("--player", f"{n}={tmp_path / n}.pub")]
    mod = ["--moderator-key", str(tmp_path / "moderator.key")]
    made = CliRunner().invoke(
        main, ["new", "symbiote", str(tmp_path / "g"), *mod, *players, "--press", "full"]
    )
    assert made.exit_code == 0, made.output
    report = tmp_path / "g" / "reports" / "turn-0001" / "alice.txt"
    out = tmp_path / "p.txt"
    args = [
        "say",
        str(report),
        "--key",
        str(tmp_path / "alice.key"),
        "--to",
        "bobby",
        "-m",
        "hi",
        "-o",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert "pbem: your message: 'bobby' is no player of this game" in result.output
    assert "pbem say:" not in result.output
    assert "what to do: the players are: alice, bob, carol (or all)" in result.output
    assert not out.exists()
