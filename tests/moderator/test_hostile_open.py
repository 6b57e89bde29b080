"""Hostile input review (tenth session): `pbem open` of a file someone made.

Notices are not signed, and anyone may mail a player a file that looks like one.  Before:
details that were not UTF-8 gave exit 3 ("this is a bug"); terminal escape sequences in the
details reached the reader's terminal; an encrypted block cut off before its END line was
dropped silently, with every line after it, and the command said nothing (exit 0).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import encrypt

from .modkit import make_keys

KEYS = make_keys(("alice",))


def _open(tmp_path: Path, text: str) -> Result:
    KEYS["alice"].save(tmp_path / "alice.key")
    notice = tmp_path / "notice.txt"
    notice.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["open", str(notice), "--key", str(tmp_path / "alice.key")])


def test_details_that_are_not_utf8_are_refused_with_the_line(tmp_path: Path) -> None:
    result = _open(
        tmp_path,
        "pbem moderator notice\n" + encrypt(b"\xff\xfe details", [KEYS["alice"].public()], pad_to=64),
    )
    assert result.exit_code == 1, result.output
    assert "notice.txt, line 2: the encrypted details are not UTF-8 text" in result.output


def test_escape_sequences_in_the_details_are_shown_escaped(tmp_path: Path) -> None:
    hostile = "Result: accepted \x1b]0;PWNED\x07 \x1b]52;c;ZWNobyBwd25lZA==\x07\n\tindented"
    text = "notice \x1b[2J head\n" + encrypt(hostile.encode(), [KEYS["alice"].public()], pad_to=256)
    result = _open(tmp_path, text)
    assert result.exit_code == 0, result.output
    assert [c for c in result.output if unicodedata.category(c) == "Cc" and c not in "\n\t"] == []
    assert "accepted \\x1b]0;PWNED\\x07" in result.output and "notice \\x1b[2J head" in result.output
    assert "\tindented" in result.output


def test_a_block_cut_off_is_refused_not_dropped(tmp_path: Path) -> None:
    block = encrypt(b"the details", [KEYS["alice"].public()], pad_to=64).splitlines()
    result = _open(tmp_path, "\n".join(["head", *block[:3], "text after the cut"]) + "\n")
    assert result.exit_code == 1, result.output
    assert (
        "notice.txt, line 2: the encrypted block has no '-----END AGE ENCRYPTED FILE-----' line"
        in result.output
    )
