"""Press through ``pbem moderate``: delivered into the recipients' folders, refused with a
notice (the file kept in the quarantine, nothing delivered), and delivered after a crash
between relaying and delivering, without a false "replayed"."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.press.rules import ALL, PressRules
from pbem.timing import FixedClock

from .conftest import PressTable, new_table

T0 = 1_800_000_000


def _moderated(tmp_path: Path, keys: dict[str, Identity], rules: PressRules) -> tuple[PressTable, Moderator]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "moderator.toml").write_text("[moderator]\nsettle = 0\n")
    table = new_table(root, keys, rules, "g")
    moderator = Moderator(
        root, keys["moderator"], clock=FixedClock(T0), state_dir=tmp_path / "state", settle=0
    )
    moderator.run_pass(force=True)
    return table, moderator


def _drop(table: PressTable, name: str, text: str, filename: str = "p.txt") -> Path:
    path = table.folder.path / "inbox" / name / filename
    path.write_text(text)
    return path


def _files(table: PressTable, name: str, prefix: str) -> list[Path]:
    return sorted(p for p in (table.folder.path / "players" / name).iterdir() if p.name.startswith(prefix))


def test_press_is_delivered_to_each_recipient_and_the_sender_told(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    table, moderator = _moderated(tmp_path, keys, PressRules(mode="full"))
    _drop(table, "alice", table.say("alice", (ALL,), "Hello all").text)
    result = moderator.run_pass(force=True)
    assert result.games[0].notices == ("relayed",)
    for name in ("bob", "carol", "dave"):
        [copy] = _files(table, name, "press-")
        letter = table.read(copy.read_text(), name)
        assert letter is not None and letter.text == ("Hello all",)
    assert _files(table, "alice", "press-") == []
    [notice] = _files(table, "alice", "notice-")
    from pbem.moderator.notices import open_text

    assert "RELAYED" in notice.read_text()
    assert "message 1 to all" in open_text(notice.read_text(), keys["alice"]), "in the encrypted details"
    assert not list((table.folder.path / "inbox" / "alice").iterdir()), "the inbox file was taken"


def test_refused_press_is_answered_kept_and_not_delivered(tmp_path: Path, keys: dict[str, Identity]) -> None:
    table, moderator = _moderated(tmp_path, keys, PressRules(mode="public"))
    loose = PressRules(mode="full").to_json()
    said = table.say("alice", ("bob",), "psst", patch=lambda d: d["press"].update(rules=loose))
    _drop(table, "alice", said.text)
    result = moderator.run_pass(force=True)
    assert result.games[0].notices == ("press",)
    [notice] = _files(table, "alice", "notice-")
    text = " ".join(notice.read_text().split())
    assert "REJECTED: your press was not passed on" in text
    assert "only messages to all players are allowed in this game" in text
    assert "What to do: send it to all" in text
    assert _files(table, "bob", "press-") == []
    quarantined = [
        p for p in (tmp_path / "state").rglob("*") if p.is_file() and p.read_bytes() == said.text.encode()
    ]
    assert quarantined, "the refused file is kept (nothing lost)"


def test_a_crash_between_relay_and_delivery_still_delivers(
    tmp_path: Path, keys: dict[str, Identity], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, moderator = _moderated(tmp_path, keys, PressRules(mode="full"))
    _drop(table, "alice", table.say("alice", ("bob",), "made it").text)

    def crash(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("pbem.press.moderated.deliver", crash)
    assert moderator.run_pass(force=True).games[0].error is not None
    assert (table.folder.path / "press" / "000001.txt").exists(), "relayed before the crash"
    assert _files(table, "bob", "press-") == []
    monkeypatch.undo()
    result = moderator.run_pass(force=True)
    assert result.games[0].notices == ("relayed",)
    [copy] = _files(table, "bob", "press-")
    letter = table.read(copy.read_text(), "bob")
    assert letter is not None and letter.text == ("made it",)
