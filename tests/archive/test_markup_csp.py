"""Markup review (eleventh session): the archive's pages carry their own Content-Security-Policy.

Every text in the pages is escaped and the games' pictures are checked, but a page had no
policy of its own: one slip (a game's drawing code, a future field) would have run script
or loaded from the network in the moderator's browser.  Now the game's page and the index
say, before anything else in their head, that nothing is fetched, no script runs and no
form is sent; a real Chromium (checked by hand in the review) blocks an injected script and
image and shows the page as before.  Also: nothing in the pages refers outside them.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from pbem.archive.write import archive_root


class _Page(HTMLParser):
    """The elements of a page, in order, with their attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))


def _parse(path: Path) -> list[tuple[str, dict[str, str | None]]]:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page.elements


def _policy(elements: list[tuple[str, dict[str, str | None]]]) -> dict[str, str]:
    tags = [tag for tag, _ in elements]
    first_content = min(tags.index(t) for t in ("title", "style", "body") if t in tags)
    metas = [a for t, a in elements[:first_content] if t == "meta"]
    found = [a for a in metas if (a.get("http-equiv") or "").lower() == "content-security-policy"]
    assert len(found) == 1, "one Content-Security-Policy meta element, before the title, style and body"
    meta = found[0]
    out = {}
    for part in (meta["content"] or "").split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            out[name] = value.strip()
    return out


def test_the_game_page_and_the_index_forbid_script_and_fetching(
    finished: dict[str, Path], tmp_path: Path
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    for name, folder in finished.items():
        (root / name).symlink_to(folder, target_is_directory=True)
    done = archive_root(root, tmp_path / "out")
    pages = [item.html for item in done if item.html is not None]
    assert len(pages) == len(finished)
    for path in [*pages, tmp_path / "out" / "index.html"]:
        elements = _parse(path)
        policy = _policy(elements)
        assert policy["default-src"] == "'none'", path
        assert "script-src" not in policy and "connect-src" not in policy
        assert policy["style-src"] == "'unsafe-inline'"
        assert policy["base-uri"] == "'none'" and policy["form-action"] == "'none'"
        assert not [
            t for t, _ in elements if t in ("script", "img", "iframe", "object", "embed", "link", "form")
        ]
        for tag, attrs in elements:
            for key in ("href", "src", "xlink:href", "action"):
                value = attrs.get(key)
                if value is not None:
                    assert value.startswith("#") or (tag == "a" and "/" not in value and ":" not in value), (
                        path,
                        tag,
                        value,
                    )
