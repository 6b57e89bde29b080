"""Engine integrity: saves that are not this folder's, history never overwritten, writers that
meet (lock and compare-and-swap), refused files that leave nothing, a turn's files restored
whole, and a rollback that draws hidden chance anew (and still verifies)."""

from __future__ import annotations

import os
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import engine as engine_module
from pbem.cli import main
from pbem.engine import GameFolder, verify_replay
from pbem.errors import ConflictError, ForeignError, FormatError, RollbackError
from pbem.integrity import LOCK_NAME, history_path, store_history
from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin
from pbem.moderator.core import Moderator
from pbem.moderator.lock import game_lock
from pbem.registry import get_game
from pbem.reports import parse_report
from pbem.rng import commitment
from pbem.save import Save, open_secret, read_save
from pbem.timing import FixedClock

from .conftest import NOW, PLAYERS, Table, entropy, new_table

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "25"))


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes (the lock file aside: it holds nothing)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and p.name != LOCK_NAME
    }


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def mod_key(tmp_path: Path, keys: dict[str, Identity]) -> str:
    path = tmp_path / "keys" / "moderator.key"
    path.parent.mkdir()
    keys["moderator"].save(path)
    return str(path)


def every_command(table: Table, mod_key: str, orders: Path) -> dict[str, Result]:
    """Each command that reads or writes a game, run on ``table``'s folder."""
    game = str(table.folder.path)
    return {
        "status": cli("status", game),
        "show": cli("show", game, "--key", mod_key),
        "submit": cli("submit", game, str(orders), "--key", mod_key),
        "advance": cli("advance", game, "--key", mod_key, "--fill", "default"),
        "publish": cli("publish", game, "--key", mod_key),
        "verify": cli("verify", game),
        "rollback": cli("rollback", game, "1", "--key", mod_key),
        "resign": cli("resign", game, "bob", "--key", mod_key),
    }


def moderator_pass(root: Path, keys: dict[str, Identity], tmp: Path) -> Moderator:
    return Moderator(root, keys["moderator"], clock=FixedClock(), state_dir=tmp / "mod-state", settle=0)


# ---- saves that are not this folder's ---------------------------------------------------------
@pytest.mark.parametrize("how", ["copied", "linked"])
def test_another_games_save_is_refused_by_every_command(
    table: Table, keys: dict[str, Identity], tmp_path: Path, mod_key: str, how: str
) -> None:
    other = new_table(tmp_path / "elsewhere", keys, "other")
    other.play_step()
    table.play_step()
    orders = tmp_path / "orders.txt"
    orders.write_text(table.sealed(table.signed(table.awaited())), encoding="utf-8")
    theirs = other.folder.save_path
    table.folder.save_path.unlink()
    if how == "copied":
        shutil.copy(theirs, table.folder.save_path)
    else:
        table.folder.save_path.symlink_to(theirs)
    mine_before, theirs_before = files(table.folder.path), files(other.folder.path)
    our_id = read_save(history_path(table.folder.path, 0).read_bytes(), "rev0").game_id
    their_id = other.folder.read().game_id
    for command, result in every_command(table, mod_key, orders).items():
        assert result.exit_code == 1, (command, result.output)
        assert f"save of game {their_id}" in result.output and our_id in result.output, (
            command,
            result.output,
        )
        assert "Traceback" not in result.output
    with pytest.raises(ForeignError, match="a save copied from another game"):
        table.folder.load(table.moderator)
    assert files(table.folder.path) == mine_before, "history or reports were changed"
    assert files(other.folder.path) == theirs_before
    # The moderator objects before handing anything out.
    players = table.folder.path / "players"
    passed = moderator_pass(table.folder.path.parent, keys, tmp_path).run_pass()
    [game] = [g for g in passed.games if g.game == table.folder.path.name]
    assert game.error and "a save copied from another game" in game.error
    assert not players.exists() or not any(players.rglob("report-*"))


