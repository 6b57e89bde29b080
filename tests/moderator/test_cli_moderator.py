"""The moderator's commands through the real ``pbem`` command line (CliRunner)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity

from .modkit import awaited, drop, new_game, order_block, read

TIMING = '[timing]\ndeadline = "48h"\nreminders = ["24h"]\ngrace = "6h"\non_missing = "default"\n'


@pytest.fixture
def world(root: Path, keys: dict[str, Identity], tmp_path: Path) -> dict[str, Path]:
    game = new_game(root, keys, "g1", toml=TIMING)
    keydir = tmp_path / "keys"
    keydir.mkdir()
    keys["moderator"].save(keydir / "moderator.key")
    keys["alice"].save(keydir / "alice.key")
    newcomer = Identity.generate("dora")
    (keydir / "dora.pub").write_text(newcomer.public().to_text(), encoding="utf-8")
    return {"root": root, "game": game, "key": keydir / "moderator.key", "keys": keydir}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_moderate_runs_a_pass(world: dict[str, Path], keys: dict[str, Identity]) -> None:
    result = run("moderate", str(world["root"]), "--key", str(world["key"]), "--settle", "0", "-v")
    assert result.exit_code == 0, result.output
    assert "pass: 1 game," in result.output and "g1: turn 1 started" in result.output
    game = world["game"]
    [name] = awaited(game)
    drop(game, name, "o.txt", order_block(game, keys, name))
    result = run("moderate", str(world["root"]), "--key", str(world["key"]), "--settle", "0")
    assert f"g1: inbox/{name}/o.txt: accepted ({name})" in result.output
    assert "g1: turn 1 resolved" in result.output and "g1: turn 2 started" in result.output
    assert read(game).turn == 2


def test_moderate_needs_a_key_and_a_root(world: dict[str, Path]) -> None:
    assert run("moderate", str(world["root"])).exit_code == 2
    assert run("moderate", str(world["root"] / "nope"), "--key", str(world["key"])).exit_code == 2


def test_status_shows_the_deadline(world: dict[str, Path]) -> None:
    run("moderate", str(world["root"]), "--key", str(world["key"]))
    result = run("status", str(world["game"]))
    assert result.exit_code == 0
    assert "deadline:" in result.output and "reminder 1:" in result.output


def test_extend_pause_resume(world: dict[str, Path]) -> None:
    game, key = str(world["game"]), str(world["key"])
    result = run("extend", game, "1d", "--key", key)
    assert result.exit_code == 0 and "extended by 1d" in result.output
    bad = run("extend", game, "soon", "--key", key)
    assert bad.exit_code == 2 and "cannot read duration" in bad.output
    assert "paused" in run("pause", game, "--key", key).output
    assert "PAUSED" in run("status", game).output
    assert "resumed" in run("resume", game, "--key", key).output


def test_replace_resign_rollback_preview(world: dict[str, Path], keys: dict[str, Identity]) -> None:
    game, key = world["game"], str(world["key"])
    run("moderate", str(world["root"]), "--key", key, "--settle", "0")
    [name] = awaited(game)
    drop(game, name, "o.txt", order_block(game, keys, name))
    run("moderate", str(world["root"]), "--key", key, "--settle", "0")
    preview = run("preview", str(game), "--key", key)
    assert preview.exit_code == 0 and "nothing is written" in preview.output
    unknown = run("replace", str(game), "zed", str(world["keys"] / "dora.pub"), "--key", key)
    assert unknown.exit_code == 2 and "no player called" in unknown.output
    other = next(n for n in ("alice", "bob", "carol") if n != awaited(game)[0])
    result = run("replace", str(game), other, str(world["keys"] / "dora.pub"), "--key", key)
    assert result.exit_code == 0 and "dora" in result.output
    assert run("resign", str(game), "dora", "--key", key).exit_code == 0
    assert read(game).body["players"][read(game).seat_of("dora")]["status"] == "resigned"
    assert run("rollback", str(game), "99", "--key", key).exit_code == 2
    result = run("rollback", str(game), "1", "--key", key)
    assert result.exit_code == 0 and "turn 1" in result.output
    assert read(game).turn == 1


def test_open_shows_encrypted_details(world: dict[str, Path], keys: dict[str, Identity]) -> None:
    game, key = world["game"], str(world["key"])
    run("moderate", str(world["root"]), "--key", key, "--settle", "0")
    [name] = awaited(game)
    keys[name].save(world["keys"] / f"{name}-own.key")
    drop(game, name, "o.txt", order_block(game, keys, name, lines=["pair 10H 10S"]))
    run("moderate", str(world["root"]), "--key", key, "--settle", "0")
    [notice] = (game / "players" / name).glob("notice-*")
    result = run("open", str(notice), "--key", str(world["keys"] / f"{name}-own.key"))
    assert result.exit_code == 0 and "pair 10H 10S" in result.output


def test_judge_without_mail_settings_is_a_usage_error(world: dict[str, Path]) -> None:
    result = run("judge", str(world["root"]), "--key", str(world["key"]))
    assert result.exit_code == 2 and "[mail]" in result.output


def test_judge_refuses_a_password_in_the_config(world: dict[str, Path]) -> None:
    (world["root"] / "moderator.toml").write_text(
        '[mail]\naddress = "j@x.org"\n[mail.imap]\nhost = "h"\npassword = "secret"\n[mail.smtp]\nhost = "h"\n'
    )
    result = run("judge", str(world["root"]), "--key", str(world["key"]))
    assert result.exit_code == 2 and "must not be written in the config" in result.output


def test_password_file_inside_the_shared_folder_is_refused(world: dict[str, Path]) -> None:
    (world["root"] / "pw").write_text("x")
    (world["root"] / "moderator.toml").write_text(
        '[mail]\naddress = "j@x.org"\n[mail.imap]\nhost = "h"\npassword_file = "'
        + str(world["root"] / "pw")
        + '"\n[mail.smtp]\nhost = "h"\n'
    )
    result = run("judge", str(world["root"]), "--key", str(world["key"]))
    assert result.exit_code == 2 and "inside the shared folder" in result.output


def test_watch_runs_until_sigterm(world: dict[str, Path], keys: dict[str, Identity], tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    game = world["game"]
    command = [sys.executable, "-m", "pbem", "moderate", str(world["root"]), "--key", str(world["key"])]
    command += ["--watch", "--poll", "1", "--settle", "0", "--state-dir", str(tmp_path / "watch-state")]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while not (game / "players" / "alice" / "report-turn-0001.txt").exists():
            assert time.monotonic() < deadline, "the first pass did not run"
            time.sleep(0.1)
        [name] = awaited(game)
        drop(game, name, "o.txt", order_block(game, keys, name))
        while read(game).turn == 1:
            assert time.monotonic() < deadline, "the watching moderator did not pick up the file"
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "stopped" in out
