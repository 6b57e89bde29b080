"""What sync tools leave in a player's inbox folder (twelfth session's sync review): their
temporary names, conflict copies of an order file changed in two places, a file that is
first empty, system files.  A real ``pbem moderate`` process handles each; no accepted
order is lost or counted twice, and the file that loses tells its sender why and what to
do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.keys import Identity

from .modkit import drop, order_block, read
from .synckit import Table, notices, started


@pytest.fixture
def game(tmp_path: Path, keys: dict[str, Identity]) -> tuple[Table, Path, str]:
    return started(tmp_path / "sync", keys)


def _filed(game_dir: Path, turn: int) -> list[str]:
    return sorted(p.name for p in (game_dir / "orders" / f"turn-{turn:04d}").glob("*.txt"))


@pytest.mark.parametrize(
    "copy",
    [
        "orders.sync-conflict-20261124-101112-ABCDEFG.txt",  # Syncthing
        "orders (alice's conflicted copy 2026-11-24).txt",  # Dropbox
        "orders (conflicted copy 2026-11-24 101112).txt",  # Nextcloud
        "orders-DESKTOP-AB12.txt",  # OneDrive
    ],
)
def test_a_conflict_copy_with_other_orders_under_the_same_seq_is_refused_naming_the_accepted_file(
    game: tuple[Table, Path, str], copy: str
) -> None:
    """The file saved in two places before the sync tool was done: the same Seq, other
    orders.  The older is filed (oldest first); the other is refused, and its notice names
    the file accepted and says what to do, not only 'Seq 1 was already used'."""
    out, game_dir, name = game
    mine = order_block(game_dir, out.keys, name, seed=1, lines=["draw"], sealed=False)
    theirs = order_block(game_dir, out.keys, name, seed=2, lines=["draw", "# changed my mind"], sealed=False)
    drop(game_dir, name, copy, mine, age=120)
    drop(game_dir, name, "orders.txt", theirs, age=60)

    done = out.moderate()

    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert f"inbox/{name}/{copy}: accepted ({name})" in done.stdout, done.stdout
    assert f"inbox/{name}/orders.txt: replayed ({name})" in done.stdout, done.stdout
    assert _filed(game_dir, 1) == [f"{name}.seq1.txt"], "filed once"
    assert read(game_dir).turn == 2
    [refused] = [t for t in notices(game_dir, name) if "File:     inbox/alice/orders.txt" in t]
    flat = " ".join(refused.split())
    assert f"your file {copy}" in flat and "were accepted for turn 1 and stand" in flat, refused
    assert "conflicted copy" in flat and "sign them again with Seq: 2" in flat, refused
    assert "once your report of turn 2 is out, it was" in flat, refused


def test_a_conflict_copy_with_the_same_orders_is_answered_already_accepted(
    game: tuple[Table, Path, str],
) -> None:
    out, game_dir, name = game
    block = order_block(game_dir, out.keys, name, sealed=False)
    drop(game_dir, name, "orders.txt", block, age=120)
    drop(game_dir, name, "orders.sync-conflict-20261124-101112-ABCDEFG.txt", block, age=60)

    done = out.moderate()

    assert done.returncode == 0, done.stderr
    assert _filed(game_dir, 1) == [f"{name}.seq1.txt"]
    texts = notices(game_dir, name)
    assert sum("ACCEPTED" in t for t in texts) == 1
    assert sum("already accepted; nothing changed" in t for t in texts) == 1


def test_sync_tool_temporaries_are_left_alone_and_the_real_file_counts(game: tuple[Table, Path, str]) -> None:
    """A sync tool's files while it writes (each left where it is, unanswered), then the
    finished file under its own name."""
    out, game_dir, name = game
    block = order_block(game_dir, out.keys, name, sealed=False)
    half = block[: len(block) // 2]
    temporaries = [
        ".syncthing.orders.txt.tmp",  # Syncthing
        "~syncthing~orders.txt.tmp",  # Syncthing on Windows
        ".~lock.orders.txt#",  # LibreOffice
        "orders.txt.partial",  # rsync --partial, browsers
        ".orders.txt.Xa8bZq",  # rsync's temporary
        "~orders.tmp",  # Office, OneDrive
        ".orders.txt.~1a2b",  # Nextcloud
        "orders.txt.!sync",  # Resilio Sync
    ]
    for temp in temporaries:
        drop(game_dir, name, temp, half, age=60)
    (game_dir / "inbox" / name / ".dropbox.cache").mkdir()
    drop(game_dir, name, ".dropbox.cache/orders.txt", half, age=60)

    idle = out.moderate()
    assert idle.returncode == 0 and "nothing to do" in idle.stdout, idle.stdout + idle.stderr
    assert notices(game_dir, name) == []

    drop(game_dir, name, "orders.txt", block, age=60)
    done = out.moderate()
    assert f"inbox/{name}/orders.txt: accepted ({name})" in done.stdout, done.stdout + done.stderr
    left = sorted(p.name for p in (game_dir / "inbox" / name).iterdir())
    assert left == sorted([*temporaries, ".dropbox.cache"])
    record = json.loads((game_dir / "moderator" / "record.json").read_text(encoding="utf-8"))
    assert [e["kind"] for e in record["log"]].count("rejected") == 0


def test_files_a_system_makes_in_every_folder_are_left_alone(game: tuple[Table, Path, str]) -> None:
    """Windows, OneDrive, macOS and a Synology NAS write these into the folders they show,
    and write them again when they are moved: each was refused with a notice ('no signed
    order block found') and moved aside, again every time it came back."""
    out, game_dir, name = game
    inbox = game_dir / "inbox" / name
    drop(game_dir, name, "desktop.ini", "[.ShellClassInfo]\r\nIconResource=C:\\x.ico\r\n")
    drop(game_dir, name, "Thumbs.db", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
    drop(game_dir, name, "Icon\r", b"")
    (inbox / "@eaDir").mkdir()
    drop(game_dir, name, "@eaDir/orders.txt@SynoEAStream", b"\0\0\0\x01")

    idle = out.moderate()

    assert idle.returncode == 0 and "nothing to do" in idle.stdout, idle.stdout + idle.stderr
    assert notices(game_dir, name) == []
    assert sorted(p.name for p in inbox.iterdir()) == sorted(["desktop.ini", "Thumbs.db", "Icon\r", "@eaDir"])
