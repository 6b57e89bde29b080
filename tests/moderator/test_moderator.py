"""Scenario tests of the shared-folder moderator: a real Symbiote game under a root, real
signed order files dropped into inboxes, a fixed clock."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.core import Moderator
from pbem.moderator.lock import game_lock
from pbem.moderator.notices import open_text
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import NAMES, T0, awaited, drop, new_game, order_block, read, snapshot

H = 3600
TIMING = """
[timing]
deadline = "48h"
reminders = ["24h", "2h"]
grace = "6h"
on_missing = "{missing}"
abandon_after = {abandon}
"""


def timing(missing: str = "default", abandon: int = 0) -> str:
    return TIMING.format(missing=missing, abandon=abandon)


def moderator(root: Path, keys: dict[str, Identity], clock: FixedClock, settle: int = 0) -> Moderator:
    return Moderator(root, keys["moderator"], clock=clock, settle=settle)


def started(
    root: Path, keys: dict[str, Identity], clock: FixedClock, missing: str = "default", settle: int = 0
) -> tuple[Path, Moderator, str]:
    """Game ``g1`` under ``root`` with the timing policy ``timing(missing)``, its moderator,
    and the seat awaited after the moderator's first pass."""
    game = new_game(root, keys, "g1", toml=timing(missing))
    mod = moderator(root, keys, clock, settle)
    mod.run_pass()
    [name] = awaited(game)
    return game, mod, name


def notices(game_dir: Path, name: str) -> list[str]:
    folder = game_dir / "players" / name
    return sorted(p.name for p in folder.glob("notice-*")) if folder.is_dir() else []


def results(game_dir: Path, name: str) -> list[str]:
    """The Result: line of every notice of ``name``, oldest name first."""
    out = []
    for filename in notices(game_dir, name):
        text = (game_dir / "players" / name / filename).read_text()
        out.append(next(line for line in text.splitlines() if line.startswith("Result:")))
    return out


