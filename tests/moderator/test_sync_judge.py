"""The mail judge and the folder moderator on one game (twelfth session's sync review).

``pbem moderate`` run on a root ``pbem judge`` runs (by hand, or by a cron line left from
before) is a real process here; the judge runs in this process on a mailbox in memory
(tests/mail/fakebox.py), its mail queued in its outbox.  Before: the folder moderator's
pass resolved a turn and handed its reports out into the folders, the judge's record then
said the turn was handed out, and the players who play by mail never got the new report
(the game waited for them for ever); and the folder moderator answered a mailed block by a
file in the folder, which its sender never sees."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mail.fakebox import FakeBox, good_mail, make_judge, make_keys, make_root

from .modkit import awaited, drop, order_block, read


def _moderate(root: Path, base: Path) -> subprocess.CompletedProcess[str]:
    """One ``pbem moderate`` pass as a real process, with its own local state."""
    env = dict(os.environ, PBEM_STATE_DIR=str(base / "folder-state"), PBEM_HOME=str(base / "folder-home"))
    key = base / "moderator.key"
    return subprocess.run(
        [sys.executable, "-m", "pbem", "moderate", str(root), "--key", str(key)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _queued(state: Path) -> list[dict[str, object]]:
    """The judge's queued mails (to, subject)."""
    return [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(state.rglob("outbox/*.json"))
        if p.parent.name == "outbox"
    ]


def test_a_turn_the_folder_moderator_resolved_is_still_mailed_by_the_judge(tmp_path: Path) -> None:
    keys = make_keys()
    keys["moderator"].save(tmp_path / "moderator.key")
    root = make_root(tmp_path, keys)
    (root / "moderator.toml").write_text("[moderator]\nsettle = 0\n", encoding="utf-8")
    judge = make_judge(root, keys, tmp_path / "judge-state", FakeBox())
    judge.moderator.run_pass()  # turn 1's reports mailed
    game = root / "game"
    [name] = awaited(game)
    drop(game, name, "orders.txt", order_block(game, keys, name))  # a player of the folder

    folder = _moderate(root, tmp_path)
    assert folder.returncode == 0, folder.stderr
    assert "turn 1 resolved" in folder.stdout
    judge.moderator.run_pass()

    subjects = sorted((str(m["to"]), str(m["subject"])) for m in _queued(tmp_path / "judge-state"))
    for player in ("alice", "bob", "carol"):
        assert any(
            to == f"{player}@example.org" and "turn 2 report" in subject for to, subject in subjects
        ), f"{player} plays by mail and was never sent turn 2's report: {subjects}"
    turn1 = [s for _, s in subjects if "turn 1 report" in s]
    assert len(turn1) == 3, "turn 1's reports are mailed once"


def test_a_mailed_block_is_left_to_the_judge_by_the_folder_moderator(tmp_path: Path) -> None:
    keys = make_keys()
    keys["moderator"].save(tmp_path / "moderator.key")
    root = make_root(tmp_path, keys)
    (root / "moderator.toml").write_text("[moderator]\nsettle = 0\n", encoding="utf-8")
    box = FakeBox()
    judge = make_judge(root, keys, tmp_path / "judge-state", box)
    judge.moderator.run_pass()
    game = root / "game"
    [name] = awaited(game)
    box.add(good_mail(root, "game", keys[name]))
    judge.intake()  # the block is in inbox/_mail/; the folder moderator's pass comes first
    mailed = sorted((game / "inbox" / "_mail").iterdir())
    assert len(mailed) == 1

    folder = _moderate(root, tmp_path)
    assert folder.returncode == 0, folder.stderr
    assert sorted((game / "inbox" / "_mail").iterdir()) == mailed, (
        "the mailed block was taken by pbem moderate"
    )
    assert read(game).turn == 1
    judge.moderator.run_pass()

    assert read(game).turn == 2, "the judge filed the mailed orders and resolved the turn"
    answers = [m for m in _queued(tmp_path / "judge-state") if m["to"] == f"{name}@example.org"]
    assert any("ACCEPTED" in str(m["body"]) for m in answers), [m["subject"] for m in answers]
