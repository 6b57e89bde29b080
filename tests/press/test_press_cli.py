"""The press commands as a person runs them: pbem new --press, pbem say, pbem submit (which
relays press), pbem press read / relay / list; mistakes give exit 1 or 2 with a message
that says what and what to do, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity


@pytest.fixture
def folder(tmp_path: Path, keys: dict[str, Identity]) -> Path:
    for name, identity in keys.items():
        identity.save(tmp_path / f"{name}.key")
        (tmp_path / f"{name}.pub").write_text(identity.public().to_text())
    return tmp_path


def run(*args: object, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    assert "Traceback" not in result.output and "this is a bug" not in result.output, result.output
    return result


def _new(folder: Path, *press: str) -> Result:
    players = [a for n in ("alice", "bob", "carol") for a in ("--player", f"{n}={folder / n}.pub")]
    args = ["new", "symbiote", folder / "g", "--moderator-key", folder / "moderator.key", *players]
    return run(*args, *(a for p in press for a in ("--press", p)))


def test_a_short_exchange(folder: Path) -> None:
    assert _new(folder, "full", "grey=yes").exit_code == 0
    report = folder / "g" / "reports" / "turn-0001" / "alice.txt"
    assert "Press: messages to anyone; grey (anonymous) press allowed." in report.read_text()
    assert "Press: messages to anyone" in run("status", folder / "g").output  # anyone sees the rules
    shown = run("show", folder / "g", "--key", folder / "moderator.key")
    assert (
        "press rules" in shown.output and "archive at the end: messages to all players only" in shown.output
    )
    said = run(
        "say", report, "--key", folder / "alice.key", "--to", "bob", "-m", "Truce?", "-o", folder / "p.txt"
    )
    assert said.exit_code == 0, said.output
    assert "send it to the moderator" in said.output
    relayed = run("submit", folder / "g", folder / "p.txt", "--key", folder / "moderator.key")
    assert relayed.exit_code == 0, relayed.output
    assert "relayed as message 1 to bob" in relayed.output
    bob_report = folder / "g" / "reports" / "turn-0001" / "bob.txt"
    assert run("read", bob_report, "--key", folder / "bob.key").exit_code == 0  # pins the moderator
    shown = run("press", "read", folder / "g" / "press", "--key", folder / "bob.key")
    assert shown.exit_code == 0, shown.output
    assert "From: alice (signature checked" in shown.output and "Truce?" in shown.output
    listed = run("press", "list", folder / "g", "--key", folder / "moderator.key")
    assert "1 message relayed" in listed.output and "alice -> bob" in listed.output
    grey = folder / "grey.txt"
    grey_said = run(
        "say",
        bob_report,
        "--key",
        folder / "bob.key",
        "--to",
        "all",
        "--grey",
        "--file",
        "-",
        "-o",
        grey,
        stdin="Beware!",
    )
    assert grey_said.exit_code == 0, grey_said.output
    assert run("press", "relay", folder / "g", grey, "--key", folder / "moderator.key").exit_code == 0
    again = run("press", "relay", folder / "g", grey, "--key", folder / "moderator.key")
    assert again.exit_code == 1 and "relayed already, as message 2" in again.output
    carol = run("press", "read", folder / "g" / "press" / "000002.txt", "--key", folder / "carol.key")
    assert "From: someone" in carol.output and "bob" not in carol.output.split("To:")[0]
    private = run("press", "read", folder / "g" / "press" / "000001.txt", "--key", folder / "carol.key")
    assert private.exit_code == 1 and "a message for other players" in private.output


@pytest.mark.parametrize(
    ("press", "code", "words"),
    [(("colour=red",), 2, "unknown press setting"), (("archive-private=yes",), 2, "moderator-reads=yes")],
)
def test_bad_press_rules_create_no_game(folder: Path, press: tuple[str, ...], code: int, words: str) -> None:
    result = _new(folder, *press)
    assert result.exit_code == code and words in result.output
    assert not (folder / "g").exists()


def test_say_mistakes(folder: Path) -> None:
    _new(folder, "public")
    report = folder / "g" / "reports" / "turn-0001" / "alice.txt"
    key = folder / "alice.key"
    cases = [
        ((report, "--key", key, "--to", "bob", "-m", "hi"), 1, "only messages to all players"),
        ((report, "--key", key, "--to", "all", "--grey", "-m", "hi"), 1, "does not allow grey press"),
        ((report, "--key", key, "--to", "zed,all", "-m", "hi"), 2, "do not name players with it"),
        ((report, "--key", key, "--to", "all"), 2, "give the message with -m TEXT or --file FILE"),
        ((report, "--key", key, "--to", "all", "-m", "a\x07b"), 1, "line 1: the character U+0007"),
        ((report, "--key", key, "--to", "all", "-m", "  \n "), 1, "the message is empty"),
        ((report, "--key", key, "--to", "all", "-m", "hi", "-o", folder / "no" / "x"), 2, "does not exist"),
        (
            (report, "--key", folder / "bob.key", "--to", "all", "-m", "hi"),
            1,
            "cannot decrypt with bob's key",
        ),
    ]
    for args, code, words in cases:
        result = run("say", *args)
        assert (result.exit_code, words in result.output) == (code, True), (args, result.output)


def test_bad_press_files(folder: Path) -> None:
    _new(folder, "full")
    report = folder / "g" / "reports" / "turn-0001" / "alice.txt"
    run("say", report, "--key", folder / "alice.key", "--to", "bob", "-m", "hi", "-o", folder / "p.txt")
    text = (folder / "p.txt").read_text().splitlines()
    (folder / "cut.txt").write_text("\n".join(text[: len(text) // 2]) + "\n")
    cut = run("press", "relay", folder / "g", folder / "cut.txt", "--key", folder / "moderator.key")
    assert cut.exit_code == 1 and "cut off in transit" in cut.output
    (folder / "junk.txt").write_text("hello\n")
    junk = run("press", "read", folder / "junk.txt", "--key", folder / "bob.key")
    assert junk.exit_code == 1 and "is not a press message" in junk.output
    foreign = run("press", "relay", folder / "g", report, "--key", folder / "moderator.key")
    assert foreign.exit_code == 1 and "not a press file" in foreign.output
    assert not (folder / "g" / "press" / "ledger.txt").exists()
