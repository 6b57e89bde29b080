"""Archive review (twelfth session): the page of a rolled-back turn on a phone.

The rollback's note, which that turn's page shows among its events, holds the new seed's
commitment: 64 hexadecimal digits with no space.  An event, a note or an index line with a
word that long made the whole page wider than a phone's screen (661 pixels on a 360-pixel
screen), so every line of every turn had to be scrolled sideways.  Real Chromium, as in
test_chromium.py (skipped where it is missing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.archive.build import build_archive
from pbem.archive.write import write_archive

from .test_chromium import _open, browser  # noqa: F401  (the browser fixture)
from .test_review12_seats import ROLLED_TO, _Game, played  # noqa: F401  (the game fixture)


def test_a_rolled_back_turn_fits_a_phone_screen(browser: Any, played: _Game, tmp_path: Path) -> None:  # noqa: F811
    archive = build_archive(played.folder.path)
    html, _ = write_archive(archive, tmp_path)
    page, console, outside = _open(browser, html, 360, 740)
    try:
        assert console == [] and outside == []
        events = page.inner_text(f"#turn-{ROLLED_TO} ul.pb-events")
        assert "rolled the game back" in events
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        page.close()