def test_an_old_history_file_put_back_is_refused_by_every_command(
    table: Table, keys: dict[str, Identity], tmp_path: Path, mod_key: str
) -> None:
    table.play_step()
    root = table.folder.path.parent
    moderator_pass(root, keys, tmp_path).run_pass()  # hands out turn 2
    players = table.folder.path / "players"
    assert sorted(p.name for p in players.rglob("report-*")) == ["report-turn-0002.txt"] * 3
    table.play_step()
    newest = table.folder.read()
    orders = tmp_path / "orders.txt"
    orders.write_text(table.sealed(table.signed(table.awaited())), encoding="utf-8")
    table.folder.save_path.write_bytes(history_path(table.folder.path, 0).read_bytes())
    before = files(table.folder.path)
    for command, result in every_command(table, mod_key, orders).items():
        assert result.exit_code == 1, (command, result.output)
        assert "an old save was put back" in result.output, (command, result.output)
        assert f"revision {newest.revision}" in result.output
    passed = moderator_pass(root, keys, tmp_path).run_pass()
    [game] = [g for g in passed.games if g.game == table.folder.path.name]
    assert game.error and "an old save was put back" in game.error
    assert files(table.folder.path) == before, "the old turn was handed out again"
    assert not list(players.rglob("report-turn-0001.txt"))


def test_history_is_never_overwritten(table: Table, tmp_path: Path) -> None:
    table.play_step()
    save = table.folder.read()
    path = history_path(table.folder.path, save.revision)
    kept = path.read_bytes()
    with pytest.raises(ConflictError, match="already holds another revision"):
        store_history(table.folder.path, save.revision, kept + b" ")
    store_history(table.folder.path, save.revision, kept)  # the same bytes again: fine
    assert path.read_bytes() == kept
    # A stranger's file where the next revision would go: the save is taken for an old one.
    name = table.awaited()
    text = table.sealed(table.signed(name, table.full_turn(name)))
    intruder = history_path(table.folder.path, save.revision + 1)
    intruder.write_bytes(b"not a save")
    before = files(table.folder.path)
    with pytest.raises(RollbackError, match="old save was put back"):
        table.submit(text)
    assert files(table.folder.path) == before


def test_a_writer_stopped_between_save_and_history_is_completed(table: Table) -> None:
    table.play_step()
    save = table.folder.read()
    newest = history_path(table.folder.path, save.revision)
    newest.unlink()  # the save was replaced, its history file never written
    assert cli("status", str(table.folder.path)).exit_code == 0
    assert not newest.exists(), "a reader wrote"
    table.play_step()  # the next writer completes history first
    assert newest.read_bytes() == read_history(table, save.revision)
    assert table.folder.read().revision == save.revision + 2
    # Two missing: the save no longer follows from history.
    save = table.folder.read()
    history_path(table.folder.path, save.revision).unlink()
    history_path(table.folder.path, save.revision - 1).unlink()
    with pytest.raises(RollbackError, match="does not continue this folder's history"):
        table.folder.read()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Identity]) -> Table:
    """Four steps of a game and a second game of the same moderator (read only)."""
    root = tmp_path_factory.mktemp("played")
    table = new_table(root, keys, "game")
    for _ in range(4):
        table.play_step()
    other = new_table(root / "elsewhere", keys, "other")
    other.play_step()
    return table


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_only_the_newest_save_of_this_game_is_ever_read(played: Table, tmp_path_factory, data) -> None:
    """Whatever save file is put in place (any revision of this game or of another game of
    the same moderator), it is read only if it is this folder's newest."""
    folder = played.copy_to(tmp_path_factory.mktemp("copy") / "game")
    newest = folder.read().revision
    other = played.folder.path.parent / "elsewhere" / "other" / "history"
    choices = sorted((played.folder.path / "history").glob("rev-*")) + sorted(other.glob("rev-*"))
    pick = data.draw(st.sampled_from(choices))
    shutil.copy(pick, folder.save_path)
    if pick.parent.parent == played.folder.path and pick.name == f"rev-{newest:06d}.json":
        assert folder.read().revision == newest
    else:
        with pytest.raises((ForeignError, RollbackError)):
            folder.read()


