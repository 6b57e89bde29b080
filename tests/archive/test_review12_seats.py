"""Archive review (twelfth session): a game whose seats changed hands, with a resignation,
stand-in orders and a rollback, archived as a reader reads it.

Each turn's page names the players of that turn (the reports they got said so), the top
of the archive says who took over, who resigned and where the game was rolled back, and
the rolled-back turn's page carries the rollback's note as the players' reports did.
"""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.archive.build import build_archive, player_archive
from pbem.archive.model import Archive, TurnPage
from pbem.archive.text import render_text
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, fill_orders, form_header
from pbem.reports import parse_report
from pbem.rng import Rng, seeded_entropy

from .conftest import NOW

REPLACED_AT = 7
RESIGNED_AT = 10
ROLLED_TO = 11


class _Game:
    """A 3-player Symbiote game: bob's seat goes to zoe at turn 7, carol resigns at turn 10
    (the stand-in plays her from then on), and the game is rolled back to turn 11 at turn 13,
    then played to its end."""

    def __init__(self, root: Path) -> None:
        self.moderator = Identity.generate("moderator")
        self.keys = {n: Identity.generate(n) for n in ("alice", "bob", "carol", "zoe")}
        self.folder = GameFolder.create(
            root / "game",
            "symbiote",
            self.moderator,
            [self.keys[n].public() for n in ("alice", "bob", "carol")],
            {},
            now=NOW,
            entropy=seeded_entropy("review12-seats"),
            home=root / "home",
        )
        self.clock = NOW
        self.rolled_to = 0
        self.midgame = root / "midgame"

    def turn(self) -> None:
        save = self.folder.read()
        for seat in save.awaiting:
            name = save.names[seat]
            if save.body["players"][seat]["status"] != "active":
                continue
            path = self.folder.reports_dir(save.turn) / f"{name}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), self.keys[name])
            lines = bot_orders(report, "greedy", Rng(f"{save.turn}/{seat}".encode()))
            block = seal(sign(self.keys[name], form_header(report), lines), [report.moderator])
            self.folder.submit(block, self.moderator, source=f"{name}.txt", now=self.clock)
        self.clock += timedelta(hours=1)
        fill = fill_orders(self.folder.load(self.moderator), "default")
        self.folder.advance(self.moderator, now=self.clock, fill=fill)

    def play(self) -> Path:
        while self.folder.read().turn < REPLACED_AT:
            self.turn()
        self.folder.replace_player(self.moderator, "bob", self.keys["zoe"].public(), now=self.clock)
        while self.folder.read().turn < RESIGNED_AT:
            self.turn()
        self.folder.set_status(self.moderator, "carol", "resigned", now=self.clock)
        self.turn()
        shutil.copytree(self.folder.path, self.midgame)
        while self.folder.read().turn < ROLLED_TO + 2:
            self.turn()
        self.rolled_to = ROLLED_TO
        self.folder.rollback(self.moderator, self.rolled_to, now=self.clock, entropy=seeded_entropy("rb"))
        while self.folder.read().body["outcome"] is None:
            self.turn()
        return self.folder.path


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> _Game:
    game = _Game(tmp_path_factory.mktemp("review12-seats"))
    game.play()
    return game


def _page(archive: Archive, turn: int) -> TurnPage:
    return next(page for page in archive.turns if page.turn == turn)


def _said_in_public_report(folder: Path, turn: int) -> str:
    return (folder / "reports" / f"turn-{turn:04d}" / "public.txt").read_text(encoding="utf-8")


def test_each_turn_names_the_players_of_that_turn(played: _Game) -> None:
    archive = build_archive(played.folder.path)
    early = [page for page in archive.turns if page.turn < REPLACED_AT]
    assert early
    for page in early:
        # the public report bob's table got at that turn named bob, and so does the archive
        assert "bob" in _said_in_public_report(played.folder.path, page.turn)
        assert "bob" in page.public_text and "zoe" not in page.public_text, page.turn
        assert [part.player for part in page.private] == ["alice", "bob", "carol"], page.turn
        assert all(orders.player != "zoe" for orders in page.orders), page.turn
        assert "zoe" not in page.awaiting
    late = [page for page in archive.turns if page.turn > REPLACED_AT]
    assert late and all("bob" not in page.public_text for page in late)
    assert all(part.player != "bob" for page in late for part in page.private)


def test_the_archive_says_who_took_over_and_who_resigned(played: _Game) -> None:
    archive = build_archive(played.folder.path)
    assert f"zoe took over bob's seat at turn {REPLACED_AT}; the turns before name bob." in archive.notes
    assert (
        f"carol resigned at turn {RESIGNED_AT}: the stand-in played the seat from then on." in archive.notes
    )
    text = render_text(archive)
    assert f"zoe took over bob's seat at turn {REPLACED_AT}" in text
    assert f"(to the start of turn {ROLLED_TO})" in text


def test_the_rolled_back_turn_shows_the_rollback_note_the_players_read(played: _Game) -> None:
    archive = build_archive(played.folder.path)
    page = _page(archive, played.rolled_to)
    said = _said_in_public_report(played.folder.path, played.rolled_to)
    note = f"rolled the game back to the start of turn {ROLLED_TO}"
    assert note in said
    assert any(note in event for event in page.events)


def test_the_moderators_archive_finds_a_replaced_players_own_order_files(played: _Game) -> None:
    """The order files of bob's turns are bob's (bob.seqN.txt); the archive looked for zoe's
    and showed the written-back orders with 'the stand-in's?'."""
    archive = build_archive(played.folder.path, played.moderator)
    bobs = [orders for page in archive.turns if page.turn < REPLACED_AT for orders in page.orders]
    assert [orders.player for orders in bobs if orders.player == "bob"], (
        "bob gave orders before zoe took over"
    )
    for orders in bobs:
        assert orders.verbatim, (orders.player, orders.note)


def test_a_players_own_archive_names_the_players_of_each_turn(played: _Game) -> None:
    archive = player_archive(played.midgame, played.keys["alice"])
    early = [page for page in archive.turns if page.turn < REPLACED_AT]
    assert early
    for page in early:
        assert "bob" in page.public_text and "zoe" not in page.public_text, page.turn
        assert not any("zoe" in event for event in page.events), page.turn
    assert f"zoe took over bob's seat at turn {REPLACED_AT}; the turns before name bob." in archive.notes


def test_the_stand_ins_orders_are_marked_as_such(played: _Game) -> None:
    """A resigned seat's orders were shown as 'written back by the game from the save', as
    a player's own; with the moderator's key, 'the stand-in's?'. The page after says so in
    its events (public: the engine tells every player which seats the stand-in played)."""
    for key in (None, played.moderator):
        archive = build_archive(played.folder.path, key)
        carols = [
            orders
            for page in archive.turns
            if page.turn > RESIGNED_AT
            for orders in page.orders
            if orders.player == "carol"
        ]
        assert carols, "carol's seat had turns after she resigned"
        for orders in carols:
            assert orders.note.startswith("the stand-in's orders, filled in by the moderator"), orders.note
            assert not orders.verbatim
        others = [orders for page in archive.turns for orders in page.orders if orders.player != "carol"]
        # everyone else wrote their orders: as written with the key, written back without
        assert others and all(
            orders.verbatim if key is not None else orders.note == "written back by the game from the save"
            for orders in others
        )
