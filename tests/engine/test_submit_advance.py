"""``GameFolder.submit(..., advance=True)`` and ``pbem submit --advance``: the file that brings
in the last awaited orders resolves the turn in the same lock, writing ONE save (issue 13).

The game must end up exactly as after ``submit`` then ``advance``: the same positions,
secrets, public saves and reports (apart from the revision numbers, the hash chain and the
randomness of age encryption), one history revision shorter per turn.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.archive.write import archive_game
from pbem.cli import main
from pbem.engine import GameFolder, verify_replay
from pbem.errors import ConflictError, OrdersRejected, ReplayError
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, fill_orders, form_header
from pbem.reports import DATA_BEGIN, parse_report
from pbem.rng import Rng

from .conftest import PLAYERS, Table, entropy, new_table

WHEN = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def snapshot(folder: GameFolder) -> dict[str, bytes]:
    """Every file of the game folder and its bytes."""
    return {str(p.relative_to(folder.path)): p.read_bytes() for p in folder.path.rglob("*") if p.is_file()}


def history(folder: GameFolder) -> list[str]:
    return sorted(p.name for p in (folder.path / "history").glob("rev-*.json"))


def order_file(folder: GameFolder, keys: dict[str, Identity], name: str, bot: str = "greedy") -> str:
    """``name``'s signed and sealed bot orders for the current turn, read from their report."""
    save = folder.read()
    path = folder.reports_dir(save.turn) / f"{name}.txt"
    report = parse_report(path.read_text(encoding="utf-8"), str(path), keys[name])
    lines = bot_orders(report, bot, Rng(f"submit-advance/{save.turn}/{name}".encode()))
    return seal(sign(keys[name], form_header(report), lines), [keys["moderator"].public()])


def symbioz(root: Path, keys: dict[str, Identity]) -> GameFolder:
    """A three-player Symbioz game: every seat is awaited each turn."""
    return GameFolder.create(
        root / "symbioz",
        "symbioz",
        keys["moderator"],
        [keys[n].public() for n in PLAYERS],
        {},
        now=WHEN,
        entropy=entropy("symbioz"),
        home=root / "home",
    )


# ---- the one-save turn ---------------------------------------------------------------------------
def test_a_completing_file_advances_with_one_save(table: Table) -> None:
    folder, before = table.folder, table.folder.read()
    name = table.awaited()
    text = order_file(folder, table.keys, name)
    receipt = folder.submit(text, table.moderator, source=f"{name}.txt", now=WHEN, advance=True)
    after = folder.read()
    assert receipt.advanced is not None and receipt.awaiting == ()
    assert (receipt.player, receipt.turn, receipt.advanced.turn) == (name, 1, 2)
    assert after.turn == 2 and after.revision == before.revision + 1 and after.body["prev"] == before.digest
    assert history(folder) == ["rev-000000.json", "rev-000001.json"]  # one new history file, not two
    assert after.body["submitted"] == []
    assert tuple(after.names[s] for s in after.awaiting) == receipt.advanced.awaiting
    assert [p.name for p in receipt.advanced.reports[:3]] == [f"{n}.txt" for n in PLAYERS]
    assert all(p.parent == folder.reports_dir(2) and p.is_file() for p in receipt.advanced.reports)
    assert (folder.orders_dir(1) / f"{name}.seq1.txt").is_file()
    log = folder.load(table.moderator).secret.log
    assert [entry["turn"] for entry in log] == [1] and list(log[0]["orders"]) == [
        str(before.names.index(name))
    ]


def test_a_file_that_leaves_seats_awaited_does_not_advance(tmp_path: Path, keys: dict[str, Identity]) -> None:
    folder = symbioz(tmp_path, keys)
    assert sorted(folder.read().awaiting) == [0, 1, 2]
    first = folder.submit(
        order_file(folder, keys, "alice"), keys["moderator"], source="a", now=WHEN, advance=True
    )
    assert first.advanced is None and first.awaiting == ("bob", "carol")
    assert folder.read().turn == 1 and folder.read().body["submitted"] == [0]
    second = folder.submit(
        order_file(folder, keys, "bob"), keys["moderator"], source="b", now=WHEN, advance=True
    )
    assert second.advanced is None and second.awaiting == ("carol",)
    last = folder.submit(
        order_file(folder, keys, "carol"), keys["moderator"], source="c", now=WHEN, advance=True
    )
    assert last.advanced is not None and last.awaiting == () and folder.read().turn == 2
    # three files, three saves: the last one is the advanced save itself
    assert len(history(folder)) == 4 and folder.read().body["submitted"] == []