def read_history(table: Table, revision: int) -> bytes:
    return history_path(table.folder.path, revision).read_bytes()


def test_a_new_game_needs_an_empty_folder(table: Table, keys: dict[str, Identity]) -> None:
    from pbem.errors import UsageError

    table.folder.save_path.unlink()  # history alone still marks the folder as taken
    with pytest.raises(UsageError, match="already holds a game"):
        GameFolder.create(
            table.folder.path,
            "symbiote",
            keys["moderator"],
            [keys[n].public() for n in PLAYERS],
            {},
            now=NOW,
            entropy=entropy("again"),
        )


# ---- writers that meet ---------------------------------------------------------------------------
def test_a_save_changed_by_another_machine_is_read_again(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another machine of a synced folder saves the game while this one works: the write is
    refused by compare-and-swap and the whole submit runs again on the new save."""
    table.play_step()
    remote = table.copy_to(tmp_path / "remote", tmp_path / "remote-home")
    first = table.awaited()
    theirs, ours = table.symbiote_default(first), table.full_turn(first)
    assert theirs != ours
    remote.submit(table.sealed(table.signed(first, theirs)), table.moderator, source="r", now=table.tick())
    real_commit = engine_module.commit
    synced: list[bool] = []

    def sync_then_commit(folder: Path, *args: object) -> None:
        if not synced:  # the remote save arrives just before our write
            synced.append(True)
            revision = remote.read().revision
            shutil.copy(history_path(remote.path, revision), history_path(folder, revision))
            shutil.copy(remote.save_path, folder / "save.json")
        real_commit(folder, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_module, "commit", sync_then_commit)
    text = table.sealed(table.signed(first, ours, seq=remote.read().body["seq"][first] + 1))
    receipt = table.submit(text)
    assert synced and receipt.replaced, "the submit did not see the remote orders"
    save = table.folder.read()
    assert save.revision == remote.read().revision + 1
    assert read_save(read_history(table, save.revision - 1), "h").digest == remote.read().digest


def test_a_save_that_keeps_changing_is_refused_and_nothing_is_written(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def always_changed(folder: Path, *args: object) -> None:
        raise ConflictError(f"{folder}/save.json changed while this command worked")

    monkeypatch.setattr(engine_module, "commit", always_changed)
    before = files(table.folder.path)
    name = table.awaited()
    with pytest.raises(ConflictError, match=r"\(3 attempts\)") as info:
        table.submit(table.sealed(table.signed(name, table.full_turn(name))))
    assert info.value.exit_code == 1 and "one moderator" in (info.value.hint or "")
    assert files(table.folder.path) == before, "an order archive or save was left behind"


def test_a_locked_game_waits_then_refuses_clearly(table: Table) -> None:
    before = files(table.folder.path)
    name = table.awaited()
    text = table.sealed(table.signed(name, table.full_turn(name)))
    busy = GameFolder(table.folder.path, table.home, lock_wait=0.2)
    with game_lock(table.folder.path.parent, table.folder.path.name) as mine:
        assert mine
        with pytest.raises(ConflictError, match=f"holds {LOCK_NAME}"):
            busy.submit(text, table.moderator, source="o.txt", now=table.tick())
    assert files(table.folder.path) == before
    assert busy.submit(text, table.moderator, source="o.txt", now=table.tick()).player == name


def test_a_refused_file_leaves_nothing_behind(
    table: Table, tmp_path: Path, mod_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = table.awaited()
    path = tmp_path / "big-seq.txt"
    path.write_text(table.signed(name, table.full_turn(name), seq=2**60), encoding="utf-8")
    before = files(table.folder.path)
    result = cli("submit", str(table.folder.path), str(path), "--key", mod_key)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert files(table.folder.path) == before
    # Orders the game accepts but the save cannot hold: refused before the archive is written.
    game = get_game("symbiote")
    monkeypatch.setattr(type(game), "validate", lambda self, view, lines: {"n": 2**60})
    with pytest.raises(FormatError, match=r"beyond 2\*\*53"):
        table.submit(table.sealed(table.signed(name, table.full_turn(name))))
    assert files(table.folder.path) == before
    assert not table.folder.orders_dir(1).exists()


# ---- a turn's files --------------------------------------------------------------------------------
def jovian(root: Path, keys: dict[str, Identity]) -> GameFolder:
    return GameFolder.create(
        root / "jovian",
        "jovian-syzygy",
        keys["moderator"],
        [keys[n].public() for n in PLAYERS],
        {},
        now=NOW,
        entropy=entropy("jovian"),
        home=root / "home",
    )


def test_a_picture_lost_in_a_crash_is_restored(
    tmp_path: Path, keys: dict[str, Identity], monkeypatch: pytest.MonkeyPatch, mod_key: str
) -> None:
    folder = jovian(tmp_path, keys)
    moderator = keys["moderator"]
    game = get_game("jovian-syzygy")
    loaded = folder.load(moderator)
    fill = {s: game.default_orders(loaded.view(s)) for s in range(len(PLAYERS))}
    real = type(game).pictures

    def killed(self: object, view: object) -> dict[str, str]:
        raise KeyboardInterrupt("killed between the texts and the picture")

    monkeypatch.setattr(type(game), "pictures", killed)
    with pytest.raises(KeyboardInterrupt):
        folder.advance(moderator, now=NOW + timedelta(hours=1), fill=fill)
    monkeypatch.setattr(type(game), "pictures", real)
    save = folder.read()
    assert save.turn == 2
    assert [p.name for p in folder.missing_files(save)] == ["board.svg"]
    status = cli("status", str(folder.path))
    assert status.exit_code == 0 and "board.svg" in status.output and "pbem publish" in status.output
    # The next moderator pass restores the picture and hands it out with the texts.
    moderator_pass(tmp_path, keys, tmp_path).run_pass()
    assert folder.missing_files(save) == []
    for name in PLAYERS:
        assert (folder.path / "players" / name / "turn-0002-board.svg").is_file()
    # pbem publish restores it as well.
    (folder.reports_dir(2) / "board.svg").unlink()
    assert cli("publish", str(folder.path), "--key", mod_key).exit_code == 0
    assert folder.missing_files(save) == []


# ---- rollback ----------------------------------------------------------------------------------------
def test_rollback_draws_hidden_chance_anew_and_still_verifies(table: Table, mod_key: str) -> None:
    moderator = table.moderator
    for _ in range(3):
        table.play_step()
    assert table.folder.read().turn == 4
    start_of_2 = next(
        s
        for s in (
            read_save(p.read_bytes(), p.name) for p in sorted((table.folder.path / "history").glob("rev-*"))
        )
        if s.turn == 2 and not s.body["submitted"]
    )
    old_deck = open_secret(start_of_2, moderator).state["deck"]
    fresh = bytes(range(32))
    save = table.folder.rollback(moderator, 2, now=table.tick(), entropy=lambda n: fresh[:n])
    secret = table.folder.load(moderator).secret
    assert sorted(secret.state["deck"]) == sorted(old_deck) and secret.state["deck"] != old_deck
    assert secret.state["hands"] == open_secret(start_of_2, moderator).state["hands"]
    pledge = commitment(fresh)
    assert save.body["reseeds"] == [{"turn": 2, "revision": save.revision, "commitment": pledge}]
    assert pledge in (table.folder.reports_dir(2) / "public.txt").read_text()
    # The turns undone leave reports/ and orders/ (kept under undone/ for the record).
    undone = table.folder.undone_dir(save.revision)
    assert not table.folder.reports_dir(3).exists() and not table.folder.reports_dir(4).exists()
    assert sorted(p.name for p in (undone / "reports").iterdir()) == ["turn-0003", "turn-0004"]
    assert sorted(p.name for p in (undone / "orders").iterdir()) == ["turn-0002", "turn-0003"]
    assert not table.folder.orders_dir(2).exists()
    # Play to the end; the re-play crosses the rollback with the fresh seed.
    for _ in range(500):
        if table.folder.read().body["outcome"] is not None:
            break
        table.play_step()
    final = table.folder.read()
    assert final.body["outcome"] is not None
    assert verify_replay(final) == sum(1 for e in final.body["replay"] if "orders" in e)
    assert {"turn": 2, "reseed": fresh.hex()} in final.body["replay"]
    result = cli("verify", str(table.folder.path))
    assert result.exit_code == 0, result.output
    # A reseed that was not committed to is caught.
    forged = dict(final.body, reseeds=[{"turn": 2, "revision": 1, "commitment": "00" * 32}])
    with pytest.raises(RollbackError, match="rollback to turn 2 does not match any commitment"):
        verify_replay(Save(forged, "save.json"))


def test_moderator_rollback_takes_undone_reports_out_of_players_folders(
    table: Table, keys: dict[str, Identity], tmp_path: Path
) -> None:
    root = table.folder.path.parent
    mod = moderator_pass(root, keys, tmp_path)
    for _ in range(3):
        mod.run_pass()
        table.play_step()
    mod.run_pass()
    game = table.folder.path
    delivered = sorted({p.name for p in (game / "players").rglob("report-*")})
    assert delivered == [f"report-turn-{t:04d}.txt" for t in (1, 2, 3, 4)]
    admin = GameAdmin.open(game, keys["moderator"], FixedClock(), tmp_path / "mod-state")
    assert admin.rollback(2) == 2
    revision = table.folder.read().revision
    kept = sorted({p.name for p in (game / "players").rglob("report-*")})
    assert kept == ["report-turn-0001.txt"]
    undone = table.folder.undone_dir(revision) / "players"
    assert sorted(p.name for p in (undone / "alice").iterdir()) == [
        f"report-turn-{t:04d}.txt" for t in (2, 3, 4)
    ]
    mod.run_pass()  # turn 2 is handed out again, from the rolled-back save
    path = game / "players" / "alice" / "report-turn-0002.txt"
    report = parse_report(path.read_text(), str(path), keys["alice"], keys["moderator"].public())
    assert report.data["revision"] == revision
    assert os.path.exists(game / LOCK_NAME)


@pytest.mark.parametrize("damage", ["empty", "zeros", "cut", "cut at a line's end"])
def test_a_report_a_power_cut_left_short_counts_as_missing_and_is_written_again(
    tmp_path: Path, keys: dict[str, Identity], mod_key: str, damage: str
) -> None:
    # Reports are written without fsync (they follow from the durable save): after a power
    # cut one can be there by name but empty, or end in zeros where its data never reached
    # the disk.  Present by name is not enough.
    folder = jovian(tmp_path, keys)
    moderator = keys["moderator"]
    game = get_game("jovian-syzygy")
    loaded = folder.load(moderator)
    fill = {s: game.default_orders(loaded.view(s)) for s in range(len(PLAYERS))}
    folder.advance(moderator, now=NOW + timedelta(hours=1), fill=fill)
    save = folder.read()
    assert folder.missing_files(save) == []
    report = folder.reports_dir(save.turn) / f"{PLAYERS[1]}.txt"
    whole = report.read_bytes()
    middle = len(whole) // 2
    line_end = whole.index(b"\n", middle) + 1  # a cut that ends with a whole line looks whole to a reader
    mid_line = middle if whole[middle - 1 : middle] != b"\n" else middle + 1
    cut = {
        "empty": b"",
        "zeros": whole[:-100] + bytes(100),
        "cut": whole[:mid_line],
        "cut at a line's end": whole[:line_end],
    }[damage]
    report.write_bytes(cut)
    assert [p.name for p in folder.missing_files(save)] == [report.name]
    status = cli("status", str(folder.path))
    assert status.exit_code == 0 and report.name in status.output and "pbem publish" in status.output
    assert cli("publish", str(folder.path), "--key", mod_key).exit_code == 0
    assert folder.missing_files(save) == []
    again = report.read_bytes()  # the same report (its sealed part is encrypted anew)
    sealed = b"-----BEGIN AGE ENCRYPTED FILE-----"
    assert again.split(sealed)[0] == whole.split(sealed)[0] and again.endswith(b"-----\n")
