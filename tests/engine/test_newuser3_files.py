"""Two of the new-user review's (twelfth session) leftovers.

``pbem status REPORT`` (a report file where the game folder belongs) got click's "Directory
'REPORT' is a file."; it now names the game folder the file is in, and what to give.  And
``pbem keygen`` said "send this to your moderator" to the moderator too, who sends their
card to the players."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main


def test_a_file_where_a_folder_belongs_names_its_game_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "demo"
    done = runner.invoke(main, ["demo", "symbiote", "--out", str(out), "--seed", "3"])
    assert done.exit_code == 0, done.output
    [game] = [p.parent for p in out.rglob("save.json")]
    report = sorted((game / "reports").rglob("*.txt"))[0]
    result = runner.invoke(main, ["status", str(report)])
    assert result.exit_code == 2, result.output
    assert f"is a file in the game folder '{game}': name the folder ({game})" in result.output
    assert "Directory" not in result.output
    loose = tmp_path / "notes.txt"
    loose.write_text("x")
    result = runner.invoke(main, ["status", str(loose)])
    assert result.exit_code == 2 and "is a file, not a folder: name a folder" in result.output, result.output


def test_keygen_says_who_sends_the_card_to_whom(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["keygen", "moderator", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "a player sends it to the moderator; a moderator sends theirs to the players" in result.output
