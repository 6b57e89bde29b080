"""The archive in a real browser: Debian's headless Chromium, driven by Playwright (which
never downloads a browser here: it is given /usr/bin/chromium).  The page must load with
no console message and no request beyond itself, and show every turn, the players' names,
the final reveal and a chart, on a desktop and on a phone-sized screen.

Skipped, saying why, where Chromium or Playwright is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.archive.build import finished_archive
from pbem.archive.write import write_archive

CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            java_script_enabled=False,
        )
        try:
            yield context
        finally:
            context.close()


def _open(browser: Any, html: Path, width: int, height: int) -> tuple[Any, list[str], list[str]]:
    """Load ``html`` at a viewport size; return the page, console messages, outside requests."""
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": height})
    console: list[str] = []
    outside: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.on("request", lambda request: None if request.url == html.as_uri() else outside.append(request.url))
    page.goto(html.as_uri(), wait_until="load")
    return page, console, outside


@pytest.mark.parametrize("game", ["symbioz", "jovian-syzygy"])
def test_archive_renders_in_chromium_offline_with_every_turn_names_reveal_and_chart(
    browser: Any, finished: dict[str, Path], game: str, tmp_path: Path
) -> None:
    archive = finished_archive(finished[game])
    html, _ = write_archive(archive, tmp_path)
    page, console, outside = _open(browser, html, 1200, 900)
    try:
        assert console == [], console
        assert outside == [], outside
        shot = tmp_path / "shot.png"
        page.screenshot(path=str(shot), full_page=False)
        if os.environ.get("PBEM_ARCHIVE_SCREENSHOT") and game == "symbioz":
            # README's picture, the top of the page (title, players, result, a chart):
            # PBEM_ARCHIVE_SCREENSHOT=docs/archive.png pytest tests/archive
            page.set_viewport_size({"width": 1000, "height": 820})
            page.screenshot(path=os.environ["PBEM_ARCHIVE_SCREENSHOT"])
            page.set_viewport_size({"width": 1200, "height": 900})
        assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        text = page.inner_text("body")
        for turn in archive.turns:
            heading = page.locator(f"#turn-{turn.turn} h2")
            assert heading.inner_text() == f"Turn {turn.turn}"
        for name in archive.names:
            assert text.count(name) > len(archive.turns)
        reveal = page.inner_text("#reveal")
        assert "Final reveal" in reveal and archive.seed is not None and archive.seed in reveal
        chart = page.locator("#charts svg").first
        box = chart.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 150
        assert all(name in chart.text_content() for name in archive.names)
        assert page.locator("#charts svg.pb-chart-phone").first.bounding_box() is None  # not shown
    finally:
        page.close()


def test_archive_fits_a_phone_screen(browser: Any, finished: dict[str, Path], tmp_path: Path) -> None:
    html, _ = write_archive(finished_archive(finished["jovian-syzygy"]), tmp_path)
    page, console, outside = _open(browser, html, 360, 740)
    try:
        assert console == [] and outside == []
        # No page wider than the screen: pictures shrink, wide tables scroll in their own box.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        board = page.locator("#turn-1 figure svg").first.bounding_box()
        assert board is not None and 200 < board["width"] <= 360
        # The chart drawn for a phone is the one shown, its text near its own size (the wide
        # drawing, shrunk to the screen, had 12-pixel text at about 6 pixels).
        assert page.locator("#charts svg.pb-chart-wide").first.bounding_box() is None
        phone = page.locator("#charts svg.pb-chart-phone").first
        chart = phone.bounding_box()
        assert chart is not None and 200 < chart["width"] <= 360
        legend = phone.locator("text").last.bounding_box()
        assert legend is not None and legend["height"] >= 10, legend
        page.screenshot(path=str(tmp_path / "phone.png"))
    finally:
        page.close()
