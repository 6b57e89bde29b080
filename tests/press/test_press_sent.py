"""The sender's own copies of press (``pbem say`` keeps one, ``pbem press sent`` prints them):
kept on the sender's machine only, readable by the owner only, in the order written, the
grey ones marked; damaged copies named and skipped; ``--no-copy`` keeps none."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.errors import FormatError
from pbem.keys import Identity
from pbem.press.say import Said
from pbem.press.sent import SENT_DIR, keep_sent, sent_copies, sent_folder

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "40"))


@pytest.fixture
def folder(tmp_path: Path, keys: dict[str, Identity]) -> Path:
    for name, identity in keys.items():
        identity.save(tmp_path / f"{name}.key")
        (tmp_path / f"{name}.pub").write_text(identity.public().to_text())
    players = [a for n in ("alice", "bob", "carol") for a in ("--player", f"{n}={tmp_path / n}.pub")]
    made = run("new", "symbiote", tmp_path / "g", "--moderator-key", tmp_path / "moderator.key", *players,
               "--press", "full", "--press", "grey=yes")  # fmt: skip
    assert made.exit_code == 0, made.output
    return tmp_path


def run(*args: object) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "this is a bug" not in result.output, result.output
    return result


def _say(folder: Path, name: str, *args: object) -> Result:
    report = folder / "g" / "reports" / "turn-0001" / f"{name}.txt"
    return run("say", report, "--key", folder / f"{name}.key", *args)


def _home() -> Path:
    return Path(os.environ["PBEM_HOME"])


def _game_id(folder: Path) -> str:
    from pbem.engine import GameFolder

    return GameFolder(folder / "g").read().game_id


def test_say_keeps_a_copy_the_sender_can_read(folder: Path) -> None:
    said = _say(
        folder, "alice", "--to", "bob", "--to", "carol", "-m", "Truce, you two?", "-o", folder / "p.txt"
    )
    assert said.exit_code == 0, said.output
    assert "your copy:" in said.output and "pbem press sent" in said.output
    grey = _say(
        folder, "alice", "--to", "all", "--grey", "-m", "- Someone is watching.", "-o", folder / "q.txt"
    )
    assert grey.exit_code == 0, grey.output
    game = _game_id(folder)
    shown = run("press", "sent", game)
    assert shown.exit_code == 0, shown.output
    first, second = shown.output.split("\n\nPress you sent")
    assert "Press you sent (1)" in first and "To: bob, carol" in first and "Truce, you two?" in first
    assert "From: alice\n" in first and "grey" not in first
    assert "(2)" in second and "From: alice (grey press" in second and "To: all players" in second
    assert "- Someone is watching." in second  # a text line that starts with a dash, kept as written
    assert run("press", "sent").output == shown.output  # every game: the only one


def test_copies_stay_on_the_senders_machine_owner_only(folder: Path) -> None:
    assert (
        _say(folder, "bob", "--to", "alice", "-m", "Secret plan XYZZY", "-o", folder / "p.txt").exit_code == 0
    )
    [copy] = (_home() / SENT_DIR / _game_id(folder)).iterdir()
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert stat.S_IMODE(copy.parent.stat().st_mode) & 0o077 == 0
    # nothing in the game folder or the sealed file holds the text in clear.  The text looked
    # for has a space, which no Base64 or hex holds: a bare "XYZZY" was once found by chance in
    # the armoured ciphertext of a turn-1 report written before the letter existed.
    assert b"Secret plan XYZZY" in copy.read_bytes()  # the copy holds it: the check below can fail
    for path in [*(folder / "g").rglob("*"), folder / "p.txt"]:
        if path.is_file():
            assert b"Secret plan XYZZY" not in path.read_bytes(), path


def test_no_copy_keeps_none(folder: Path) -> None:
    said = _say(folder, "carol", "--to", "bob", "-m", "Off the record", "--no-copy", "-o", folder / "p.txt")
    assert said.exit_code == 0 and "your copy" not in said.output
    assert not (_home() / SENT_DIR).exists()
    shown = run("press", "sent")
    assert shown.exit_code == 0 and shown.output.startswith("no press sent from this machine")


def test_a_copy_that_cannot_be_kept_is_said_and_the_message_still_made(folder: Path) -> None:
    _home().mkdir(parents=True, exist_ok=True)
    (_home() / SENT_DIR).write_text("a file where the folder goes")
    said = _say(folder, "alice", "--to", "bob", "-m", "Hello", "-o", folder / "p.txt")
    assert said.exit_code == 0, said.output
    assert "no copy kept for you" in said.output and (folder / "p.txt").exists()


def test_damaged_copies_are_named_and_skipped(folder: Path) -> None:
    for text in ("one", "two", "three"):
        assert _say(folder, "alice", "--to", "bob", "-m", text, "-o", folder / "p.txt").exit_code == 0
    game = _game_id(folder)
    _first, second, third = sorted((_home() / SENT_DIR / game).iterdir())
    second.write_bytes(b"\xff\xfe not text")
    third.write_text(third.read_text().replace(f"Game: {game}", "Game: ANOTHERGAME"))
    (_home() / SENT_DIR / game / "notes.txt").write_text("not a copy: not listed")
    copies, skipped = sent_copies(_home(), game)
    assert [c.text for c in copies] == [("one",)]
    assert len(skipped) == 2 and any("ANOTHERGAME" in s for s in skipped)
    shown = CliRunner().invoke(main, ["press", "sent", game])
    assert shown.exit_code == 0 and "one" in shown.output and "skipped" in shown.output


def test_a_game_id_that_is_not_one_is_refused() -> None:
    with pytest.raises(FormatError):
        sent_folder(Path("home"), "../../etc")
    result = run("press", "sent", "../x")
    assert result.exit_code == 1 and "not a game id" in result.output


@settings(max_examples=FUZZ, deadline=None)
@given(
    lines=st.lists(
        st.text(st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn")), max_size=70).map(str.rstrip),
        min_size=1,
        max_size=8,
    ).filter(lambda ls: any(ls)),
    grey=st.booleans(),
    to=st.sampled_from([("all",), ("bob",), ("bob", "carol")]),
)
def test_a_kept_copy_reads_back_as_written(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], grey: bool, to: tuple[str, ...]
) -> None:
    import unicodedata

    home = tmp_path_factory.mktemp("home")
    text = tuple(unicodedata.normalize("NFC", line) for line in lines)
    while not text[-1]:
        text = text[:-1]
    said = Said("sealed", to, grey, "AB" * 16, "5F3A9C0D12E4B7A1", "alice", to, 4, text)
    keep_sent(home, said)
    keep_sent(home, said)  # the same message twice: two copies, numbered in order
    copies, skipped = sent_copies(home, "5F3A9C0D12E4B7A1")
    assert skipped == [] and [c.number for c in copies] == [1, 2]
    copy = copies[0]
    assert (copy.text, copy.grey, copy.to, copy.sender, copy.turn) == (text, grey, to, "alice", 4)
