"""What the speed work of issue 13 must not change: each step is done once per process, and
nothing it skips lets a changed, foreign or tampered file through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import keys as keys_module
from pbem import save as save_module
from pbem.errors import ForeignError, FormatError, TamperedError
from pbem.keys import Identity, PublicCard
from pbem.moderator.record import Record, encode_record, load_record
from pbem.save import open_secret, read_save

from .conftest import new_table

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))


def test_an_identity_builds_and_signs_its_card_once(monkeypatch: pytest.MonkeyPatch) -> None:
    me = Identity.generate("alice")
    first = me.public()
    signed: list[str] = []
    real = Identity.sign

    def counting(self: Identity, d: str, data: bytes) -> bytes:
        signed.append(d)
        return real(self, d, data)

    monkeypatch.setattr(Identity, "sign", counting)
    assert me.public() is first and signed == []
    first.check_self_signature()


def test_a_save_this_process_wrote_is_not_verified_again(tmp_path, keys, monkeypatch) -> None:
    table = new_table(tmp_path, keys, "once")
    verified: list[bytes] = []
    real = PublicCard.verify

    def counting(self: PublicCard, domain: str, data: bytes, signature: bytes) -> None:
        verified.append(data)
        real(self, domain, data, signature)

    monkeypatch.setattr(PublicCard, "verify", counting)
    decrypted: list[int] = []
    real_decrypt = Identity.decrypt

    def counting_decrypt(self: Identity, a: bytes | str) -> bytes:
        decrypted.append(1)
        return real_decrypt(self, a)

    monkeypatch.setattr(Identity, "decrypt", counting_decrypt)
    loaded = table.folder.load(table.moderator)
    assert verified == [] and decrypted == [], "the save and secret this process wrote are known"
    assert loaded.save.turn == 1 and loaded.secret.state
    # Another process (an empty memory) verifies and decrypts in full, and finds the same.
    save_module.forget_cached()
    fresh = table.folder.load(table.moderator)
    assert len(verified) >= 1 and decrypted == [1]
    assert fresh.save.body == loaded.save.body and fresh.secret == loaded.secret


def test_a_known_save_changed_on_disk_is_still_refused(tmp_path, keys) -> None:
    table = new_table(tmp_path, keys, "tamper")
    table.folder.read()  # remembered
    data = table.save_bytes
    start = data.index(b'"written": "') + len(b'"written": "')
    changed = data[:start] + (b"1" if data[start : start + 1] != b"1" else b"2") + data[start + 1 :]
    with pytest.raises(TamperedError, match="changed after the moderator signed it"):
        read_save(changed, "save.json")
    # The remembered bytes still need the right moderator, and the right key to open.
    save = read_save(data, "save.json")
    with pytest.raises(ForeignError, match="not by mallory"):
        read_save(data, "save.json", keys["mallory"].public())
    with pytest.raises(ForeignError):
        open_secret(save, keys["mallory"])


def test_a_save_signed_by_another_key_than_it_names_is_refused_in_the_writing_process(tmp_path, keys) -> None:
    table = new_table(tmp_path, keys, "impostor")
    body = dict(table.folder.read().body)
    data, _ = save_module.encode_save(body, keys["mallory"])  # names the moderator, signed by mallory
    with pytest.raises(TamperedError):
        read_save(data, "save.json")


def test_a_save_read_twice_gives_two_bodies(tmp_path, keys) -> None:
    """A caller that changes the body it got never changes what another caller reads."""
    table = new_table(tmp_path, keys, "fresh")
    one, two = table.folder.read(), table.folder.read()
    one.body["players"][0]["status"] = "resigned"
    assert two.body["players"][0]["status"] == "active"
    assert table.folder.read().body["players"][0]["status"] == "active"


def test_the_save_file_is_one_field_a_line_and_reads_as_json(tmp_path, keys) -> None:
    table = new_table(tmp_path, keys, "layout")
    text = table.save_bytes.decode()
    doc = json.loads(text)
    assert set(doc) == {"body", "format", "signature"}
    lines = text.splitlines()
    assert lines[0] == "{" and lines[1] == ' "body": {' and lines[-1] == "}"
    assert sum(1 for line in lines if line.startswith('  "')) == len(doc["body"])
    # A save written as before (indented) is read the same.
    old = (json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode()
    save_module.forget_cached()
    assert read_save(old, "old.json").body == doc["body"]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(json_values)
def test_the_quick_check_agrees_with_the_explaining_one(value: Any) -> None:
    """canonical.check walks without paths; when it refuses, the message still names where."""
    try:
        canonical._explain(value)  # the walk that names paths, as before issue 13
        good = True
    except FormatError as exc:
        good, message = False, exc.message
    if good:
        canonical.check(value)
        assert canonical.dumps(value)
    else:
        with pytest.raises(FormatError) as caught:
            canonical.check(value, "state")
        assert caught.value.message == f"state: {message}" and "$" in message


def test_parsed_keys_are_remembered_and_bounded() -> None:
    card = Identity.generate("bob").public()
    card.check_self_signature()
    assert keys_module._verifiers[card.verify_key] is keys_module._verifier(card.verify_key)
    assert len(keys_module._verifiers) <= keys_module._CACHE_LIMIT


def test_the_record_file_reads_back_and_old_records_still_read(tmp_path) -> None:
    record = Record(handled=("k1",)).logged("turn 1 started", at=5, kind="turn-started", turn=1)
    record = record.logged("ünïcode \u2028 line", at=6)
    text = encode_record(record)
    assert Record.from_json(json.loads(text)) == record
    assert '  {"at": 5,' in text, "one journal entry a line"
    (tmp_path / "moderator").mkdir()
    (tmp_path / "moderator" / "record.json").write_text(json.dumps(record.to_json(), indent=1))
    assert load_record(tmp_path) == record


def test_status_and_read_load_neither_package_metadata_nor_mail() -> None:
    """pbem status and pbem read start fast: the shipped games are found without
    importlib.metadata, and smtplib, ssl and email load only when mail is sent."""
    code = (
        "import sys, pbem.cli, pbem.engine, pbem.moderator.actions, pbem.player\n"
        "from pbem.registry import get_game\n"
        "get_game('symbiote')\n"
        "print(sorted(m for m in ('importlib.metadata', 'smtplib', 'ssl', 'jinja2') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