def test_fill_completes_the_turn_and_a_refused_fill_only_files(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    folder = symbioz(tmp_path, keys)
    moderator = keys["moderator"]
    bad = {1: ["no such order"], 2: ["no such order"]}
    receipt = folder.submit(
        order_file(folder, keys, "alice"), moderator, source="a", now=WHEN, advance=True, fill=bad
    )
    assert receipt.advanced is None and folder.read().turn == 1 and folder.read().body["submitted"] == [0]
    with pytest.raises(OrdersRejected, match="orders filled in for bob"):
        folder.advance(moderator, now=WHEN, fill=bad)  # advance names what is wrong with the fill
    good = fill_orders(folder.load(moderator), "default")
    receipt = folder.submit(
        order_file(folder, keys, "bob"),
        moderator,
        source="b",
        now=WHEN,
        advance=True,
        fill=good,
        stand_in={2: "the game's default orders"},
    )
    assert receipt.advanced is not None and receipt.advanced.filled == ("carol",)
    assert receipt.awaiting == ("carol",)  # carol sent nothing: the stand-in played her seat
    assert any(
        "played by the stand-in (the game's default orders)" in e.text for e in receipt.advanced.events
    )
    assert folder.read().turn == 2


def test_a_refused_file_writes_nothing(table: Table) -> None:
    folder = table.folder
    name = table.awaited()
    table.play_step()
    before = snapshot(folder)
    old = (folder.orders_dir(1) / f"{name}.seq1.txt").read_text()
    with pytest.raises(ReplayError):
        folder.submit(old, table.moderator, source="old.txt", now=WHEN, advance=True)
    now_name = table.awaited()
    illegal = table.sealed(table.signed(now_name, ["fly away"]))
    with pytest.raises(OrdersRejected, match="fly away"):
        folder.submit(illegal, table.moderator, source="bad.txt", now=WHEN, advance=True)
    assert snapshot(folder) == before


def test_a_failed_commit_leaves_no_archive_copy(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = table.folder
    name = table.awaited()
    text = order_file(folder, table.keys, name)
    before = snapshot(folder)

    def lost_race(*args: Any) -> None:
        raise ConflictError("another writer saved the game meanwhile")

    monkeypatch.setattr("pbem.engine.commit", lost_race)
    with pytest.raises(ConflictError):
        folder.submit(text, table.moderator, source="x.txt", now=WHEN, advance=True)
    assert snapshot(folder) == before
    assert not folder.orders_dir(1).exists() or not any(folder.orders_dir(1).iterdir())


# ---- the same game either way --------------------------------------------------------------------
def _readable(folder: GameFolder, turn: int, name: str, key: Identity | None) -> tuple[Any, ...]:
    """A report as its reader sees it, without what differs between two writes of one turn
    (the revision and the age ciphertext): the text with the private part opened, the data."""
    path = folder.reports_dir(turn) / f"{name}.txt"
    report = parse_report(path.read_text(encoding="utf-8"), str(path), key)
    text = report.readable()
    data = {k: v for k, v in report.data.items() if k not in ("revision", "private_sha256")}
    return text[: text.index(DATA_BEGIN)], data, report.private


def _state(folder: GameFolder, moderator: Identity) -> tuple[Any, ...]:
    loaded = folder.load(moderator)
    body = {k: v for k, v in loaded.save.body.items() if k not in ("revision", "prev", "secret")}
    s = loaded.secret
    return body, s.state, s.seed, s.pending, s.events, s.log


def test_one_save_turns_play_the_same_game(tmp_path: Path, keys: dict[str, Identity]) -> None:
    two = new_table(tmp_path / "two", keys)  # submit, then advance: two saves a turn
    one = new_table(tmp_path / "one", keys)  # submit with advance: one save a turn
    moderator = keys["moderator"]
    steps = 0
    while two.folder.read().body["outcome"] is None:
        assert steps < 400, "the bots did not finish a game"
        name = two.awaited()
        a, b = order_file(two.folder, keys, name), order_file(one.folder, keys, name)
        two.folder.submit(a, moderator, source=f"{name}.txt", now=WHEN)
        two.folder.advance(moderator, now=WHEN)
        receipt = one.folder.submit(b, moderator, source=f"{name}.txt", now=WHEN, advance=True)
        assert receipt.advanced is not None
        steps += 1
        assert _state(one.folder, moderator) == _state(two.folder, moderator)
        if steps % 5 == 1:  # reading every report of every turn would double the test's time
            turn = one.folder.read().turn
            for reader in [*PLAYERS, "public"]:
                key = keys.get(reader)
                assert _readable(one.folder, turn, reader, key) == _readable(two.folder, turn, reader, key)
    assert one.folder.read().body["outcome"] == two.folder.read().body["outcome"]
    assert len(history(one.folder)) == steps + 1 and len(history(two.folder)) == 2 * steps + 1
    # the game played with one save a turn verifies, through the API and the command line
    assert verify_replay(one.folder.read()) == steps
    done = CliRunner().invoke(main, ["verify", str(one.folder.path)])
    assert done.exit_code == 0 and f"verified: {steps} turns" in done.output, done.output
    # and its archive, which checks every revision in history against the re-played game
    written = archive_game(one.folder.path, tmp_path / "archive-one", None)
    reference = archive_game(two.folder.path, tmp_path / "archive-two", None)
    assert written.problem is None and written.summary == reference.summary

    def words(path: Path, saves: int) -> str:  # the archive says how many saves it checked
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert f"with {saves} signed saves: every position matches" in text
        return text.replace(f"with {saves} signed saves", "with N signed saves")

    assert written.text is not None and reference.text is not None
    assert words(written.text, steps + 1) == words(reference.text, 2 * steps + 1)


# ---- the command line ----------------------------------------------------------------------------
def test_cli_submit_advance(tmp_path: Path, keys: dict[str, Identity]) -> None:
    table = new_table(tmp_path, keys)
    key = tmp_path / "mod.key"
    keys["moderator"].save(key)
    name = table.awaited()
    orders = tmp_path / "orders.txt"
    orders.write_text(order_file(table.folder, keys, name))
    env = {"PBEM_HOME": str(table.home)}
    done = CliRunner().invoke(
        main, ["submit", str(table.folder.path), str(orders), "--key", str(key), "--advance"], env=env
    )
    assert done.exit_code == 0, done.output
    assert f"accepted: orders of {name} for turn 1" in done.output
    assert "all orders are in: turn 1 resolved" in done.output
    assert "turn 2: awaiting" in done.output and "reports written to" in done.output
    assert table.folder.read().turn == 2 and len(history(table.folder)) == 2
    again = CliRunner().invoke(
        main, ["submit", str(table.folder.path), str(orders), "--key", str(key), "--advance"], env=env
    )
    assert again.exit_code == 1 and "game is at turn 2" in again.output
