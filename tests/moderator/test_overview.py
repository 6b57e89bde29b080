"""A moderator sees what is going on (issue 9 §4): ``pbem status ROOT``, ``pbem log GAME``,
timestamped ``pbem moderate`` lines, stand-in and abandonment notices, one deadline per go,
timing policies refused with their valid choices, and ``pbem new``'s warning about the
moderator's own key."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.errors import UsageError
from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin, status_lines
from pbem.moderator.config import GameConfig, RootConfig
from pbem.moderator.core import Moderator
from pbem.moderator.journal import KINDS, added, read_entries, stamp
from pbem.moderator.notices import open_text
from pbem.moderator.record import Record, load_record, read_record, record_path
from pbem.timing import FixedClock, TimingPolicy

from .modkit import NAMES, T0, awaited, drop, new_game, order_block, read

H = 3600
FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0"))
POLICY = '[timing]\ndeadline = "48h"\nreminders = ["24h"]\ngrace = "6h"\non_missing = "{missing}"\n'


def fuzz(ci: int) -> settings:
    return settings(
        max_examples=FUZZ or ci, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )


def policy(missing: str = "default", extra: str = "") -> str:
    return POLICY.format(missing=missing) + extra


def moderator(root: Path, keys: dict[str, Identity], clock: FixedClock) -> Moderator:
    return Moderator(root, keys["moderator"], clock=clock, settle=0)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def keyfile(keys: dict[str, Identity], tmp_path: Path) -> Path:
    path = tmp_path / "keys" / "moderator.key"
    path.parent.mkdir(exist_ok=True)
    keys["moderator"].save(path)
    return path


def kinds(game: Path) -> list[str]:
    return [e.kind for e in read_entries(load_record(game).log)]


# ---- the journal -----------------------------------------------------------------------------
def test_every_journal_entry_has_a_time_kind_and_turn(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=policy())
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    drop(game, name, "junk.txt", "not an order file\n")
    drop(game, name, "o.txt", order_block(game, keys, name))
    clock.advance(60)
    mod.run_pass()
    admin = GameAdmin.open(game, keys["moderator"], clock)
    admin.extend(H)
    admin.pause()
    admin.resume()
    entries = read_entries(load_record(game).log)
    assert all(e.at is not None and T0 <= e.at <= clock.now() for e in entries)
    assert [e.n for e in entries] == list(range(1, len(entries) + 1))
    seen = [e.kind for e in entries]
    for kind in ("turn-started", "rejected", "accepted", "turn-resolved", "extended", "paused", "resumed"):
        assert kind in seen, (kind, seen)
    accepted = next(e for e in entries if e.kind == "accepted")
    assert accepted.turn == 1 and accepted.player == name
    started = [e.text for e in entries if e.kind == "turn-started"]
    assert started[0] == f"turn 1 started, awaiting {name}"


def test_old_plain_line_records_still_load_and_read(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    moderator(root, keys, clock).run_pass()
    data = json.loads(record_path(game).read_text())
    data["log"] = ["2027-01-15T08:00:00+00:00 turn 1 started", "game paused", "bob resigned"]
    record_path(game).write_text(json.dumps(data))
    record, damage = read_record(game)
    assert damage is None
    entries = read_entries(record.log)
    assert [(e.n, e.kind) for e in entries] == [(1, "turn-started"), (2, "paused"), (3, "resigned")]
    assert entries[0].at is not None and stamp(entries[0].at) == "2027-01-15 08:00:00Z"
    assert entries[1].at is None
    # New entries follow the old ones and carry their own time.
    later = record.logged("x", at=T0, kind="note")
    assert read_entries(later.log)[-1].n == 4
    assert [e.text for e in added(record.log, later.log)] == ["x"]
    out = run("log", str(game))
    assert out.exit_code == 0 and "2027-01-15 08:00:00Z" in out.output and "game paused" in out.output


@fuzz(60)
@given(
    log=st.lists(
        st.one_of(
            st.text(max_size=40),
            st.dictionaries(
                st.sampled_from(["n", "at", "kind", "text", "turn", "player", "x"]),
                st.one_of(st.none(), st.booleans(), st.integers(-(10**12), 10**12), st.text(max_size=20)),
                max_size=6,
            ),
            st.integers(),
            st.none(),
        ),
        max_size=12,
    )
)
def test_reading_any_journal_never_raises(log: list[object]) -> None:
    entries = read_entries(log)
    assert all(e.kind in KINDS for e in entries)
    record = Record(log=tuple(x for x in log if isinstance(x, (str, dict))))
    grown = record.logged("next", at=T0)
    assert read_entries(grown.log)[-1].text == "next"
    assert [e.line() for e in entries] or not entries


# ---- pbem log --------------------------------------------------------------------------------
def test_pbem_log_prints_the_journal_with_times(root, keys, clock, keyfile) -> None:
    game = new_game(root, keys, "g1", toml=policy(extra="abandon_after = 3\n"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(25 * H)
    mod.run_pass()  # reminder
    clock.advance(30 * H)
    mod.run_pass()  # grace over: the stand-in plays
    other = next(n for n in NAMES if n != name)
    admin = GameAdmin.open(game, keys["moderator"], clock)
    admin.resign(other)
    admin.rollback(1)
    result = run("log", str(game))
    assert result.exit_code == 0, result.output
    text = result.output
    for words in (
        "turn 1 started",
        f"reminder 1 for turn 1 sent to {name}",
        f"stand-in played for {name} (default)",
        "turn 1 resolved",
        f"{other} resigned",
        "rolled back to turn 1",
    ):
        assert words in text, (words, text)
    assert text.splitlines()[0].startswith(stamp(T0 + 60))
    only = run("log", str(game), "--kind", "stand-in")
    assert only.exit_code == 0 and only.output.count("\n") == 1 and "[stand-in]" in only.output
    as_json = json.loads(run("log", str(game), "--json", "--turn", "1").output)
    assert as_json and all(e["turn"] == 1 and isinstance(e["at"], int) for e in as_json)
    assert len(json.loads(run("log", str(game), "--json", "--last", "2").output)) == 2


def test_pbem_log_refuses_bad_requests(root, keys, clock) -> None:
    game = new_game(root, keys, "g1")
    fresh = run("log", str(game))
    assert fresh.exit_code == 0 and "no journal yet" in fresh.output
    bad = run("log", str(game), "--kind", "everything")
    assert bad.exit_code == 2 and "unknown kind everything" in bad.output and "turn-started" in bad.output
    assert run("log", str(game), "--last", "0").exit_code == 2
    assert run("log", str(root)).exit_code == 2
    moderator(root, keys, clock).run_pass()
    record_path(game).write_text("{not json")
    damaged = run("log", str(game))
    assert damaged.exit_code == 0 and "damaged" in damaged.output


# ---- pbem moderate ---------------------------------------------------------------------------
def test_moderate_prints_timestamped_lines_and_says_when_there_is_nothing_to_do(root, keys, keyfile) -> None:
    game = new_game(root, keys, "g1", toml=policy())
    first = run("moderate", str(root), "--key", str(keyfile), "--settle", "0")
    assert first.exit_code == 0
    [line] = first.output.splitlines()
    assert line.endswith(f"g1: turn 1 started, awaiting {awaited(game)[0]}")
    assert line[:4].isdigit() and line[19] == "Z"
    idle = run("moderate", str(root), "--key", str(keyfile), "--settle", "0", "--force")
    assert idle.exit_code == 0 and "nothing to do: 1 game," in idle.output
    assert "next deadline or reminder at" in idle.output
    [name] = awaited(game)
    drop(game, name, "o.txt", order_block(game, keys, name))
    busy = run("moderate", str(root), "--key", str(keyfile), "--settle", "0", "-v")
    lines = busy.output.splitlines()
    assert any(f"g1: inbox/{name}/o.txt: accepted ({name})" in x for x in lines)
    assert any("g1: turn 1 resolved" in x for x in lines) and "nothing to do" not in busy.output
    assert all(x[:4].isdigit() for x in lines)


def test_an_idle_watch_pass_prints_nothing_even_verbose(root, keys, clock) -> None:
    from pbem.cli_moderator import _print_pass

    new_game(root, keys, "g1")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    idle = mod.run_pass(force=True)
    runner = CliRunner()
    with runner.isolation() as (out, _err, _):
        _print_pass(idle, clock.now(), verbose=True, once=False)
    assert out.getvalue() == b""


# ---- pbem status ROOT ------------------------------------------------------------------------
def test_status_of_a_root_gives_one_line_per_game(root, keys, clock, keyfile) -> None:
    g1 = new_game(root, keys, "g1", toml=policy())
    g2 = new_game(root, keys, "g2", toml=policy())
    new_game(root, keys, "g3")
    moderator(root, keys, clock).run_pass()
    GameAdmin.open(g2, keys["moderator"], clock).pause()
    GameAdmin.open(g2, keys["moderator"], clock).resign("carol")
    result = run("status", str(root))
    assert result.exit_code == 0, result.output
    header, *rows = result.output.splitlines()
    assert header.split() == ["GAME", "TYPE", "TURN", "AWAITING", "DEADLINE", "STATE", "LAST", "ACTIVITY"]
    assert [r.split()[0] for r in rows] == ["g1", "g2", "g3"]
    assert awaited(g1)[0] in rows[0] and stamp(T0 + 60 + 48 * H)[:16] in rows[0]
    assert "PAUSED" in rows[1] and "resigned: carol" in rows[1]
    data = json.loads(run("status", str(root), "--json").output)
    by_folder = {g["folder"]: g for g in data["games"]}
    assert by_folder["g1"]["deadline"] == T0 + 60 + 48 * H and by_folder["g1"]["awaiting"] == awaited(g1)
    assert by_folder["g2"]["paused"] and by_folder["g2"]["seats"] == {"carol": "resigned"}
    assert by_folder["g3"]["deadline"] is None and by_folder["g3"]["last_activity"] >= T0
    # A game folder still gives the one-game status.
    single = run("status", str(g1))
    assert single.exit_code == 0 and "awaiting orders from" in single.output


def test_status_of_a_root_shows_every_game_and_fails_on_a_broken_one(root, keys, clock) -> None:
    new_game(root, keys, "g1")
    broken = new_game(root, keys, "g2")
    (broken / "save.json").write_text("{}")
    result = run("status", str(root))
    assert result.exit_code == 1
    assert "g1" in result.output and "cannot be read" in result.output
    assert "1 game folder under" in result.output and "g2" in result.output
    empty = root.parent / "empty"
    empty.mkdir()
    assert run("status", str(empty)).exit_code in (1, 2)


# ---- stand-ins and abandonment ---------------------------------------------------------------
def test_the_player_is_told_when_the_stand_in_played(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=policy(extra="abandon_after = 3\n"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(60 * H)
    mod.run_pass()
    notice = (game / "players" / name / "stand-in-turn-0001.txt").read_text()
    assert "Result:   NO ORDERS ARRIVED: the stand-in played for you" in notice
    assert "the game's default orders" in notice and "Turns you have missed: 1." in notice
    assert "-----BEGIN AGE ENCRYPTED FILE-----" in notice
    opened = open_text(notice, keys[name])
    assert "The orders the stand-in played for you:" in opened and "draw" in opened
    public = " ".join((game / "reports" / "turn-0002" / "public.txt").read_text().split())
    assert f"{name}'s orders were played by the stand-in (the game's default orders)." in public
    for other in NAMES:
        assert "played by the stand-in" in (game / "reports" / "turn-0002" / f"{other}.txt").read_text()
        if other != name:
            assert not (game / "players" / other / "stand-in-turn-0001.txt").exists()


def test_the_player_is_told_once_when_marked_abandoned(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=policy(extra="abandon_after = 1\n"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(60 * H)
    mod.run_pass()
    told = sorted((game / "players" / name).glob("abandoned-turn-*"))
    assert len(told) == 1
    text = told[0].read_text()
    flat = " ".join(text.split())
    assert "SEAT ABANDONED" in text and "missed 1 turn in a row" in flat and "pbem replace" in text
    assert "abandoned" in kinds(game)
    for _ in range(4):
        for other in awaited(game):
            if other != name:
                drop(game, other, f"o{read(game).turn}.txt", order_block(game, keys, other))
        mod.run_pass()
    assert len(list((game / "players" / name).glob("abandoned-turn-*"))) == 1


def test_a_stand_in_that_draws_alone_finishes_the_go_at_once(root, keys, clock) -> None:
    game = new_game(root, keys, "g1", toml=policy("bot:greedy", "abandon_after = 2\n"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(60 * H)  # one deadline and its grace
    mod.run_pass()
    entries = read_entries(load_record(game).log)
    stands = [e.text for e in entries if e.kind == "stand-in"]
    assert stands == [
        f"stand-in played for {name} (bot:greedy)",
        f"stand-in finished the go for {name} (bot:greedy)",
    ]
    assert read(game).turn == 3 and awaited(game) != [name]
    record = load_record(game)
    assert record.seat(name).missed_total == 1, "one go missed, not two"
    assert not record.seat(name).abandoned
    rest = (game / "players" / name / "stand-in-turn-0002.txt").read_text()
    assert "finished it at once" in rest
    # The next seat got a whole deadline of its own, from now.
    assert record.clock is not None and record.clock.started == clock.now()


def test_a_game_without_the_hook_gives_each_step_its_deadline(root, keys, clock, monkeypatch) -> None:
    from pbem.registry import get_game

    monkeypatch.delattr(type(get_game("symbiote")), "mid_turn")
    game = new_game(root, keys, "g1", toml=policy("bot:greedy"))
    mod = moderator(root, keys, clock)
    mod.run_pass()
    [name] = awaited(game)
    clock.advance(60 * H)
    mod.run_pass()
    assert read(game).turn == 2 and awaited(game) == [name]


# ---- timing policies -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ('on_missing = "bot:smart"', "there is no bot called 'smart'"),
        ('on_abandoned = "bot:smart"', "there is no bot called 'smart'"),
        ('on_abandoned = "wait"', "cannot 'wait'"),
        ("on_missing = 3", "expected text"),
        ('reminders = "24h"', "expected a list of durations"),
        ('abandon_count = ["total"]', "expected 'consecutive' or 'total'"),
    ],
)
def test_a_bad_timing_policy_is_refused_with_the_choices(root, extra: str, words: str) -> None:
    game_dir = root / "g"
    game_dir.mkdir()
    (game_dir / "moderator.toml").write_text(f"[timing]\n{extra}\n")
    with pytest.raises(UsageError) as caught:
        GameConfig.load(game_dir, RootConfig(), frozenset({"greedy", "random"}))
    assert str(game_dir / "moderator.toml") in caught.value.message and words in caught.value.message
    if extra.startswith("on_"):
        assert caught.value.hint is not None and "bot:greedy, bot:random" in caught.value.hint


def test_a_root_default_must_name_an_installed_bot(root) -> None:
    (root / "moderator.toml").write_text('[timing]\non_missing = "bot:smart"\n')
    with pytest.raises(UsageError) as caught:
        RootConfig.load(root)
    assert caught.value.hint is not None and "bot:greedy" in caught.value.hint
    (root / "moderator.toml").write_text('[timing]\non_missing = "bot:greedy"\n')
    assert RootConfig.load(root).timing["on_missing"] == "bot:greedy"


def test_the_moderator_and_status_refuse_an_unknown_bot(root, keys, clock, keyfile) -> None:
    game = new_game(root, keys, "g1", toml=policy())
    good = new_game(root, keys, "g2", toml=policy())
    moderator(root, keys, clock).run_pass()
    (game / "moderator.toml").write_text(policy("bot:smart"))
    result = run("moderate", str(root), "--key", str(keyfile), "--settle", "0", "--force")
    assert "g1: error:" in result.output and "there is no bot called 'smart'" in result.output
    assert "bot:greedy, bot:random" in result.output
    status = run("status", str(game))
    assert status.exit_code == 2 and "there is no bot called 'smart'" in status.output
    assert status_lines(good, T0, "symbiote")
    overview = json.loads(run("status", str(root), "--json").output)
    assert "no bot called 'smart'" in overview["games"][0]["problem"]


@fuzz(80)
@given(
    table=st.dictionaries(
        st.sampled_from(
            ["deadline", "reminders", "grace", "on_missing", "abandon_after", "abandon_count", "on_abandoned"]
        ),
        st.one_of(
            st.text(max_size=12),
            st.integers(-5, 10**6),
            st.booleans(),
            st.lists(st.one_of(st.text(max_size=6), st.integers(0, 10**5)), max_size=4),
            st.sampled_from(["bot:greedy", "bot:smart", "wait", "default", "48h", ["24h"]]),
        ),
        max_size=7,
    )
)
def test_any_timing_table_is_read_or_refused_clearly(table: dict[str, object]) -> None:
    try:
        parsed = TimingPolicy.from_toml(table, frozenset({"greedy"}))
    except UsageError as exc:
        assert exc.message.startswith("[timing]")
    else:
        for stand in (parsed.on_missing, parsed.on_abandoned):
            assert stand.action != "bot" or stand.bot == "greedy"


# ---- pbem new --------------------------------------------------------------------------------
def test_new_warns_when_a_card_is_the_moderators_own_key(tmp_path: Path) -> None:
    keys = tmp_path / "k"
    keys.mkdir()
    for name in ("carol", "alice", "bob"):
        assert run("keygen", name, "--out", str(keys)).exit_code == 0
    args = ["new", "symbiote", "--moderator-key", str(keys / "carol.key")]
    players = [f"--player={n}={keys / n}.pub" for n in ("alice", "bob", "carol")]
    result = CliRunner().invoke(main, [*args[:2], str(tmp_path / "g1"), *args[2:], *players])
    assert result.exit_code == 0, result.output
    assert "warning: the card of carol holds the moderator's own signing and encryption key" in result.stderr
    assert "alice" not in result.stderr
    assert run("keygen", "mod", "--out", str(keys)).exit_code == 0
    clean = CliRunner().invoke(
        main, [*args[:2], str(tmp_path / "g2"), "--moderator-key", str(keys / "mod.key"), *players]
    )
    assert clean.exit_code == 0 and "warning" not in clean.stderr
