"""A demanding reader's review of the archive (issue 11): what a root with games in play
gives, what the final reveal says, and how the page reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from pbem.archive.build import finished_archive
from pbem.archive.html import render_html
from pbem.archive.text import render_text
from pbem.cli import main
from pbem.keys import Identity
from pbem.save import encode

from .conftest import Played


def _pbem(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_a_root_with_a_refused_game_still_fails_and_names_only_that_one(
    finished: dict[str, Path], midgame: Played, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    shutil.copytree(finished["symbioz"], root / "forged")
    shutil.copytree(midgame.folder, root / "running")
    moderator = Identity.load(finished["symbioz"].parent / "keys" / "moderator.key")
    doc = json.loads((root / "forged" / "save.json").read_text(encoding="utf-8"))
    doc["body"]["seed"] = "11" * 32
    data = encode(doc["body"], moderator)
    (root / "forged" / "save.json").write_bytes(data)
    (root / "forged" / "history" / f"rev-{doc['body']['revision']:06d}.json").write_bytes(data)
    code, output = _pbem("archive", str(root), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "1 of 2 games were not archived: forged" in output
    assert "running: Symbiote, not over yet" in output


def test_the_final_reveal_gives_the_standings_and_leaves_out_identity_lines(
    finished: dict[str, Path],
) -> None:
    archive = finished_archive(finished["jovian-syzygy"])
    # Jovian Syzygy hides nothing: "You are alice." is not something a player "held".
    assert archive.reveal == ()
    (standing,) = archive.standings
    assert standing.startswith("Psi at the end: ")
    values = [int(part.rsplit(" ", 1)[1]) for part in standing.split(": ", 1)[1].split(", ")]
    assert values == sorted(values, reverse=True) and len(values) == len(archive.names)
    html, text = render_html(archive), render_text(archive)
    assert "What each player held" not in html and "What each player held" not in text
    reveal = html[html.index('id="reveal"') :]
    assert standing in reveal and standing.split(": ")[0] in text.split("FINAL REVEAL")[1]


def test_symbiote_hands_are_still_revealed(finished: dict[str, Path]) -> None:
    archive = finished_archive(finished["symbiote"])
    assert [part.player for part in archive.reveal] == list(archive.names)
    assert all("Your hand:" in part.text for part in archive.reveal)
    assert any(line.startswith("Score at the end: ") for line in archive.standings)


def test_the_top_of_the_page_shows_players_and_charts_before_the_turn_list(finished: dict[str, Path]) -> None:
    archive = finished_archive(finished["symbioz"])
    html = render_html(archive)
    assert html.index("Players, in seat order") < html.index('id="charts"') < html.index("<nav>")
    assert html.index("<nav>") < html.index('id="turn-1"')
    assert "Board at the start of turn 1" in html and "board.svg, turn" not in html


def test_the_contents_have_no_dangling_separator_before_the_end() -> None:
    from dataclasses import replace

    from pbem.archive.html import _nav
    from pbem.archive.model import Archive, Chart

    base = Archive("g", "G", "ID", ("alice",), "moderator", None, False, None, None, "c", "checked", ())
    with_chart = replace(base, charts=(Chart("Psi", (1,), (("alice", (1,)),)),))
    assert "Charts</a></p>" in _nav(with_chart) and "·" not in _nav(with_chart)
    assert "<p></p>" in _nav(base)


def test_the_summary_has_no_doubled_stop(finished: dict[str, Path], tmp_path: Path) -> None:
    code, output = _pbem("archive", str(finished["symbiote"]), "--out", str(tmp_path / "out"))
    assert code == 0 and ".:" not in output
