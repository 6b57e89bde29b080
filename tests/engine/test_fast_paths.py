"""The fast paths of a turn's writing (issue 13) give exactly what the general code gives.

``written_digest`` (the word digest of a report's text, as pbem writes it) must equal
``prose_digest`` over the text's lines, and ``_armour_normal`` (an age armour trimmed) must
equal ``_normal_block``, for any text, not only the reports pbem writes; the lean
``atomic_write`` and history staging must keep their crash points.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.folder import TEMP_PREFIX, set_crash_hook
from pbem.integrity import history_path, store_history
from pbem.keys import Identity, encrypt
from pbem.orders import AGE_BEGIN, AGE_END
from pbem.reports import _armour_normal, _normal_block, prose_digest, written_digest

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "150"))

_PIECES = st.sampled_from(
    [
        AGE_BEGIN,
        AGE_END,
        "PBEM REPORT symbiote",
        "PBEM PUBLIC REPORT",
        "  PBEM REPORT x",
        "xPBEM REPORT",
        "YWdlLWVuY3J5cHRpb24ub3JnL3Yx",
        "a word",
        "  indented  words ",
        "",
        " ",
        "\t",
        "\x0b",
        "\x1c",
        "\r",
        "é",
        "\u2028",
        "\u00a0",
        "Ｆｕｌｌ",
        "e\u0301",
    ]
)
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=30).flatmap(
    lambda parts: st.lists(
        st.sampled_from(["\n", " ", "", "\n\n", "\r\n"]), min_size=len(parts), max_size=len(parts)
    ).map(lambda seps: "".join(p + s for p, s in zip(parts, seps, strict=True)))
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_TEXT)
def test_written_digest_is_the_prose_digest(text: str) -> None:
    assert written_digest(text) == prose_digest(text.splitlines())


@settings(max_examples=EXAMPLES, deadline=None)
@given(_TEXT)
def test_armour_normal_is_the_normal_block(text: str) -> None:
    assert _armour_normal(text) == _normal_block(text)


def test_fast_paths_on_real_reports_text() -> None:
    me = Identity.generate("alice")
    block = encrypt(b"a hand of cards\n" * 40, [me.public()], pad_to=2048)
    assert _armour_normal(block) == _normal_block(block) == block.strip()
    prose = f"Game notes\nPBEM REPORT turn 3\n\nYour hand:\n  {block.rstrip()}\n\nAwaiting: bob\n"
    assert written_digest(prose) == prose_digest(prose.splitlines())
    # the encrypted block is left out of the text's digest, and the lines before the title
    assert written_digest(prose) == written_digest("PBEM REPORT turn 3 Your hand: Awaiting: bob")
    assert written_digest(prose) != written_digest(prose.replace("bob", "carol"))


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