def test_first_pass_hands_out_turn_one_reports_and_makes_folders(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    result = moderator(root, keys, clock).run_pass()
    assert [g.game for g in result.games] == ["g1"]
    for name in NAMES:
        assert (game / "inbox" / name).is_dir()
        report = game / "players" / name / "report-turn-0001.txt"
        assert report.read_bytes() == (game / "reports" / "turn-0001" / f"{name}.txt").read_bytes()


def test_orders_in_the_inbox_are_filed_and_the_turn_resolves(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    drop(game, name, "my-orders.txt", order_block(game, keys, name))
    result = mod.run_pass()
    assert result.games[0].notices == ("accepted",) and result.games[0].advanced == 1
    assert read(game).turn == 2
    assert not list((game / "inbox" / name).iterdir()), "the inbox file is taken out"
    assert len(list((game / "orders" / "turn-0001").iterdir())) == 1, "the accepted file is kept"
    assert results(game, name) == ["Result:   ACCEPTED"]
    for player in NAMES:
        assert (game / "players" / player / "report-turn-0002.txt").is_file()


def test_a_whole_game_runs_unattended_to_its_end(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    for step in range(400):
        save = read(game)
        if save.body["outcome"] is not None:
            break
        for name in awaited(game):
            drop(game, name, f"o{step}.txt", order_block(game, keys, name, bot="random", seed=step))
        mod.run_pass()
        clock.advance(60)
    save = read(game)
    assert save.body["outcome"] is not None
    assert len(list((game / "history").iterdir())) == save.revision + 1, "every state is kept"
    assert (game / "players" / NAMES[0] / f"report-turn-{save.turn:04d}.txt").is_file()


def test_unchanged_pass_looks_at_nothing(root, keys, clock) -> None:
    for label in ("g1", "g2", "g3"):
        new_game(root, keys, label)
    mod = moderator(root, keys, clock)
    mod.run_pass()
    mod.run_pass()
    mod.real_ns = lambda: 10**20  # long after every file was touched
    mod.run_pass()
    again = mod.run_pass()
    assert [g.skipped for g in again.games] == ["unchanged"] * 3
    game = root / "g2"
    [name] = awaited(game)
    drop(game, name, "o.txt", order_block(game, keys, name))
    after_drop = mod.run_pass()
    assert [g.skipped for g in after_drop.games] == ["unchanged", None, "unchanged"]
    assert after_drop.games[1].advanced == 1


def test_temporary_and_settling_files_wait(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock, settle=30)
    mod.run_pass()
    [name] = awaited(game)
    block = order_block(game, keys, name)
    for temp in (".orders.txt.swp", "orders.txt.part", "orders.tmp", "~$orders.txt", "orders.txt~"):
        drop(game, name, temp, block)
    young = drop(game, name, "orders.txt", block, age=0)
    result = mod.run_pass()
    assert result.games[0].files == 0 and read(game).turn == 1
    os.utime(young, (young.stat().st_mtime - 60,) * 2)  # dated back: changed all the same
    result = mod.run_pass()
    assert result.games[0].files == 0 and read(game).turn == 1
    settled = young.stat().st_ctime_ns + 31 * 10**9
    mod.real_ns = lambda: settled
    result = mod.run_pass()
    assert result.games[0].files == 1 and read(game).turn == 2
    assert (game / "inbox" / name / "orders.txt.part").exists(), "temporary files are left alone"


def _bad_files(game: Path, keys: dict[str, Identity], name: str) -> dict[str, tuple[str, str, str]]:
    """name -> (inbox folder, file text, expected notice kind word)."""
    save = read(game)
    idle = next(n for i, n in enumerate(save.names) if i not in save.awaiting)
    other = new_game(game.parent, keys, "other-game")
    return {
        "garbage.txt": (name, "hello judge, my orders: take, discard 7H\n", "cannot be read"),
        "forged.txt": (name, order_block(game, keys, name, signer="mallory"), "signature does not match"),
        "idle.txt": (idle, order_block(game, keys, idle, turn=save.turn), "no orders are awaited"),
        "future.txt": (name, order_block(game, keys, name, turn=save.turn + 1), "old or replayed"),
        "foreign.txt": (name, order_block(other, keys, name), "not for this game"),
        "illegal.txt": (name, order_block(game, keys, name, lines=["pair 10H 10S"]), "cannot be carried out"),
        "binary.bin": (name, "\udcff", "cannot be read"),
    }


def test_bad_files_each_get_their_notice_and_change_nothing(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    cases = _bad_files(game, keys, name)
    before = snapshot(game)
    for filename, (folder, text, _) in cases.items():
        if filename == "binary.bin":
            drop(game, folder, filename, b"\xff\xfe\x00garbage")
        else:
            drop(game, folder, filename, text)
    result = mod.process(game, force=True)
    assert result.files == len(cases) and result.advanced == 0
    assert snapshot(game) == before, "a refused file changes neither the save nor the accepted orders"
    texts = "\n".join((game / "players" / n / f).read_text() for n in NAMES for f in notices(game, n))
    for _, _, expected in cases.values():
        assert expected in texts
    assert "ACCEPTED" not in texts
    assert not [p for n in NAMES for p in (game / "inbox" / n).iterdir()]


def test_rejected_orders_detail_is_encrypted_to_the_player(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    drop(game, name, "o.txt", order_block(game, keys, name, lines=["pair 10H 10S", "discard ZZ"]))
    mod.run_pass()
    [notice] = notices(game, name)
    text = (game / "players" / name / notice).read_text()
    assert "pair 10H 10S" not in text and "BEGIN AGE ENCRYPTED FILE" in text
    opened = open_text(text, keys[name])
    assert "pair 10H 10S" in opened and "line" in opened
    with pytest.raises(Exception):  # noqa: B017 - any refusal: the key is not a recipient
        open_text(text, keys["mallory"])


def test_duplicate_replaced_replayed_and_late_files(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    first = order_block(game, keys, name, bot="greedy")
    drop(game, name, "a.txt", first)
    drop(game, name, "b.txt", first)  # the very same file twice, before the turn resolves
    mod.run_pass()
    assert sorted(results(game, name)) == [
        "Result:   ACCEPTED",
        "Result:   NOT NEEDED: already accepted; nothing changed",
    ]
    assert read(game).turn == 2
    before = snapshot(game)
    drop(game, name, "c.txt", first)  # once more, after its turn was resolved
    mod.run_pass()
    assert snapshot(game) == before
    assert any("too late" in r for r in results(game, name))
    # Replacing and replaying within one turn: pause the game so the turn stays open.
    admin = GameAdmin.open(game, keys["moderator"], clock)
    admin.pause()
    [nxt] = awaited(game)
    drop(game, nxt, "x.txt", order_block(game, keys, nxt))
    mod.run_pass()
    before = snapshot(game)
    drop(game, nxt, "z.txt", order_block(game, keys, nxt, seq=1, bot="random", seed=3))
    mod.run_pass()
    assert snapshot(game) == before
    assert any("old or replayed" in r for r in results(game, nxt))
    drop(game, nxt, "w.txt", order_block(game, keys, nxt, seq=5, bot="random", seed=4))
    mod.run_pass()
    assert any("replaces" in r for r in results(game, nxt))
    assert read(game).turn == 2, "a paused game does not advance"
    admin.resume()
    mod.run_pass()
    assert read(game).turn == 3


def test_deadline_reminders_then_default_orders(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("default", abandon=2))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(25 * H)
    mod.run_pass()
    assert (game / "players" / name / "reminder-turn-0001-1.txt").is_file()
    assert not (game / "players" / name / "reminder-turn-0001-2.txt").exists()
    clock.advance(22 * H)
    mod.run_pass()
    assert (game / "players" / name / "reminder-turn-0001-2.txt").is_file()
    others = [n for n in NAMES if n != name]
    assert not [p for n in others for p in (game / "players" / n).glob("reminder-*")]
    clock.advance(3 * H)  # deadline passed, grace running
    mod.run_pass()
    assert read(game).turn == 1
    clock.advance(4 * H)  # grace over
    mod.run_pass()
    assert read(game).turn == 2
    record = load_record(game)
    assert record.seat(name).missed_total == 1 and not record.seat(name).abandoned
    assert "default" in "\n".join(record.lines)


def test_abandoned_after_missed_turns_then_played_by_stand_in(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("default", abandon=1))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(60 * H)
    mod.run_pass()
    save = read(game)
    seat = save.seat_of(name)
    assert save.body["players"][seat]["status"] == "abandoned"
    assert load_record(game).seat(name).abandoned
    for _ in range(12):  # the abandoned seat no longer waits for deadlines
        for other in awaited(game):
            if other != name:
                drop(game, other, f"o{read(game).turn}.txt", order_block(game, keys, other))
        mod.run_pass()
    assert read(game).turn > 4


def test_wait_policy_counts_the_miss_once_and_waits(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("wait", abandon=0))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    for _ in range(3):
        clock.advance(60 * H)
        mod.run_pass()
    assert read(game).turn == 1
    assert load_record(game).seat(name).missed_total == 1
    drop(game, name, "late-but-welcome.txt", order_block(game, keys, name))
    mod.run_pass()
    assert read(game).turn == 2
    assert any("grace" in (game / "players" / name / n).read_text() for n in notices(game, name))


def test_bot_policy_plays_the_seat(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("bot:greedy", abandon=0))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(60 * H)
    mod.run_pass()
    # One deadline a go: a bot that drew alone finishes the go at once (turn 3 then).
    assert read(game).turn >= 2 and awaited(game) != [name]
    assert "bot:greedy" in "\n".join(load_record(game).lines)


def test_extend_moves_the_deadline(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("default"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    GameAdmin.open(game, keys["moderator"], clock).extend(24 * H)
    clock.advance(60 * H)
    mod.run_pass()
    assert read(game).turn == 1
    clock.advance(20 * H)
    mod.run_pass()
    assert read(game).turn == 2


def test_resigned_seat_is_played_at_once(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("wait"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    GameAdmin.open(game, keys["moderator"], clock).resign(name)
    mod.run_pass()
    assert read(game).turn >= 2


def test_replace_player_new_key_same_seat(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    newcomer = Identity.generate("dora")
    GameAdmin.open(game, keys["moderator"], clock).replace_player(name, newcomer.public())
    mod.run_pass()
    save = read(game)
    dora = save.seat_of("dora")
    assert dora is not None and save.names[dora] == "dora" and save.seat_of(name) is None
    assert (game / "players" / "dora" / "report-turn-0001.txt").is_file()
    keys2 = {**keys, "dora": newcomer}
    drop(game, name, "old-key.txt", order_block(game, keys2, "dora", signer=name))
    mod.run_pass()
    assert read(game).turn == 1
    drop(game, "dora", "new-key.txt", order_block(game, keys2, "dora"))
    mod.run_pass()
    assert read(game).turn == 2


def test_rollback_and_preview(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    for step in range(3):
        for name in awaited(game):
            drop(game, name, f"o{step}.txt", order_block(game, keys, name))
        mod.run_pass()
    assert read(game).turn == 4
    admin = GameAdmin.open(game, keys["moderator"], clock)
    before = (game / "save.json").read_bytes()
    lines = admin.preview()
    assert (game / "save.json").read_bytes() == before
    assert "nothing is written" in lines[0] and any("default orders" in line for line in lines)
    assert admin.rollback(2) == 2
    mod.run_pass()
    assert read(game).turn == 2
    clock_after = load_record(game).clock
    assert clock_after is not None and clock_after.turn == 2
    [name] = awaited(game)
    drop(game, name, "again.txt", order_block(game, keys, name))
    mod.run_pass()
    assert read(game).turn == 3


def test_a_locked_game_is_skipped(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    with game_lock(root, "g1") as mine:
        assert mine
        assert mod.run_pass().games[0].skipped == "locked"
    assert mod.run_pass().games[0].skipped is None
    assert game.is_dir()


def test_status_lines_show_deadline_reminders_and_misses(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing("default", abandon=3))
    mod = moderator(root, keys, clock)
    assert status_lines(game, clock.now()) == []
    mod.run_pass()
    clock.advance(25 * H)
    mod.run_pass()
    lines = status_lines(game, clock.now())
    text = "\n".join(lines)
    assert "deadline:" in text and "grace until:" in text
    assert "reminder 1:" in text and "[sent]" in text and "[planned]" in text
    clock.advance(40 * H)
    mod.run_pass()
    assert "missed 1 turn," in "\n".join(status_lines(game, clock.now()))


def test_record_is_plain_json_with_integers(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=timing())
    moderator(root, keys, clock).run_pass()
    data = json.loads((game / "moderator" / "record.json").read_text())
    assert data["clock"]["started"] == clock.now() and isinstance(data["clock"]["started"], int)
    assert clock.now() > T0


def test_a_huge_file_is_refused_unread(root, keys, clock, monkeypatch) -> None:
    from pbem.moderator import core

    game = new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    monkeypatch.setattr(core, "MAX_ORDER_BYTES", 100)
    drop(game, name, "big.txt", order_block(game, keys, name))
    mod.run_pass()
    assert read(game).turn == 1
    assert any(
        "no order file is that big" in (game / "players" / name / n).read_text() for n in notices(game, name)
    )


def test_mail_mode_queues_one_mail_per_player_for_reports_reminders_and_notices(root, keys, clock) -> None:
    emails = "".join(f'[players.{n}]\nemail = "{n}@example.org"\n' for n in NAMES)
    game = new_game(root, keys, "g1", toml=timing("default") + emails)
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0, mail=True)
    assert mod.outbox is not None
    mod.run_pass()
    first = [mail for _, mail in mod.outbox.pending()]
    assert sorted(m.to for m in first) == [f"{n}@example.org" for n in NAMES]
    for mail in first:
        name = mail.to.split("@")[0]
        assert mail.body == (game / "reports" / "turn-0001" / f"{name}.txt").read_text()
        assert [a for a, _ in mail.attachments] == [f"{name}-turn-0001.txt"]
    mod.run_pass()
    assert len(mod.outbox.pending()) == 3, "nothing is queued twice"
    [name] = awaited(game)
    clock.advance(25 * H)
    mod.run_pass()
    reminders = [m for _, m in mod.outbox.pending() if "reminder" in m.subject]
    assert [m.to for m in reminders] == [f"{name}@example.org"]
    drop(game, name, "bad.txt", "not orders\n")
    mod.run_pass()
    notices = [m for _, m in mod.outbox.pending() if "not accepted" in m.subject]
    assert [m.to for m in notices] == [f"{name}@example.org"]
