"""Archive review (twelfth session): the charts' legends with long names, in Chromium.

A chart's legend put four names a row (two on a phone), each in a fixed quarter of the
plot's width: about 18 characters.  pbem allows 32-character names, and a club's names are
often long, so each name ran over the next and none could be read.  Now the legend puts
fewer names a row when the longest does not fit (one a row at most, down to a phone's
width); short names keep their rows (the demo games' pages are unchanged).  A real game
of Jovian Syzygy with four 32-character names, in real Chromium (skipped where missing).
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.archive.build import finished_archive
from pbem.archive.write import write_archive
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.orders import seal, sign
from pbem.player import bot_orders, form_header
from pbem.reports import parse_report
from pbem.rng import Rng, seeded_entropy

from .test_chromium import _open, browser  # noqa: F401  (the browser fixture)

NOW = datetime(2026, 5, 1, tzinfo=UTC)
NAMES = tuple(f"{club}-of-the-northern-chess-club"[:32] for club in ("anna", "bert", "cleo", "dirk"))


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 4-player Jovian Syzygy game (greedy bots) whose players have 32-character names."""
    root = tmp_path_factory.mktemp("long-names")
    moderator = Identity.generate("moderator")
    seats = [Identity.generate(name) for name in NAMES]
    folder = GameFolder.create(
        root / "game",
        "jovian-syzygy",
        moderator,
        [seat.public() for seat in seats],
        {"max-rounds": "6", "at-cap": "highest"},
        now=NOW,
        entropy=seeded_entropy("review12-legend"),
        home=root / "home",
    )
    clock = NOW
    while (save := folder.read()).body["outcome"] is None:
        for seat in save.awaiting:
            path = folder.reports_dir(save.turn) / f"{NAMES[seat]}.txt"
            report = parse_report(path.read_text(encoding="utf-8"), str(path), seats[seat])
            lines = bot_orders(report, "greedy", Rng(f"{save.turn}/{seat}".encode()))
            folder.submit(
                seal(sign(seats[seat], form_header(report), lines), [report.moderator]),
                moderator,
                source="orders.txt",
                now=clock,
            )
        clock += timedelta(hours=1)
        folder.advance(moderator, now=clock)
    return folder.path


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize(("width", "shown"), [(1200, "pb-chart-wide"), (360, "pb-chart-phone")])
def test_legend_names_stay_apart_and_inside_their_chart(
    browser: Any,  # noqa: F811
    long_names: Path,
    tmp_path: Path,
    width: int,
    shown: str,
) -> None:
    html, _ = write_archive(finished_archive(long_names), tmp_path)
    page, console, outside = _open(browser, html, width, 800)
    try:
        assert console == [] and outside == []
        charts = page.locator(f"#charts svg.{shown}")
        assert charts.count() >= 1
        for index in range(charts.count()):
            chart = charts.nth(index)
            frame = chart.bounding_box()
            assert frame is not None
            labels = [text for text in chart.locator("text").all() if text.text_content().startswith(NAMES)]
            assert len(labels) == len(NAMES), "every player is in the legend"
            boxes = [label.bounding_box() for label in labels]
            for box in boxes:
                assert box is not None and box["x"] + box["width"] <= frame["x"] + frame["width"] + 0.5
            for a, b in itertools.combinations(boxes, 2):
                assert a is not None and b is not None and not _overlap(a, b), (a, b)
    finally:
        page.close()
