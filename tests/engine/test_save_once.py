"""The save of a turn made with less work (issue 13, sixth session), each shortcut compared
with the plain way: every field of the body encoded once for both the signed bytes and the
file's lines, the body's digest made once with its canonical bytes, the sealed secret found by
its text (no SHA-256 of it at every seal and open), the structure check without copies, and
the save read without an lstat first."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import save as save_module
from pbem.engine import GameFolder
from pbem.errors import FormatError, UsageError
from pbem.keys import Identity
from pbem.save_shape import check_body

from .conftest import Table

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))
FIELDS = sorted({*save_module._BODY_FIELDS, *save_module._OPTIONAL_FIELDS})

_TEXT = st.text(max_size=8) | st.sampled_from(
    ["a, b", "k: v", "\x01", "\x02,", "é:,", "\ud800", "\U0001f600"]
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)
"""JSON with what the shortcut must get right: separators and control characters inside
strings and keys, non-ASCII, a lone surrogate, a key beyond U+FFFF."""


def _plain(body: dict[str, Any], secret: str) -> tuple[bytes, list[str]]:
    """The canonical bytes and the file's lines the plain way: json.dumps of each field."""
    lines = [
        json.dumps(key) + ": " + json.dumps(body[key], sort_keys=True, ensure_ascii=False)
        for key in sorted(body)
    ]
    return canonical.dumps(body), lines


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), _JSON, max_size=8), _TEXT | st.just(save_module._SECRET_MARK))
def test_each_field_encoded_once_gives_the_canonical_body_and_the_file_lines(
    rest: dict[str, Any], secret: str
) -> None:
    body = dict(rest, secret=secret)
    try:
        raw, lines = _plain(body, secret)
    except FormatError:
        try:
            refused = save_module._fields_once(body, save_module._string_line(secret))
        except FormatError:
            return
        assert refused is None and canonical.walk(body)[0]  # left to the plain way, which refuses it
        return
    once = save_module._fields_once(body, save_module._string_line(secret))
    if once is None:  # the plain way: only for a key needing UTF-16 order
        assert canonical.walk(body)[0]  # some key beyond U+FFFF
        return
    assert once[0] == raw
    assert once[2] == lines
    assert once[3] == canonical.depth(body)
    marked = json.loads(once[1])  # the mark in the secret's place, every other field as it is
    assert marked == dict(json.loads(raw), secret=save_module._SECRET_MARK)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_JSON | st.just([[[[1.5]]]]) | st.just({"a": {"b": [2**60]}}) | st.just([{1: 2}]) | st.just([(1,)]))
def test_one_walk_checks_and_measures_as_the_two_walks_do(value: Any) -> None:
    try:
        expected = (canonical._check(value), canonical.depth(value))
    except FormatError as exc:
        with pytest.raises(FormatError) as got:
            canonical.walk(value)
        assert got.value.message == exc.message
        return
    assert canonical.walk(value) == expected


def test_one_walk_measures_deep_values_without_recursion() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(5_000):
        inner.append([])
        inner = inner[0]
    assert canonical.walk(deep) == (False, 5_001)


@pytest.mark.parametrize(
    "value", [{"\U00010000": "\ud800"}, {"\U00010000": 1, "\ud800": 2}, [{"\U0001f600": ["\udfff"]}]]
)
def test_a_lone_surrogate_beside_a_key_beyond_u_ffff_is_a_format_error(value: Any) -> None:
    """The reference encoder's own errors (for data needing UTF-16 key order) were let
    through as a CanonicalizationError or a UnicodeEncodeError: a traceback."""
    with pytest.raises(FormatError, match="lone surrogate"):
        canonical.dumps(value)


def test_a_body_the_shortcut_does_not_know_goes_the_plain_way() -> None:
    assert save_module._fields_once({"secret": "x", "other": 1}, '"x"') is None  # a field no save has
    assert save_module._fields_once({"secret": 5}, "5") is None  # a secret that is no string
    with pytest.raises(FormatError, match="float"):
        save_module._fields_once({"secret": "x", "public": {"a": 1.5}}, '"x"')


