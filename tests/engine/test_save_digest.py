"""The SHA-256 of a save file this process wrote or read, found without hashing it again
(pbem.save.file_sha256): always the digest of the very bytes asked about."""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import integrity
from pbem import save as save_module
from pbem.engine import GameFolder
from pbem.errors import TamperedError
from pbem.keys import Identity

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 60
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameFolder, Identity, bytes]:
    tmp = tmp_path_factory.mktemp("digest")
    moderator = Identity.generate("moderator")
    cards = [Identity.generate(name).public() for name in ("amy", "bo", "cy")]
    folder = GameFolder.create(tmp / "g", "symbiote", moderator, cards, {}, now=WHEN, home=tmp / "h")
    return folder, moderator, folder.save_path.read_bytes()


def test_a_written_save_is_not_hashed_again_on_read_and_commit(
    game: tuple[GameFolder, Identity, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, moderator, _ = game
    body = folder.read().body
    written, saved = save_module.encode_save(dict(body), moderator)
    expected = _sha(written)
    hashed: list[int] = []
    real = hashlib.sha256

    def counting(b: bytes = b"") -> hashlib._Hash:
        hashed.append(len(b))
        return real(b)

    monkeypatch.setattr(save_module.hashlib, "sha256", counting)
    assert save_module.file_sha256(written) == saved.file_digest == expected
    assert integrity.file_digest(written) == saved.file_digest  # the commit's compare-and-swap
    assert save_module.read_save(written, "save.json").file_digest == saved.file_digest
    assert hashed == [], "the very bytes written are not hashed again"


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data())
def test_any_other_bytes_get_their_own_digest(
    game: tuple[GameFolder, Identity, bytes], data: st.DataObject
) -> None:
    """Bytes changed anywhere (the tail kept, so the kept file is the candidate), cut short,
    grown or the same: each gets the SHA-256 of its own bytes."""
    _, _, original = game
    save_module.read_save(original, "save.json")  # kept
    at = data.draw(st.integers(0, len(original) - 1))
    how = data.draw(st.sampled_from(["flip", "cut", "grow", "same", "head"]))
    if how == "flip":
        other = original[:at] + bytes([original[at] ^ data.draw(st.integers(1, 255))]) + original[at + 1 :]
    elif how == "cut":
        other = original[at:]
    elif how == "grow":
        other = data.draw(st.binary(max_size=40)) + original
    elif how == "head":
        other = original[:at]
    else:
        other = bytes(original)
    assert save_module.file_sha256(other) == _sha(other)
    assert integrity.file_digest(other) == _sha(other)


def test_a_changed_file_with_the_kept_tail_is_still_refused(game: tuple[GameFolder, Identity, bytes]) -> None:
    _, _, original = game
    save_module.read_save(original, "save.json")
    at = original.index(b'"written": "') + len(b'"written": "')
    changed = original[:at] + (b"1" if original[at : at + 1] != b"1" else b"2") + original[at + 1 :]
    assert changed[-save_module._FILE_TAIL :] == original[-save_module._FILE_TAIL :]
    with pytest.raises(TamperedError, match="changed after the moderator signed it"):
        save_module.read_save(changed, "save.json")


def test_the_kept_files_are_bounded(game: tuple[GameFolder, Identity, bytes]) -> None:
    folder, moderator, _ = game
    body = folder.read().body
    for n in range(save_module._FILES_KEPT + 5):
        save_module.encode_save(dict(body, written=f"2026-01-01T00:00:{n:02d}+00:00"), moderator)
    assert len(save_module._files) == save_module._FILES_KEPT
    save_module.forget_cached()
    assert save_module._files == {}


def test_the_turn_commits_a_save_this_process_wrote(tmp_path: Path) -> None:
    """A game played on: each commit's compare-and-swap recognises the save it replaces."""
    moderator = Identity.generate("moderator")
    folder = GameFolder.create(
        tmp_path / "g",
        "symbiote",
        moderator,
        [Identity.generate(n).public() for n in ("amy", "bo", "cy")],
        {},
        now=WHEN,
        home=tmp_path / "h",
    )
    first = folder.read()
    folder.set_status(moderator, "amy", "resigned", now=WHEN)
    again = folder.read()
    assert again.revision == first.revision + 1
    assert again.file_digest == _sha(folder.save_path.read_bytes())
