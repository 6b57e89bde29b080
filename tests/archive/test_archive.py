"""pbem archive: finished games from public files, refusals, the moderator's and a player's
archives, the HTML (parsed by html5lib, a real HTML5 parser), the text (72 columns), the
charts and the games' hooks."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import html5lib
import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.archive.build import build_archive, finished_archive, moderator_archive, player_archive
from pbem.archive.charts import line_chart, nice_ticks
from pbem.archive.html import render_html
from pbem.archive.model import Chart
from pbem.archive.rebuild import replay_steps
from pbem.archive.text import WIDTH, fold, render_text
from pbem.cli import main
from pbem.errors import RollbackError, TamperedError, UsageError
from pbem.game import OrderLine
from pbem.keys import Identity
from pbem.registry import get_game
from pbem.save import encode

from .conftest import GAMES, Played

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0"))
NS = "{http://www.w3.org/1999/xhtml}"


def fuzz(ci: int) -> settings:
    return settings(max_examples=FUZZ or ci, deadline=None)


def pbem(*args: str) -> Result:
    return CliRunner().invoke(main, [*args], catch_exceptions=False)


def parse(html: str) -> ElementTree.Element:
    """The page as html5lib reads it; strict: a parse error fails the test."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(html)


def text_of(element: ElementTree.Element) -> str:
    return " ".join("".join(element.itertext()).split())


# ---- finished games, from public files alone ---------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_finished_game_html_has_every_turn_names_reveal_and_charts(
    finished: dict[str, Path], game: str
) -> None:
    folder = finished[game]
    archive = finished_archive(folder)
    names = archive.names
    root = parse(render_html(archive))
    sections = {s.get("id"): s for s in root.iter(f"{NS}section")}
    assert [t.turn for t in archive.turns] == list(range(1, archive.turns[-1].turn + 1))
    for page in archive.turns:
        section = sections[f"turn-{page.turn}"]
        assert text_of(section).startswith(f"Turn {page.turn}")
    reveal = text_of(sections["reveal"])
    assert archive.outcome and archive.outcome.split()[0] in reveal
    assert archive.seed and archive.seed in reveal
    charts = list(sections["charts"].iter("{http://www.w3.org/2000/svg}svg"))
    assert len(charts) == 2 * len(archive.charts) >= 2  # each drawn for wide screens and for phones
    assert [c.get("class") for c in charts[:2]] == ["pb-chart-wide", "pb-chart-phone"]
    legend = text_of(charts[0])
    assert all(name in legend for name in names)
    page_text = text_of(root)
    assert all(page_text.count(name) > len(archive.turns) for name in names)
    assert not re.search(r"player [1-4]\b", page_text), "a seat number where a name belongs"
    assert not list(root.iter(f"{NS}script"))
    for element in root.iter():
        for attr in ("src", "href"):
            value = element.get(attr) or element.get("{http://www.w3.org/1999/xlink}" + attr)
            assert value is None or value.startswith("#"), f"a reference out of the page: {value}"
    assert "Orders are shown as the game writes back" in page_text


@pytest.mark.parametrize("game", GAMES)
def test_text_archive_lines_fit_72_columns_and_hold_the_same_turns(
    finished: dict[str, Path], game: str
) -> None:
    archive = finished_archive(finished[game])
    text = render_text(archive)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 72
    assert [line for line in lines if re.fullmatch(r"TURN \d+", line)] == [
        f"TURN {p.turn}" for p in archive.turns
    ]
    assert "FINAL REVEAL" in lines
    assert archive.seed and archive.seed in text
    for chart in archive.charts:
        assert chart.title + ":" in lines


def _unnumbered(data: object) -> object:
    """Orders without the line numbers some games keep (the written-back lines are numbered anew)."""
    if isinstance(data, dict):
        return {k: _unnumbered(v) for k, v in data.items() if k != "line"}
    if isinstance(data, list):
        return [_unnumbered(v) for v in data]
    return data