def test_a_written_save_is_the_file_the_plain_way_writes(table: Table) -> None:
    """The engine's save, byte for byte what json.dumps of each field would have written."""
    data = table.save_bytes
    doc = json.loads(data)
    body = doc["body"]
    _, lines = _plain(body, body["secret"])
    fields = ",\n".join(f"  {line}" for line in lines)
    tail = f' "format": "pbem-save/v1",\n "signature": {json.dumps(doc["signature"])}\n'
    assert data == f'{{\n "body": {{\n{fields}\n }},\n{tail}}}\n'.encode()


# ---- the body's digest, made once --------------------------------------------------------------------
def test_the_digest_of_a_save_is_that_of_its_canonical_body_however_it_was_made(table: Table) -> None:
    folder, moderator = table.folder, table.moderator
    data = table.save_bytes
    expected = hashlib.sha256(canonical.dumps(json.loads(data)["body"])).hexdigest()
    assert folder.read().digest == expected  # remembered: this process wrote it
    save_module.forget_cached()
    cold = folder.read()
    assert cold.digest == expected and cold.body_digest == expected  # verified in full
    assert folder.read().digest == expected  # remembered by the verification
    body = dict(cold.body, written="2026-01-01T00:00:00+00:00")
    _, written = save_module.encode_save(body, moderator, "x")
    assert written.digest == hashlib.sha256(canonical.dumps(body)).hexdigest()
    assert written.source == "x"


def test_a_save_read_back_is_not_hashed_again(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """No SHA-256 a read: the file's bytes are found by comparing them with those written
    (pbem.save.file_sha256), the body's digest and the sealed secret come from what this
    process made (the old code hashed the body again for the digest, the secret for its
    plaintext, and the file to find it)."""
    folder, moderator = table.folder, table.moderator
    folder.load(moderator)
    hashed: list[int] = []
    real = hashlib.sha256

    def counting(data: bytes = b"") -> Any:
        hashed.append(len(data))
        return real(data)

    monkeypatch.setattr(save_module.hashlib, "sha256", counting)
    save = save_module.read_save(table.save_bytes, "save.json", moderator.public())
    assert save.digest and save_module.open_secret(save, moderator).state
    assert hashed == []


# ---- the sealed secret, found by its text ------------------------------------------------------------
def test_a_secret_is_only_taken_from_memory_for_the_very_text_and_recipient(table: Table) -> None:
    folder, moderator = table.folder, table.moderator
    save = folder.read()
    sealed = save.body["secret"]
    assert (moderator.public().age_recipient, sealed) in save_module._opened
    other = Identity.generate("moderator")  # same name, another key
    with pytest.raises(Exception):  # noqa: B017 - another identity decrypts for real, and fails
        save_module.open_secret(save, other)
    changed = sealed.replace("\n", "\r\n", 1)  # the same armour to age, another text: decrypted anew
    save_module._opened.pop((moderator.public().age_recipient, changed), None)
    reopened = save_module.open_secret(type(save)(dict(save.body, secret=changed), "x"), moderator)
    assert reopened == save_module.open_secret(save, moderator)
    assert (moderator.public().age_recipient, changed) in save_module._opened
    assert len(save_module._opened) <= save_module._CACHE_SIZE


# ---- the structure check ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("player", "message"),
    [
        ({"card": None, "status": "active", "extra": 1}, "unknown fields"),
        ({"card": None}, "lacks"),
        ([], "must be an object"),
    ],
)
def test_a_player_entry_of_another_shape_is_still_refused(table: Table, player: Any, message: str) -> None:
    body = dict(table.folder.read().body)
    good = body["players"][0]
    if type(player) is dict and "card" in player:
        player = dict(player, card=good["card"])
    body["players"] = [player, *body["players"][1:]]
    with pytest.raises(FormatError, match=message):
        check_body(body, "save.json")


# ---- the save read without an lstat first --------------------------------------------------------------
def test_a_folder_without_a_save_is_named_as_before(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="holds no pbem game"):
        GameFolder(tmp_path).read()
    (tmp_path / "save.json").mkdir()  # there, but no file: the reader's own message
    with pytest.raises(UsageError, match="it is a folder"):
        GameFolder(tmp_path).read()
    (tmp_path / "save.json").rmdir()
    (tmp_path / "save.json").symlink_to(tmp_path / "nowhere")  # a dangling link is there too
    with pytest.raises(UsageError) as got:
        GameFolder(tmp_path).read()
    assert "holds no pbem game" not in got.value.message
