"""The signed save file: every kind of damage or forgery is refused, with a message that
says which; an old or forked save is caught; writes are atomic."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import GameFolder
from pbem.errors import (
    DuplicateError,
    ForeignError,
    FormatError,
    PbemError,
    RejectedError,
    RollbackError,
    TamperedError,
)
from pbem.folder import TEMP_PREFIX, atomic_write, set_crash_hook, sweep_temp
from pbem.keys import Identity
from pbem.save import FORMAT, encode, open_secret, read_save

from .conftest import Table, new_table


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Identity]) -> Table:
    """A game with three revisions: created, one order file accepted, one turn advanced
    (read only)."""
    table = new_table(tmp_path_factory.mktemp("save"), keys, "save")
    table.play_step()
    assert table.folder.read().revision == 2
    return table


def _history(table: Table, revision: int) -> bytes:
    return (table.folder.path / "history" / f"rev-{revision:06d}.json").read_bytes()


def _doc(data: bytes) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(data)
    return doc


def _dump(doc: Any) -> bytes:
    return json.dumps(doc, indent=1).encode()


def _edit(data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    doc = _doc(data)
    change(doc)
    return _dump(doc)


def _set_body(name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["body"][name] = value

    return change


def _drop_body(name: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        del doc["body"][name]

    return change


def _raw_replace(old: bytes, new: bytes) -> Callable[[bytes], bytes]:
    def change(data: bytes) -> bytes:
        assert old in data
        return data.replace(old, new, 1)

    return change


def _one_byte_in_written(data: bytes) -> bytes:
    start = data.index(b'"written": "') + len(b'"written": "')
    digit = data[start : start + 1]
    return data[:start] + (b"1" if digit != b"1" else b"2") + data[start + 1 :]


def _one_byte_in_public(data: bytes) -> bytes:
    start = data.index(b'"deck": ') + len(b'"deck": ')
    digit = data[start : start + 1]
    return data[:start] + (b"1" if digit != b"1" else b"2") + data[start + 1 :]


def _body_bytes(change: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    return lambda data: _edit(data, change)


def _dup_key(data: bytes) -> bytes:
    return data.replace(b'"turn": ', b'"turn": 99,\n  "turn": ', 1)


def _top(change: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    return lambda data: _edit(data, change)


# name -> (damage, error class, words the message must contain)
MATRIX: dict[str, tuple[Callable[[bytes], bytes], type[PbemError], str]] = {
    "byte-in-written": (_one_byte_in_written, TamperedError, "changed after the moderator signed it"),
    "byte-in-public": (_one_byte_in_public, TamperedError, "changed after the moderator signed it"),
    "truncated": (lambda d: d[: len(d) // 2], FormatError, "is not valid JSON"),
    "empty": (lambda d: b"", FormatError, "is not valid JSON"),
    "not-json": (lambda d: b"PK\x03\x04 this is a zip file", FormatError, "is not valid JSON"),
    "not-utf8": (lambda d: b"\xff\xfe" + d, FormatError, "is not valid JSON"),
    "duplicate-key": (_dup_key, FormatError, "duplicate key 'turn'"),
    "nan": (_raw_replace(b'"revision": ', b'"revision": NaN, "x": '), FormatError, "NaN is not allowed"),
    "infinity": (_raw_replace(b'"turn": ', b'"turn": -Infinity, "x": '), FormatError, "Infinity"),
    "float": (_raw_replace(b'"turn": 2', b'"turn": 2.0'), FormatError, "2.0 is not an integer"),
    "not-an-object": (lambda d: b"[" + d + b"]", FormatError, "not a pbem save (no format field)"),
    "unknown-version": (
        _top(lambda doc: doc.update(format="pbem-save/v2")),
        FormatError,
        "has format 'pbem-save/v2'; this pbem reads 'pbem-save/v1'",
    ),
    "no-format": (_top(lambda doc: doc.pop("format")), FormatError, "no format field"),
    "extra-top-field": (_top(lambda doc: doc.update(note="hi")), FormatError, "unexpected fields ['note']"),
    "missing-signature": (_top(lambda doc: doc.pop("signature")), FormatError, "unexpected fields"),
    "body-not-object": (_top(lambda doc: doc.update(body=[])), FormatError, "body is not an object"),
    "extra-body-field": (
        _body_bytes(_set_body("cheat", 1)),
        FormatError,
        "body has unknown fields ['cheat']",
    ),
    "missing-prev": (_body_bytes(_drop_body("prev")), FormatError, "body lacks 'prev'"),
    "missing-secret": (_body_bytes(_drop_body("secret")), FormatError, "body lacks 'secret'"),
    "turn-as-text": (
        _body_bytes(_set_body("turn", "2")),
        FormatError,
        "body field 'turn' has the wrong type",
    ),
    "turn-as-bool": (
        _body_bytes(_set_body("turn", True)),
        FormatError,
        "body field 'turn' has the wrong type",
    ),
    "players-as-dict": (
        _body_bytes(_set_body("players", {})),
        FormatError,
        "body field 'players' has the wrong type",
    ),
    "moderator-malformed": (
        _body_bytes(_set_body("moderator", {"name": "x"})),
        FormatError,
        "malformed public key record",
    ),
    "signature-not-base64": (
        _top(lambda doc: doc.update(signature="not base64!")),
        FormatError,
        "signature is not base64",
    ),
}


@pytest.mark.parametrize("case", MATRIX.values(), ids=list(MATRIX))
def test_damaged_save_is_refused(
    case: tuple[Callable[[bytes], bytes], type[PbemError], str], played: Table
) -> None:
    damage, error, words = case
    good = played.save_bytes
    bad = damage(good)
    assert bad != good
    with pytest.raises(error) as info:
        read_save(bad, "save.json", played.moderator.public())
    assert type(info.value) is error
    assert words in info.value.message
    assert info.value.message.startswith("save file save.json")
    assert info.value.exit_code == 1


def test_signature_of_another_revision(played: Table) -> None:
    older = _doc(_history(played, 1))["signature"]
    bad = _edit(played.save_bytes, lambda doc: doc.update(signature=older))
    with pytest.raises(TamperedError, match="signature does not verify"):
        read_save(bad, "save.json", played.moderator.public())


def test_tampered_save_in_folder_is_refused_whole(played: Table, tmp_path: Path) -> None:
    folder = played.copy_to(tmp_path / "copy")
    seen = played.home / "seen" / f"{played.folder.read().game_id}.json"
    seen_before = seen.read_bytes()
    folder.save_path.write_bytes(_one_byte_in_public(played.save_bytes))
    with pytest.raises(TamperedError) as info:
        folder.load(played.moderator)
    assert str(folder.save_path) in info.value.message
    assert info.value.hint and "history/" in info.value.hint
    with pytest.raises(TamperedError):
        folder.read()
    assert seen.read_bytes() == seen_before


def test_every_single_byte_change_is_refused(played: Table) -> None:
    """No one-byte change anywhere in the file yields a save: it is refused as corrupt or tampered."""
    good = played.save_bytes
    secret_at = good.index(b"-----BEGIN AGE")
    positions = [*range(secret_at), *range(secret_at, len(good), 7)]
    card = played.moderator.public()
    for pos in positions:
        bad = bytearray(good)
        bad[pos] ^= 0x01
        try:
            read_save(bytes(bad), "save.json", card)
        except (FormatError, TamperedError, ForeignError):
            continue
        raise AssertionError(f"a change at byte {pos} ({good[pos : pos + 1]!r}) was accepted")


def test_signed_by_another_moderator(played: Table, keys: dict[str, Identity]) -> None:
    other = keys["moderator2"]
    # a save made and signed by another moderator, for the same game
    body = _doc(played.save_bytes)["body"]
    body["moderator"] = other.public().to_json()
    forged = encode(body, other)
    read_save(forged, "save.json")  # it is a correct save of *that* moderator
    with pytest.raises(ForeignError) as info:
        read_save(forged, "save.json", played.moderator.public())
    assert "signed by moderator moderator2" in info.value.message
    assert played.moderator.public().key_id in info.value.message
    # the other moderator's card named, but signed with this one's key: tampered
    mixed = _edit(played.save_bytes, _set_body("moderator", other.public().to_json()))
    with pytest.raises(ForeignError):
        read_save(mixed, "save.json", played.moderator.public())
    with pytest.raises(TamperedError):
        read_save(mixed, "save.json")


def test_loading_with_another_moderator_key(played: Table, keys: dict[str, Identity]) -> None:
    with pytest.raises(ForeignError, match=r"use the moderator key|signed by moderator") as info:
        played.folder.load(keys["moderator2"])
    assert "moderator2" in info.value.message
    with pytest.raises(ForeignError, match="belongs to moderator"):
        open_secret(played.folder.read(), keys["moderator2"])


def test_secret_from_another_revision(played: Table, tmp_path: Path) -> None:
    current = _doc(played.save_bytes)["body"]
    older = _doc(_history(played, 1))["body"]
    assert older["secret"] != current["secret"]
    current["secret"] = older["secret"]
    # Not re-signed: the signature covers the secret part.
    unsigned = _edit(played.save_bytes, _set_body("secret", older["secret"]))
    with pytest.raises(TamperedError):
        read_save(unsigned, "save.json", played.moderator.public())
    # Re-signed (a moderator-side bug or a stolen key): the secret names its own revision.
    resigned = encode(current, played.moderator)
    save = read_save(resigned, "save.json", played.moderator.public())
    with pytest.raises(FormatError, match=r"the secret part of save\.json does not belong to this save"):
        open_secret(save, played.moderator)
    folder = played.copy_to(tmp_path / "copy", tmp_path / "home")
    folder.save_path.write_bytes(resigned)
    (folder.path / "history" / f"rev-{save.revision:06d}.json").write_bytes(resigned)
    with pytest.raises(FormatError, match="does not belong to this save"):
        folder.load(played.moderator)


def test_secret_from_another_game(played: Table, tmp_path: Path, keys: dict[str, Identity]) -> None:
    other = new_table(tmp_path, keys, "other")
    body = _doc(played.save_bytes)["body"]
    body["secret"] = _doc(other.save_bytes)["body"]["secret"]
    save = read_save(encode(body, played.moderator), "save.json", played.moderator.public())
    with pytest.raises(FormatError, match="does not belong to this save"):
        open_secret(save, played.moderator)


def test_old_save_put_back_is_a_rollback(table: Table) -> None:
    table.play_step()
    newest = table.folder.read()
    orders = table.signed(table.awaited())
    table.folder.save_path.write_bytes(_history(table, 0))
    with pytest.raises(RollbackError) as info:
        table.folder.load(table.moderator)
    message = info.value.message
    assert f"revision 0 (turn 1) but revision {newest.revision}" in message
    assert "an old save was put back" in message
    assert info.value.hint and "history/" in info.value.hint
    with pytest.raises(RollbackError):
        table.submit(orders)
    with pytest.raises(RollbackError):
        table.folder.advance(table.moderator, now=table.tick())
    # Putting the newest back makes the game whole again.
    table.folder.save_path.write_bytes(_history(table, newest.revision))
    assert table.folder.load(table.moderator).save.revision == newest.revision


def test_forked_save_at_the_same_revision(table: Table, tmp_path: Path) -> None:
    # A copy of the folder, moderated from another machine (its own rollback record).
    fork = GameFolder(tmp_path / "fork", tmp_path / "fork-home")
    shutil.copytree(table.folder.path, fork.path)
    name = table.awaited()
    table.submit(table.signed(name, table.full_turn(name)))
    fork.submit(table.signed(name, ["draw"]), table.moderator, source="o.txt", now=table.tick())
    ours, theirs = table.folder.read(), fork.read()
    assert ours.revision == theirs.revision and ours.digest != theirs.digest
    table.folder.save_path.write_bytes(fork.save_path.read_bytes())
    with pytest.raises(RollbackError, match=f"differs from the revision {ours.revision} seen before"):
        table.folder.load(table.moderator)


def test_save_chain_links_each_revision(played: Table) -> None:
    card = played.moderator.public()
    saves = [read_save(_history(played, r), f"rev {r}", card) for r in range(3)]
    assert saves[0].body["prev"] is None
    for before, after in itertools.pairwise(saves):
        assert after.body["prev"] == before.digest
        assert after.revision == before.revision + 1
    assert played.folder.read().digest == saves[-1].digest
    # secrets stay sealed: the hidden hands are nowhere in the clear
    state = played.folder.load(played.moderator).secret.state
    assert state["deck"][0] not in json.dumps(saves[-1].body["public"])
    assert _doc(played.save_bytes)["format"] == FORMAT


# ---- atomic writes ------------------------------------------------------------------------------
class Crash(Exception):
    """Stands for the process being killed at a step of a write."""


@pytest.fixture
def crash_at() -> Iterator[Callable[[Callable[[str], bool]], None]]:
    def install(when: Callable[[str], bool]) -> None:
        def hook(step: str) -> None:
            if when(step):
                raise Crash(step)

        set_crash_hook(hook)

    yield install
    set_crash_hook(None)


@pytest.mark.parametrize("step", ["written", "synced", "renamed"])
def test_atomic_write_leaves_old_or_new(
    tmp_path: Path, step: str, crash_at: Callable[[Callable[[str], bool]], None]
) -> None:
    target = tmp_path / "save.json"
    old, new = b'{"old": 1}\n' * 500, b'{"new": 2}\n' * 700
    atomic_write(target, old)
    crash_at(lambda s: s == step)
    with pytest.raises(Crash):
        atomic_write(target, new)
    assert target.read_bytes() == (new if step == "renamed" else old)
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_sweep_temp_removes_strays(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / f"{TEMP_PREFIX}save.json.123").write_bytes(b"{")
    (tmp_path / "keep.json").write_bytes(b"{}")
    assert sweep_temp(tmp_path) == 1
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["keep.json"]


def test_atomic_write_mode(tmp_path: Path) -> None:
    atomic_write(tmp_path / "seen.json", b"{}", mode=0o600)
    assert os.stat(tmp_path / "seen.json").st_mode & 0o777 == 0o600


def test_crash_at_every_step_of_a_submission(
    table: Table,
    tmp_path_factory: pytest.TempPathFactory,
    crash_at: Callable[[Callable[[str], bool]], None],
) -> None:
    """Kill the moderator at each step of accepting an order file: the game always loads
    afterwards, and sending the same file again either is accepted or says it already was."""
    pristine = tmp_path_factory.mktemp("pristine")
    shutil.copytree(table.folder.path, pristine / "game")
    shutil.copytree(table.home, pristine / "home")
    name = table.awaited()
    text = table.sealed(table.signed(name, table.full_turn(name)))
    steps: list[str] = []

    def count(step: str) -> bool:
        steps.append(step)
        return False

    crash_at(count)
    table.submit(text)
    set_crash_hook(None)
    assert len(steps) >= 9, steps
    outcomes = set()
    for k in range(len(steps)):
        root = tmp_path_factory.mktemp(f"crash-{k}")
        shutil.copytree(pristine, root, dirs_exist_ok=True)
        folder = GameFolder(root / "game", root / "home")
        before = folder.save_path.read_bytes()
        calls = [0]

        def nth(_: str, k: int = k, calls: list[int] = calls) -> bool:
            calls[0] += 1
            return calls[0] == k + 1

        crash_at(nth)
        with pytest.raises(Crash):
            folder.submit(text, table.moderator, source="o.txt", now=table.tick())
        set_crash_hook(None)
        after = folder.save_path.read_bytes()
        assert after == before or read_save(after, "save.json").revision == 1
        assert not list(folder.path.rglob(f"{TEMP_PREFIX}*"))
        seat = folder.load(table.moderator).save.awaiting[0]
        try:
            folder.submit(text, table.moderator, source="o.txt", now=table.tick())
            outcomes.add("accepted on retry")
        except DuplicateError:
            outcomes.add("already accepted")
        assert str(seat) in folder.load(table.moderator).secret.pending
    assert outcomes == {"accepted on retry", "already accepted"}


def test_rejections_are_rejected_errors() -> None:
    for error in (FormatError, TamperedError, ForeignError, RollbackError):
        assert issubclass(error, RejectedError)
        assert error("x").exit_code == 1


def test_private_events_stay_in_the_secret_part(table: Table) -> None:
    """Events for some seats only (a drawn card) go to the sealed part, never to the public body."""
    private_seen = 0
    for _ in range(12):
        table.play_step("random")
        loaded = table.folder.load(table.moderator)
        body_events = loaded.save.body["events"]
        assert all(event["to"] is None for event in body_events)
        secret_events = loaded.secret.events
        assert [e for e in secret_events if e["to"] is None] == body_events
        for event in secret_events:
            if event["to"] is not None:
                private_seen += 1
                assert event["text"] not in table.save_bytes.decode()
                public = table.folder.reports_dir(loaded.save.turn) / "public.txt"
                assert event["text"] not in public.read_text()
    assert private_seen, "no private event in 12 steps: the test proves nothing"