@pytest.mark.parametrize("game", GAMES)
def test_orders_written_back_by_the_game_validate_to_what_was_resolved(
    finished: dict[str, Path], game: str
) -> None:
    from pbem.engine import GameFolder

    save = GameFolder(finished[game]).read()
    plugin = get_game(game)
    steps = replay_steps(plugin, save, bytes.fromhex(save.body["seed"]), save.body["replay"])
    checked = 0
    for step in steps:
        for seat, orders in step.orders.items():
            view = plugin.observe(step.state, seat)
            lines = plugin.order_lines(view, orders)  # type: ignore[attr-defined]
            again = plugin.validate(view, [OrderLine(i, t) for i, t in enumerate(lines, 1)])
            assert _unnumbered(again) == _unnumbered(orders), (step.turn, lines)
            checked += 1
    assert checked >= len(steps) - 1


def test_cli_archives_a_finished_game_and_a_root_with_an_index(
    finished: dict[str, Path], tmp_path: Path
) -> None:
    result = pbem("archive", str(finished["symbioz"]), "--out", str(tmp_path / "one"))
    assert result.exit_code == 0, result.output
    assert sorted(p.suffix for p in (tmp_path / "one").iterdir()) == [".html", ".txt"]
    root = tmp_path / "root"
    for game, folder in finished.items():
        shutil.copytree(folder, root / game)
    result = pbem("archive", str(root), "--out", str(tmp_path / "all"))
    assert result.exit_code == 0, result.output
    index = parse((tmp_path / "all" / "index.html").read_text(encoding="utf-8"))
    links = [a.get("href") for a in index.iter(f"{NS}a")]
    assert len([link for link in links if link and link.endswith(".html")]) == len(GAMES)
    assert all((tmp_path / "all" / link).is_file() for link in links if link)


