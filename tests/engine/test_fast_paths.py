"""The leaner writing of a turn (issue 13) writes the same bytes and keeps its crash points.

The JSON of canonical form and of the save file goes through encoders made once, which must
write exactly what ``json.dumps`` with the same options writes; history files are staged
in place (no rename of their own), with the same three crash points as an atomic write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.folder import TEMP_PREFIX, set_crash_hook
from pbem.integrity import history_path, store_history
from pbem.save import FORMAT, read_save

from .conftest import Table

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "100"))

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_JSON)
def test_canonical_bytes_are_json_dumps_sorted_and_compact(value: Any) -> None:
    plain = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if not any(ord(c) > 0xFFFF for c in plain):  # beyond the BMP, keys go in UTF-16 order
        assert canonical.dumps(value) == plain.encode()
    assert canonical.compact(value) == plain.encode()


def test_the_save_file_layout_is_unchanged(table: Table) -> None:
    table.play_step()
    data = table.save_bytes
    save = read_save(data, "save.json")
    doc = json.loads(data)

    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    fields = ",\n".join(f"  {line(k)}: {line(save.body[k])}" for k in sorted(save.body))
    tail = f' "format": {line(FORMAT)},\n "signature": {line(doc["signature"])}\n'
    assert data == f'{{\n "body": {{\n{fields}\n }},\n{tail}}}\n'.encode()


def test_history_staging_keeps_its_crash_points(tmp_path: Path) -> None:
    steps: list[str] = []
    set_crash_hook(steps.append)
    try:
        store_history(tmp_path, 3, b"{}\n")
    finally:
        set_crash_hook(None)
    assert steps == ["written", "synced", "renamed"]
    assert history_path(tmp_path, 3).read_bytes() == b"{}\n"
    assert not [p for p in (tmp_path / "history").iterdir() if p.name.startswith(TEMP_PREFIX)]
