"""Signature and encryption review (twelfth session): an attacker against signed reports.

Someone who can write the shared folder (or send a mail) adds to a real, moderator-signed
report.  The moderator signs the report's words from its first line ("PBEM REPORT ...") to
its data block, leaving out the lines between age markers (the private block has its own
signed hash): every added line must either be refused or never be shown, nor used, as if
the moderator had written it.  Each test fails if the attack works.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.engine import GameFolder
from pbem.errors import FormatError, SignatureError
from pbem.keys import Identity
from pbem.mailtext import AGE_BEGIN, AGE_END
from pbem.player import read_report
from pbem.reports import DATA_BEGIN, parse_report
from pbem.witness import commitment_of

from .conftest import NOW, PLAYERS, Table, entropy, new_table

FORGED = "MODERATOR NOTE: the game has moved; seal your orders to age1forgedrecipientxyz"


def _insert_before_data(text: str, added: list[str]) -> str:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == DATA_BEGIN)
    return "\n".join([*lines[:at], *added, *lines[at:]]) + "\n"


def _read(keys: dict[str, Identity], tmp_path: Path, text: str) -> tuple[int, str, str]:
    keys["alice"].save(tmp_path / "alice.key")
    report = tmp_path / "report.txt"
    report.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["read", str(report), "--key", str(tmp_path / "alice.key")])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "added",
    [
        pytest.param([AGE_BEGIN, FORGED, AGE_END], id="a second age block"),
        pytest.param([AGE_BEGIN, FORGED], id="a lone BEGIN line"),
        pytest.param([f"  {AGE_BEGIN}\u00a0", FORGED, f"> {AGE_END}"], id="indented and quoted markers"),
    ],
)
def test_lines_between_added_age_markers_are_not_shown_as_signed(
    table: Table, keys: dict[str, Identity], tmp_path: Path, added: list[str]
) -> None:
    """Before: `pbem read` exited 0 and printed the added lines inside the verified report,
    below the private part: the signed words leave out everything between age markers."""
    text, _ = table.report_text("alice")
    code, out, err = _read(keys, tmp_path, _insert_before_data(text, added))
    assert FORGED not in out
    assert code == 1, out
    assert "encrypted-block marker line(s) where the moderator wrote 2" in err
    assert "do not act on this copy" in err


def test_an_age_block_in_a_report_without_private_part_is_refused(table: Table) -> None:
    """The public report has no private part: an age block in it can only be someone's."""
    path = table.folder.reports_dir(1) / "public.txt"
    text = _insert_before_data(path.read_text(), [AGE_BEGIN, FORGED, AGE_END])
    with pytest.raises(SignatureError, match="marker line"):
        parse_report(text, "public.txt")


def test_the_report_as_written_still_reads(table: Table, keys: dict[str, Identity], tmp_path: Path) -> None:
    text, _ = table.report_text("alice")
    code, out, err = _read(keys, tmp_path, text)
    assert code == 0, err
    assert "Private to alice" in out and AGE_BEGIN not in out


def test_the_seed_commitment_is_taken_from_the_signed_words_only(table: Table) -> None:
    """Before: ``commitment_of`` (what `pbem verify` compares with the revealed seed) took the
    first "Seed commitment (SHA-256):" line anywhere in the file, also one added above the
    report or below its data block: anyone could make a player's kept copy accuse an honest
    moderator, or a moderator pass a report for a game written again."""
    text, _ = table.report_text("alice")
    real = table.folder.read().body["seed_commitment"]
    other = "0" * 64
    assert other != real
    for forged in (
        f"Seed commitment (SHA-256):\n  {other}\n\n{text}",
        f"{text}\nSeed commitment (SHA-256):\n  {other}\n",
    ):
        report = parse_report(forged, "alice.txt", None, table.moderator.public())
        assert commitment_of(report) == real


def test_verify_believes_the_signed_commitment_not_an_added_one(finished: Table, tmp_path: Path) -> None:
    """End to end: a report file given to `pbem verify` with a commitment line added above
    it.  Before: exit 1, "shows another seed commitment ... than the game's history", for an
    honest game."""
    report = finished.folder.reports_dir(2) / "public.txt"
    forged = tmp_path / "public.txt"
    forged.write_text(f"Seed commitment (SHA-256):\n  {'0' * 64}\n\n{report.read_text()}")
    result = CliRunner().invoke(
        main, ["verify", str(finished.folder.path), "--report", str(forged)], env={"PBEM_HOME": str(tmp_path)}
    )
    assert result.exit_code == 0, result.output
    assert "another seed commitment" not in result.output


# ---- attacks that held (each would fail if it worked) -------------------------------------------
def test_a_report_of_another_game_of_the_same_moderator_cannot_pass_for_this_one(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """The game id is in the signed data: rewriting the prose's id breaks the text's
    signature, and the data block of another game names that game."""
    other = new_table(tmp_path / "other", keys, "other")
    mine, theirs = table.folder.read().game_id, other.folder.read().game_id
    text, _ = other.report_text("alice")
    with pytest.raises(SignatureError):
        parse_report(text.replace(theirs, mine), "alice.txt", keys["alice"], keys["moderator"].public())
    report = parse_report(text, "alice.txt", keys["alice"], keys["moderator"].public())
    assert report.data["game_id"] == theirs


def test_a_report_signed_by_another_moderator_for_a_pinned_game_is_refused(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    """alice has read a report of the game; a second moderator (of another of her games, say)
    runs a game of the same id and players and hands her its report: refused by the pin,
    although it is signed, encrypted to her and names her seat and this game."""
    text, _ = table.report_text("alice")
    read_report(text, "alice.txt", keys["alice"], home=tmp_path)
    game_id = table.folder.read().game_id
    rogue = GameFolder.create(
        tmp_path / "rogue",
        "symbiote",
        keys["moderator2"],
        [keys[n].public() for n in PLAYERS],
        {"dealer": "last-seat"},
        now=NOW,
        entropy=entropy("rogue"),
        home=tmp_path / "rogue-home",
        game_id=game_id,
    )
    forged = (rogue.reports_dir(1) / "alice.txt").read_text()
    assert parse_report(forged, "alice.txt", keys["alice"]).data["game_id"] == game_id
    with pytest.raises(SignatureError, match="a forged report, or the moderator changed keys"):
        read_report(forged, "alice.txt", keys["alice"], home=tmp_path)


def test_another_seats_report_is_not_taken_for_ones_own(table: Table, keys: dict[str, Identity]) -> None:
    """bob's report read with alice's key is named as bob's; bob's private block put into
    alice's report fails the hash the moderator signed."""
    text, _ = table.report_text("bob")
    with pytest.raises(FormatError, match="is bob's report"):
        read_report(text, "bob.txt", keys["alice"])
    alice, _ = table.report_text("alice")
    block = re.compile(f"{re.escape(AGE_BEGIN)}.*?{re.escape(AGE_END)}", re.DOTALL)
    found = block.search(text)
    assert found is not None
    swapped = block.sub(lambda _: found.group(0), alice)
    with pytest.raises(SignatureError, match="not the one the moderator signed"):
        parse_report(swapped, "alice.txt", keys["alice"])
