"""order-rounds=phase through the real pipeline: the shared-folder moderator with real keys,
signed and sealed order files written by bots from each player's decrypted report, a silent
seat played by the stand-in, `pbem check` on a form, the demo and `pbem verify`."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.engine import GameFolder
from pbem.errors import OrdersRejected
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.orders import seal, sign
from pbem.player import bot_orders, check_orders, form_header, order_form
from pbem.replay import verify_replay
from pbem.reports import parse_report
from pbem.rng import Rng, seeded_entropy
from pbem.timing import FixedClock

T0 = 1_800_000_000
NAMES = ("alice", "bob", "carol")
STAND_IN = """
[timing]
deadline = "48h"
grace = "1h"
on_missing = "bot:greedy"
"""


@pytest.fixture(autouse=True)
def _local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("os.fsync", lambda fd: None)  # no power cut in a test process


def _verbs(block: str) -> set[str]:
    return {line.split()[0] for line in block.splitlines() if line and line.split()[0] in PHASE_WORDS}


PHASE_WORDS = ("buy", "grow", "krogul", "crapit")


def test_a_phase_game_runs_unattended_through_the_moderator(tmp_path: Path) -> None:
    keys = {name: Identity.generate(name) for name in ("moderator", *NAMES)}
    root = tmp_path / "root"
    game = root / "g"
    GameFolder.create(
        game,
        "symbioz",
        keys["moderator"],
        [keys[n].public() for n in NAMES],
        {"order-rounds": "phase"},
        now=datetime.fromtimestamp(T0, UTC),
        entropy=seeded_entropy("symbioz-phase"),
        home=tmp_path / "create-home",
    )
    (game / "moderator.toml").write_text(STAND_IN, encoding="utf-8")
    clock = FixedClock(T0 + 60)
    mod = Moderator(root, keys["moderator"], clock=clock, settle=0)
    mod.run_pass()
    files: dict[str, int] = dict.fromkeys(NAMES, 0)
    headings: list[str] = []
    for step in range(80):
        save = GameFolder(game).read()
        if save.body["outcome"] is not None:
            break
        text = (game / "reports" / f"turn-{save.turn:04d}" / "public.txt").read_text(encoding="utf-8")
        headings.append(next(x for x in text.splitlines() if x.startswith("SYMBIOZ - ")))
        for seat in save.awaiting:
            name = save.names[seat]
            if name == "carol":
                continue  # carol never writes: the greedy bot stands in after the deadline
            path = game / "reports" / f"turn-{save.turn:04d}" / f"{name}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), keys[name])
            lines = bot_orders(report, "greedy", Rng(b"pipe/%d/%d" % (step, seat)))
            block = sign(keys[name], form_header(report), lines)
            assert len(_verbs(block)) <= 1, f"one phase's orders a file: {lines}"
            inbox = game / "inbox" / name / f"o{step}.txt"
            inbox.parent.mkdir(parents=True, exist_ok=True)
            inbox.write_text(seal(block, [keys["moderator"].public()]), encoding="utf-8")
            old = inbox.stat().st_mtime - 60
            os.utime(inbox, (old, old))
            files[name] += 1
        mod.run_pass()
        if GameFolder(game).read().turn == save.turn:  # carol was awaited: let the deadline pass
            clock.advance(50 * 3600)
            mod.run_pass()
        clock.advance(60)
    final = GameFolder(game).read()
    assert final.body["outcome"] is not None, "the game ends"
    rounds = final.body["public"]["turn"]
    assert final.turn > rounds + 1, "more order rounds than rounds: one per phase"
    assert headings[0] == "SYMBIOZ - round 1 of 12, phase 2 of 4: multiplication (grow orders)"
    assert any(
        re.fullmatch(r"SYMBIOZ - round \d+ of 12, phase 1 of 4: introduction \(buy orders\)", h)
        for h in headings
    )
    assert not any("turn" in h for h in headings), (
        "the game numbers rounds, the pbem turn counts order rounds"
    )
    assert 0 < files["alice"] < final.turn, "players are asked only in phases where they have a choice"
    stood_in = "\n".join(
        (game / "reports" / f"turn-{t:04d}" / "public.txt").read_text(encoding="utf-8")
        for t in range(2, final.turn + 1)
    )
    assert "played by the stand-in" in stood_in
    assert verify_replay(final) == final.turn - 1, "pbem verify re-plays every order round"
    assert (game / "players" / "alice" / f"report-turn-{final.turn:04d}.txt").is_file()


def test_check_refuses_another_phases_orders_on_the_form_and_the_demo_plays(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = run_demo("symbioz", 2, 11, out, ["greedy", "random"], {"order-rounds": "phase"})
    assert result.outcome is not None and result.turns > 12
    assert len(list((out / "mail").iterdir())) == result.turns, "an order round every pbem turn"
    keys = out / "keys"
    alice = Identity.load(keys / "alice.key")
    home = tmp_path / "home"
    report_path = out / "game" / "reports" / "turn-0002" / "alice.txt"
    report = report_path.read_text(encoding="utf-8")
    form = order_form(report, str(report_path), alice, home=home)
    assert "round 2 of 12, phase 1 of 4: introduction" in form and "# 2. Multiplication" not in form
    assert check_orders(form, "form.txt", report, str(report_path), alice, home=home) == 0
    wrong = form + "grow C1 -> C1\n"
    with pytest.raises(OrdersRejected) as caught:
        check_orders(wrong, "form.txt", report, str(report_path), alice, home=home)
    assert "grow orders are written in the multiplication phase's own round" in str(caught.value)
    assert "form.txt, line" in str(caught.value)
