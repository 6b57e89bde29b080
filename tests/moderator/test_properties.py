"""Property test: random sequences of players' files, bad files, passing time, pauses and
moderator passes keep the moderator's invariants."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.keys import Identity
from pbem.moderator.actions import GameAdmin
from pbem.moderator.core import Moderator
from pbem.moderator.record import load_record
from pbem.timing import FixedClock

from .modkit import T0, awaited, drop, new_game, order_block, read

POLICY = '[timing]\ndeadline = "10h"\ngrace = "2h"\non_missing = "default"\nabandon_after = 2\n'

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("orders"), st.integers(0, 3)),
        st.tuples(st.just("bad"), st.sampled_from(["garbage", "forged", "idle", "old"])),
        st.tuples(st.just("time"), st.integers(1, 14)),
        st.tuples(st.just("pause"), st.just(0)),
        st.tuples(st.just("resume"), st.just(0)),
    ),
    min_size=1,
    max_size=10,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_random_play_keeps_the_invariants(keys: dict[str, Identity], actions: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = base / "root"
        game = new_game(root, keys, "g", toml=POLICY, home=base / "create-home")
        clock = FixedClock(T0 + 60)
        moderator = Moderator(root, keys["moderator"], clock=clock, state_dir=base / "state", settle=0)
        admin = GameAdmin.open(game, keys["moderator"], clock, state_dir=base / "state")
        moderator.run_pass()
        dropped = 0
        for i, (action, arg) in enumerate(actions):
            save = read(game)
            if save.body["outcome"] is not None:
                break
            missing = awaited(game)
            if action == "orders" and missing:
                name = missing[0]
                drop(game, name, f"o{i}.txt", order_block(game, keys, name, bot="random", seed=arg))
                dropped += 1
            elif action == "bad" and missing:
                name = missing[0]
                idle = [n for n in save.names if n not in missing]
                if arg == "garbage":
                    drop(game, name, f"b{i}.txt", "orders: draw\n")
                elif arg == "forged":
                    drop(game, name, f"b{i}.txt", order_block(game, keys, name, signer="mallory"))
                elif arg == "idle" and idle:
                    drop(game, idle[0], f"b{i}.txt", order_block(game, keys, idle[0], turn=save.turn))
                else:
                    drop(game, name, f"b{i}.txt", order_block(game, keys, name, turn=max(1, save.turn - 1)))
                dropped += 1
            elif action == "time":
                clock.advance(arg * 3600)
            elif action == "pause":
                admin.pause()
            elif action == "resume":
                admin.resume()
            before = (game / "save.json").read_bytes()
            result = moderator.run_pass().games[0]
            assert result.error is None, result.error
            after = read(game)
            record = load_record(game)
            # The journal follows the save, and nothing is left half done.
            assert record.clock is not None and record.clock.turn == after.turn
            assert record.advancing is None and record.inflight is None
            # Every complete inbox file was answered and taken out.
            assert not [p for p in (game / "inbox").rglob("*") if p.is_file()]
            notices = list((game / "players").rglob("notice-*"))
            assert len(notices) == dropped
            # Every state is kept; accepted files are archived once each.
            assert len(list((game / "history").iterdir())) == after.revision + 1
            accepted = [p for p in notices if "Result:   ACCEPTED" in p.read_text()]
            assert len(accepted) == len(list((game / "orders").rglob("*.txt")))
            # Refused files alone never change the save.
            refused_only = all(k not in ("accepted", "replaced") for k in result.notices)
            if action == "bad" and result.notices and refused_only and result.advanced == 0:
                assert (game / "save.json").read_bytes() == before
            # A paused game never resolves a turn.
            if record.clock.paused_since is not None and action in ("orders", "bad", "time"):
                assert result.advanced == 0
            # Missed turns are counted only for turns that passed.
            for seat in record.seats.values():
                assert seat.missed_total <= after.turn
        assert json.loads((game / "moderator" / "record.json").read_text())["version"] == 1
