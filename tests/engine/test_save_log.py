"""The replay log of a secret this process sealed, kept as its JSON text (pbem.save.Log): the
sealed plaintext is what encoding the whole secret gives, reads give fresh copies, and the
seed in force is the plain walk's."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import save as save_module
from pbem.replay import current_seed
from pbem.save import Log, Secret

from .conftest import Table
from .test_submit_advance import WHEN, order_file

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 60
MARK = save_module._LOG_MARK

text = st.one_of(
    st.text(max_size=8),
    st.sampled_from([MARK, "reseed", '"reseed":', "\\", '"', "é", "\U0001f600"]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
entries = st.one_of(
    st.fixed_dictionaries(
        {"turn": st.integers(1, 99), "orders": st.dictionaries(text, json_values, max_size=3)}
    ),
    st.fixed_dictionaries({"turn": st.integers(1, 99), "reseed": st.sampled_from(["ab" * 16, "cd" * 16])}),
    json_values,
)


def _plain(secret: Secret) -> bytes:
    """The plain way: the whole secret encoded at once."""
    return canonical.compact(secret.to_json("0123456789ABCDEF", 7))


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    state=st.dictionaries(text, json_values, max_size=4),
    log=st.lists(entries, max_size=5),
    added=st.lists(entries, max_size=3),
    as_text=st.booleans(),
)
def test_the_sealed_plaintext_is_the_whole_secret_encoded(
    state: dict[str, Any], log: list[Any], added: list[Any], as_text: bool
) -> None:
    """A list log, or a Log (its text, entries added since), with the mark and quotes and
    "reseed" inside strings and keys: the plaintext is the plain encoding, and the mark's
    text and the log's JSON give it back."""
    kept: Any = Log(canonical.compact_text(log)) if as_text else log
    for entry in added:
        kept = save_module.appended(kept, entry)
    secret = Secret(state, b"\x01" * 32, {}, [], kept)
    plain, marked, log_json = save_module._secret_json(secret, "0123456789ABCDEF", 7)
    whole = [*log, *added]
    assert plain == _plain(Secret(state, b"\x01" * 32, {}, [], whole))
    assert json.loads(plain)["log"] == json.loads(json.dumps(whole, sort_keys=True))
    if marked is not None:  # the mark occurred once: the pieces make the whole
        assert marked.replace(save_module._LOG_MARK_JSON, log_json).encode() == plain
        assert log_json == canonical.compact_text(whole)
    else:
        assert save_module._LOG_MARK_JSON in plain.decode() or MARK in json.dumps(state)


@settings(max_examples=EXAMPLES, deadline=None)
@given(log=st.lists(entries, max_size=6), added=st.lists(entries, max_size=2))
def test_the_seed_in_force_is_the_plain_walks(log: list[Any], added: list[Any]) -> None:
    kept: Any = Log(canonical.compact_text(log))
    for entry in added:
        kept = save_module.appended(kept, entry)
    whole = json.loads(canonical.compact_text([*log, *added]))
    seed = b"\x02" * 32
    assert save_module.seed_in_force(Secret({}, seed, {}, [], kept)) == current_seed(seed, whole)
    if any(type(e) is dict and "reseed" in e for e in whole):
        assert kept.may_reseed()  # never missed: only a false alarm costs a decode


def test_a_log_reads_as_fresh_copies_and_equals_its_list() -> None:
    log = Log('[{"orders":{"0":[["a",1]]},"turn":1}]').plus({"turn": 2, "orders": {}})
    first = log[0]
    first["orders"]["0"].append("changed")
    assert log[0] == {"orders": {"0": [["a", 1]]}, "turn": 1}, "what a caller changes is not sealed"
    assert log == [{"orders": {"0": [["a", 1]]}, "turn": 1}, {"turn": 2, "orders": {}}]
    assert len(log) == 2 and next(reversed(log))["turn"] == 2 and log[-1:] == [{"turn": 2, "orders": {}}]
    assert log.json() == '[{"orders":{"0":[["a",1]]},"turn":1},{"orders":{},"turn":2}]'
    assert Log("[]").plus(1).json() == "[1]" and Log("[]").json() == "[]"
    with pytest.raises(TypeError):
        hash(log)


def test_a_played_game_seals_and_opens_as_the_plain_way(table: Table) -> None:
    """Turns of a game: each sealed plaintext is what age decrypts and what encoding the
    secret opened the plain way gives; from the second turn the log comes back as a Log
    with the same entries as the decrypted one, and a fresh process opens a list."""
    folder, moderator = table.folder, table.moderator
    recipient = moderator.public().age_recipient
    logs: list[type] = []
    for _ in range(4):
        save = folder.read()
        for name in [save.names[s] for s in save.awaiting]:
            folder.submit(
                order_file(folder, table.keys, name), moderator, source="o.txt", now=WHEN, advance=True
            )
        loaded = folder.load(moderator)
        sealed = loaded.save.body["secret"]
        plain = save_module._opened[(recipient, sealed)][0]
        raw = moderator.decrypt(sealed)
        assert raw.rstrip(b" \n") == plain == canonical.compact(json.loads(raw))
        assert loaded.secret.log == json.loads(raw)["log"]
        logs.append(type(loaded.secret.log))
    assert logs == [Log] * 4
    save_module.forget_cached()
    cold = folder.load(moderator)
    assert type(cold.secret.log) is list and cold.secret == loaded.secret


def test_a_secret_opened_cold_is_kept_without_its_padding(table: Table) -> None:
    """A secret decrypted (not sealed here) is remembered without the padding age returned
    (white space json would skip again at every later open), and reads the same."""
    folder, moderator = table.folder, table.moderator
    save_module.forget_cached()
    first = folder.load(moderator)
    sealed = first.save.body["secret"]
    kept = save_module._opened[(moderator.public().age_recipient, sealed)]
    raw = moderator.decrypt(sealed)
    assert len(raw) > len(kept[0]) and raw.rstrip() == kept[0] and kept[1:] == (None, "")
    assert folder.load(moderator).secret == first.secret
