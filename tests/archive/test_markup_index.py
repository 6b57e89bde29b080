"""Markup review (eleventh session): the index of an archived root shows each game folder's
name, and a folder's name is whatever its maker chose.  Markup in it was already escaped;
a right-to-left override (U+202E) drew the rest of the index line reversed
("...\\u202egpj.exe" reads "exe.jpg", and the game's summary after it backwards), and a
control character reached the text index as it was.  Now both are shown as escapes, in
the page and the text file, in a game's line and in a refused game's reason.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

from pbem.archive.write import archive_root

HOSTILE = '<b>x<!--"onmouseover=alert(1) \u202egpj.exe\x1b[2J'


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_a_hostile_folder_name_is_shown_as_its_characters(finished: dict[str, Path], tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    shutil.copytree(finished["symbioz"], root / HOSTILE)
    shutil.copytree(finished["symbioz"], root / f"damaged {HOSTILE}")
    (root / f"damaged {HOSTILE}" / "save.json").write_text("{", encoding="utf-8")
    done = archive_root(root, tmp_path / "out")
    assert [item.problem is None for item in done].count(True) == 1
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    text = (tmp_path / "out" / "index.txt").read_text(encoding="utf-8")
    for shown in (page, text):
        assert "\u202e" not in shown and "\x1b" not in shown
        assert "\\u202egpj.exe\\x1b[2J" in shown
    parsed = _Text()
    parsed.feed(page)
    parsed.close()
    assert parsed.tags.count("li") == 2 and "b" not in parsed.tags, "markup in the name stays text"
    assert any('<b>x<!--"onmouseover=alert(1) \\u202egpj.exe' in t for t in parsed.text)


def test_pbem_archive_prints_a_hostile_folder_name_as_its_characters(
    finished: dict[str, Path], tmp_path: Path
) -> None:
    # The moderator's terminal: an escape in a folder name must not reach it as it is.
    from click.testing import CliRunner

    from pbem.cli import main

    root = tmp_path / "root"
    root.mkdir()
    shutil.copytree(finished["symbioz"], root / HOSTILE)
    shutil.copytree(finished["symbioz"], root / f"damaged {HOSTILE}")
    (root / f"damaged {HOSTILE}" / "save.json").write_text("{", encoding="utf-8")
    result = CliRunner().invoke(main, ["archive", str(root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output, result.output
    assert result.output.count("\\u202egpj.exe\\x1b[2J") >= 3, result.output  # archived, refused, summary
