"""Issue 13, the seen record's shortcuts: the same bytes and the same answers as the plain way.

* A record of the usual fields (a lowercase hex SHA-256 digest, a revision JSON carries
  exactly) is formatted directly instead of through the canonical encoder: byte for byte
  what ``canonical.dumps`` gives, for any fields (fuzzed).
* A record's bytes met before in this process (the record it wrote last turn) are decoded
  from memory: keyed by the whole content, so any other bytes (one changed, cut short,
  longer) go the plain way; the memory is bounded.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical, seen
from pbem.seen import Seen, SeenRecord, decode_seen, encode_seen

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "150"))


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    seen._KNOWN.clear()
    yield
    seen._KNOWN.clear()


def _plain_encode(record: Seen) -> bytes:
    """What encode_seen wrote before the shortcut: everything through canonical.dumps."""
    fields = {"digest": record.digest, "revision": record.revision}
    check = hashlib.sha256(canonical.dumps(fields)).hexdigest()
    return canonical.dumps({**fields, "sum": check}).rstrip(b"\n") + b"\n"


_HEX = st.text("0123456789abcdef", min_size=64, max_size=64)
_DIGEST = _HEX | st.text(max_size=70) | st.sampled_from(["A" * 64, "0" * 63, "0" * 65, 'é"\\' + "0" * 61])
_REVISION = st.integers(0, 2**53 - 1) | st.sampled_from([0, 1, 999_999, 2**53 - 1])


@settings(max_examples=EXAMPLES, deadline=None)
@given(_REVISION, _DIGEST)
def test_a_record_is_the_bytes_of_the_plain_way(revision: int, digest: str) -> None:
    record = Seen(revision, digest)
    try:
        expected = _plain_encode(record)
    except Exception as exc:  # a lone surrogate: the shortcut must fail alike
        with pytest.raises(type(exc)):
            encode_seen(record)
        return
    assert encode_seen(record) == expected
    assert seen._fields(revision, digest) == canonical.dumps({"digest": digest, "revision": revision})
    seen._KNOWN.clear()  # the plain decode, then the remembered one: one answer
    assert decode_seen(expected) == seen._decode(expected) == record
    assert decode_seen(expected) == record


def test_fields_outside_the_usual_go_the_plain_way() -> None:
    for revision, digest in [(2**53, "0" * 64), (-1, "0" * 64), (5, "A" * 64), (5, "0" * 63)]:
        assert not seen._usual(revision, digest)
    assert not seen._usual(True, "0" * 64)  # a bool is not a revision
    raw = encode_seen(Seen(-1, "0" * 64))  # written as before; it reads as no record, as before
    assert raw == _plain_encode(Seen(-1, "0" * 64))
    assert decode_seen(raw) is None
    assert raw not in seen._KNOWN


def _edits(raw: bytes) -> st.SearchStrategy[bytes]:
    """Bytes near ``raw``: cut short, one byte changed, bytes added."""
    return (
        st.integers(0, len(raw) - 1).map(lambda n: raw[:n])
        | st.tuples(st.integers(0, len(raw) - 1), st.integers(0, 255)).map(
            lambda p: raw[: p[0]] + bytes([p[1]]) + raw[p[0] + 1 :]
        )
        | st.binary(min_size=1, max_size=8).map(lambda extra: raw + extra)
    )


_RAW = encode_seen(Seen(7, hashlib.sha256(b"a save").hexdigest()))


@settings(max_examples=EXAMPLES, deadline=None)
@given(_edits(_RAW))
def test_the_memory_cannot_be_fooled_by_other_bytes(raw: bytes) -> None:
    encode_seen(Seen(7, hashlib.sha256(b"a save").hexdigest()))  # remembered: its exact bytes
    answer = decode_seen(raw)
    seen._KNOWN.clear()
    assert answer == seen._decode(raw)  # white space added reads as the record, as it always did


def test_the_record_written_last_is_read_without_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class FakeSave:
        game_id = "ABCDEF0123456789"
        revision = 12
        digest = hashlib.sha256(b"save 12").hexdigest()

    record = SeenRecord(tmp_path)
    record.record(FakeSave())  # type: ignore[arg-type]

    def parsed(*args: object, **kwargs: object) -> object:
        raise AssertionError("the record written last was parsed again")

    monkeypatch.setattr(canonical, "loads", parsed)
    assert record.read(FakeSave.game_id) == Seen(12, FakeSave.digest)
    # Edited by hand (here: one digit of the revision): other bytes, parsed, and refused.
    path = tmp_path / "seen" / f"{FakeSave.game_id}.json"
    path.write_bytes(path.read_bytes().replace(b'"revision":12', b'"revision":13'))
    monkeypatch.undo()
    assert record.read(FakeSave.game_id) is None


def test_the_memory_is_bounded() -> None:
    for revision in range(seen._KNOWN_MAX + 50):
        raw = encode_seen(Seen(revision, hashlib.sha256(b"%d" % revision).hexdigest()))
        assert decode_seen(raw) == Seen(revision, hashlib.sha256(b"%d" % revision).hexdigest())
        assert len(seen._KNOWN) <= seen._KNOWN_MAX


def _game() -> object:
    class FakeSave:
        game_id = "0123456789ABCDEF"
        revision = 3
        digest = hashlib.sha256(b"save 3").hexdigest()

    return FakeSave()


def test_a_record_is_read_with_one_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = SeenRecord(tmp_path)
    save = _game()
    record.record(save)  # type: ignore[arg-type]
    reads: list[int] = []
    real_read = os.read

    def spy(fd: int, size: int) -> bytes:
        reads.append(size)
        return real_read(fd, size)

    monkeypatch.setattr(seen.os, "read", spy)
    assert record.read("0123456789ABCDEF") == Seen(3, hashlib.sha256(b"save 3").hexdigest())
    assert reads == [seen.RECORD_MAX + 1]


@pytest.mark.parametrize("kind", ["too long", "fifo", "folder", "cut short"])
def test_what_is_not_a_record_reads_as_none(tmp_path: Path, kind: str) -> None:
    record = SeenRecord(tmp_path)
    save = _game()
    record.record(save)  # type: ignore[arg-type]
    path = tmp_path / "seen" / "0123456789ABCDEF.json"
    whole = path.read_bytes()
    path.unlink()
    if kind == "too long":  # a valid record padded with white space beyond RECORD_MAX
        path.write_bytes(whole.rstrip(b"\n") + b" " * seen.RECORD_MAX + b"\n")
        assert seen._decode(path.read_bytes()) is not None  # the plain decode would take it
    elif kind == "fifo":
        os.mkfifo(path)  # no writer: reading must not block
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_bytes(whole[:-3])
    assert record.read("0123456789ABCDEF") is None
    record.check(save)  # type: ignore[arg-type]  # no record: nothing refused, as when it is lost


# ---- the record written after a read of it (seventh session) ------------------------------------
def _fstats(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fstat

    def spy(fd: int) -> os.stat_result:
        calls.append(fd)
        return real(fd)

    monkeypatch.setattr(seen.os, "fstat", spy)
    return calls


class _Later:
    game_id = "0123456789ABCDEF"
    revision = 4
    digest = hashlib.sha256(b"save 4").hexdigest()


def test_a_record_read_this_turn_is_rewritten_without_an_fstat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = SeenRecord(tmp_path)
    record.record(_game())  # type: ignore[arg-type]
    record.check(_game())  # type: ignore[arg-type]  # the turn's load
    calls = _fstats(monkeypatch)
    record.record(_Later())  # type: ignore[arg-type]  # its commit
    assert calls == []
    assert record.read("0123456789ABCDEF") == Seen(4, _Later.digest)


@pytest.mark.parametrize("before", ["no read", "another game read", "a longer file read", "two records"])
def test_a_longer_old_record_is_still_cut_to_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: str
) -> None:
    record = SeenRecord(tmp_path)
    path = tmp_path / "seen" / "0123456789ABCDEF.json"
    record.record(_Later())  # type: ignore[arg-type]
    path.write_bytes(path.read_bytes().rstrip(b"\n") + b" " * 300 + b"\n")  # a hand edit, longer
    if before == "another game read":
        record.read("FEDCBA9876543210")
    elif before == "a longer file read":
        assert record.read("0123456789ABCDEF") == Seen(4, _Later.digest)
    elif before == "two records":  # read, then a record (which uses the read), then another
        record.read("0123456789ABCDEF")
        record.record(_Later())  # type: ignore[arg-type]
        path.write_bytes(path.read_bytes().rstrip(b"\n") + b" " * 300 + b"\n")
    calls = _fstats(monkeypatch)
    record.record(_game())  # type: ignore[arg-type]
    assert calls  # the file's length asked
    assert path.read_bytes() == encode_seen(Seen(3, hashlib.sha256(b"save 3").hexdigest()))