def test_an_unfinished_game_without_a_key_is_refused_with_what_to_do(midgame: Played, tmp_path: Path) -> None:
    result = pbem("archive", str(midgame.folder), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "is not over" in result.output and "--key" in result.output
    assert not (tmp_path / "out").exists()


def test_a_root_archives_the_finished_games_and_lists_those_still_being_played(
    finished: dict[str, Path], midgame: Played, tmp_path: Path
) -> None:
    # A moderator root nearly always holds games in play: listing them is not a refusal.
    root = tmp_path / "root"
    shutil.copytree(finished["jovian-syzygy"], root / "done")
    shutil.copytree(midgame.folder, root / "running")
    result = pbem("archive", str(root), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert "running: Symbiote, not over yet (turn " in result.output and "not archived" not in result.output
    index = (tmp_path / "out" / "index.txt").read_text(encoding="utf-8")
    assert "done: Jovian Syzygy" in index and "running: Symbiote, not over yet" in index


# ---- refusals: the replay must match the signed saves --------------------------------------------


def _resign(folder: Path, moderator: Identity, change: Callable[[dict], None]) -> None:
    """Change the final save's body and sign it again with the moderator's own key (what a
    dishonest moderator could do), in save.json and in its history copy."""
    doc = json.loads((folder / "save.json").read_text(encoding="utf-8"))
    body = doc["body"]
    change(body)
    data = encode(body, moderator)
    (folder / "save.json").write_bytes(data)
    (folder / "history" / f"rev-{body['revision']:06d}.json").write_bytes(data)


def _first_orders(body: dict) -> dict:
    return next(e for e in body["replay"] if e.get("orders"))["orders"]


def test_a_tampered_revealed_order_is_refused(
    finished: dict[str, Path], copy_game: Callable[[Path], Path]
) -> None:
    folder = copy_game(finished["jovian-syzygy"])
    moderator = Identity.load(folder.parent / "keys" / "moderator.key")

    def change(body: dict) -> None:
        # The first plan that moved (not a corner choice at the setup step, whose change could
        # happen to fall back to the same corner) is replaced by "pass".
        plans = (
            (orders, seat)
            for entry in body["replay"]
            for orders in [entry.get("orders") or {}]
            for seat in sorted(orders)
            if orders[seat].get("steps")
        )
        orders, seat = next(plans)
        orders[seat] = {"steps": [], "fallback": None}

    _resign(folder, moderator, change)
    with pytest.raises(RollbackError) as caught:
        finished_archive(folder)
    assert "re-play" in caught.value.message
    result = pbem("archive", str(folder), "--out", str(folder.parent / "out"))
    assert result.exit_code == 1 and "re-play" in result.output
    assert not (folder.parent / "out").exists()


def test_a_changed_order_without_the_moderators_signature_is_refused(
    finished: dict[str, Path], copy_game: Callable[[Path], Path]
) -> None:
    folder = copy_game(finished["symbiote"])
    doc = json.loads((folder / "save.json").read_text(encoding="utf-8"))
    orders = _first_orders(doc["body"])
    seat = sorted(orders)[0]
    orders[seat]["wait"] = not orders[seat]["wait"]
    (folder / "save.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(TamperedError):
        finished_archive(folder)
    assert pbem("archive", str(folder), "--out", str(folder.parent / "out")).exit_code == 1


def test_a_tampered_seed_is_refused(finished: dict[str, Path], copy_game: Callable[[Path], Path]) -> None:
    folder = copy_game(finished["symbioz"])
    moderator = Identity.load(folder.parent / "keys" / "moderator.key")
    _resign(folder, moderator, lambda body: body.update(seed="11" * 32))
    result = pbem("archive", str(folder), "--out", str(folder.parent / "out"))
    assert result.exit_code == 1
    assert "seed does not match the commitment" in result.output


def test_a_rewritten_history_save_is_refused(
    finished: dict[str, Path], copy_game: Callable[[Path], Path]
) -> None:
    folder = copy_game(finished["symbioz"])
    moderator = Identity.load(folder.parent / "keys" / "moderator.key")
    path = folder / "history" / "rev-000003.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["body"]["public"]["first"] = (doc["body"]["public"]["first"] + 1) % 3
    path.write_bytes(encode(doc["body"], moderator))
    with pytest.raises(RollbackError) as caught:
        finished_archive(folder)
    assert "rev-000003.json" in caught.value.message or "rev-000004.json" in caught.value.message


def test_a_missing_history_save_is_refused(
    finished: dict[str, Path], copy_game: Callable[[Path], Path]
) -> None:
    folder = copy_game(finished["symbioz"])
    (folder / "history" / "rev-000002.json").unlink()
    with pytest.raises(RollbackError) as caught:
        finished_archive(folder)
    assert "lacks the saves of revisions 2" in caught.value.message


# ---- before the end: the moderator's and a player's archives ---------------------------------------


def test_the_moderators_archive_before_the_end_is_confidential_on_every_page(midgame: Played) -> None:
    archive = moderator_archive(midgame.folder, midgame.moderator)
    assert archive.confidential and not archive.finished
    html = render_html(archive)
    root = parse(html)
    turns = [s for s in root.iter(f"{NS}section") if (s.get("id") or "").startswith("turn-")]
    assert len(turns) == len(archive.turns) == 10
    assert all("CONFIDENTIAL" in text_of(section) for section in turns)
    assert "position: fixed" in html  # the banner repeats on every printed page
    text = render_text(archive)
    assert (
        sum(1 for line in text.splitlines() if line.startswith("TURN ") and line.endswith("CONFIDENTIAL"))
        == 10
    )
    # Orders as the players wrote them, and every player's hand.
    assert all(o.verbatim for page in archive.turns for o in page.orders)
    assert {p.player for p in archive.turns[-1].private} == {"alice", "bob", "carol"}


def test_a_players_key_before_the_end_gives_their_own_archive(midgame: Played, tmp_path: Path) -> None:
    result = pbem(
        "archive", str(midgame.folder), "--out", str(tmp_path), "--key", str(midgame.key_file("alice"))
    )
    assert result.exit_code == 0, result.output
    [html] = tmp_path.glob("*-alice.html")
    page = text_of(parse(html.read_text(encoding="utf-8")))
    assert "archive (alice's)" in page
    assert "Orders stay sealed to the moderator" in page
    assert max(len(line) for line in html.with_suffix(".txt").read_text(encoding="utf-8").splitlines()) <= 72


def _hands(archive_text: str, player: str) -> set[str]:
    """The 'Your hand: ...' lines of ``player``'s private parts in a text archive."""
    found, mine = set(), False
    for line in archive_text.splitlines():
        if re.fullmatch(r"[A-Za-z0-9_.-]+:", line):
            mine = line == f"{player}:"
        elif mine and "Your hand:" in line:
            found.add(line.strip())
    return found


def test_leak_a_players_archive_holds_nothing_that_player_could_not_read(
    midgame: Played, copy_game: Callable[[Path], Path]
) -> None:
    alice = midgame.seats[0]
    mine = render_text(player_archive(midgame.folder, alice))
    # 1. It is built only from what alice can read: without the sealed order files, the other
    #    players' reports and the save's sealed secret opened by anyone, it is the same.
    folder = copy_game(midgame.folder)
    shutil.rmtree(folder / "orders")
    for report in (folder / "reports").rglob("*.txt"):
        if report.name not in ("alice.txt", "public.txt"):
            report.unlink()
    shutil.rmtree(folder.parent / "keys")
    assert render_text(player_archive(folder, alice)) == mine
    # 2. No other player's hand at any turn, as the moderator's archive shows them, is in it.
    full = render_text(moderator_archive(midgame.folder, midgame.moderator))
    theirs = _hands(full, "bob") | _hands(full, "carol")
    assert theirs, "the moderator's archive shows the other hands"
    assert not (theirs - _hands(full, "alice")) & {line.strip() for line in mine.splitlines()}
    assert _hands(mine, "alice") <= _hands(full, "alice")
    # 3. Nothing secret of the game: no seed, no orders.
    assert "Seed (revealed)" not in mine and "Orders stay sealed" in mine


def test_a_key_with_no_seat_is_refused(midgame: Played, tmp_path: Path) -> None:
    stranger = Identity.generate("mallory")
    stranger.save(tmp_path / "mallory.key")
    result = pbem(
        "archive", str(midgame.folder), "--out", str(tmp_path / "o"), "--key", str(tmp_path / "mallory.key")
    )
    assert result.exit_code == 1
    assert "holds no seat" in result.output


def test_build_archive_after_the_end_with_a_players_key_is_the_full_one(finished: dict[str, Path]) -> None:
    folder = finished["symbioz"]
    alice = Identity.load(folder.parent / "keys" / "alice.key")
    assert build_archive(folder, alice).scope == "full"
    with pytest.raises(UsageError):
        build_archive(folder.parent / "keys")


def test_symbioz_lines_wear_the_players_pawn_colours(finished: dict[str, Path]) -> None:
    from pbem_games.symbioz.svg import FILL

    archive = finished_archive(finished["symbioz"])
    assert archive.palette[:2] == (FILL["yellow"], FILL["red"])
    page = render_html(archive)
    chart = page[page.index('<section id="charts">') :]
    assert f'stroke="{FILL["yellow"]}"' in chart and f'stroke="{FILL["red"]}"' in chart
    # A game without the hook keeps the archive's palette.
    assert finished_archive(finished["symbiote"]).palette[0] == "#1f6fb4"


# ---- charts and folding ------------------------------------------------------------------------


def test_chart_draws_a_gap_where_the_reader_could_not_know() -> None:
    chart = Chart("Score", (1, 2, 3, 4), (("alice", (0, 2, None, 5)), ("bob", (None, None, None, 3))))
    svg = line_chart(chart, ("alice", "bob"))
    tree = ElementTree.fromstring(svg)
    lines = tree.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 3  # alice in two pieces, bob as one point
    assert "alice: 5" in svg and "bob: 3" in svg


def test_nice_ticks_are_round_and_cover_the_range() -> None:
    assert nice_ticks(0, 17) == [0, 5, 10, 15]
    assert nice_ticks(3, 3) == [3]
    assert nice_ticks(-4, 4) == [-4, -2, 0, 2, 4]


@fuzz(60)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(-(10**12), 10**12)), min_size=3, max_size=3),
        min_size=0,
        max_size=30,
    )
)
def test_any_chart_is_well_formed_svg(rows: list[list[int | None]]) -> None:
    names = ("a<b", "bob", "c&d")
    series = tuple((names[i], tuple(r[i] for r in rows)) for i in range(3))
    svg = line_chart(Chart("T<itle>", tuple(range(1, len(rows) + 1)), series), names)
    ElementTree.fromstring(svg)


@fuzz(100)
@given(st.lists(st.text(max_size=300), max_size=20))
def test_fold_never_leaves_a_line_over_72_columns(lines: list[str]) -> None:
    folded = fold(lines)
    assert all(len(line) <= WIDTH for line in folded)
    assert "".join("".join(folded).split()) == "".join("".join(line.expandtabs(4) for line in lines).split())
