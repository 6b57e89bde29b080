"""Views, reports and pictures: an allow-list view, no seed or future flip in sight, a readable board."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from jov_helpers import make_state, orders_for, play_round

from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board
from pbem_games.jovian_syzygy.view import COLUMNS

PUBLIC_KEYS = {
    "players",
    "options",
    "round",
    "rounds_played",
    "first",
    "turn_order",
    "sats",
    "where",
    "psi",
    "last_gain",
    "storms",
    "awards",
    "over",
}


def test_view_is_an_allow_list_and_public_is_shared() -> None:
    state = make_state(["NE", "callisto", "D-3"], storms={"D-3": 1})
    state["secret_note"] = "must not show"
    views = [GAME.observe(state, s) for s in (None, 0, 1, 2)]
    for v in views:
        assert set(v.public) == PUBLIC_KEYS and v.private == {}
        assert v.public == views[0].public
        assert "must not show" not in json.dumps(v.public)


def test_seed_and_future_flips_never_leak() -> None:
    """Everything a player receives is a function of the state, and the state holds no draws.

    Two games from the same setup resolved with different secret generators show identical
    reports before the round; after it they differ only through what actually happened.
    """
    seed = b"very-secret-seed-0123456789"
    state = GAME.setup(3, {}, Rng(seed))
    blob = json.dumps(state)
    assert seed.decode() not in blob and "seed" not in blob
    # The pending flips: a storm in the way of a planned move.
    state = make_state(["NE", "D-1", "SW"], storms={"D-1": 2, "D-2": 1})
    orders = {
        0: orders_for(state, 0, "move D-1"),
        1: orders_for(state, 1, "move D-2"),
        2: orders_for(state, 2, "pass"),
    }
    before = {s: (GAME.observe(state, s), GAME.describe(GAME.observe(state, s))) for s in (None, 0, 1, 2)}
    outcomes = set()
    for label in range(12):
        res = GAME.resolve(state, orders, Rng(b"future%d" % label))
        outcomes.add(json.dumps(res.state, sort_keys=True))
        # What the players saw before the round cannot depend on the generator used after it.
        for s, (v, text) in before.items():
            assert GAME.observe(state, s) == v and GAME.describe(v) == text
    assert len(outcomes) > 1, "the flips really are random"
    assert set(state) == set(make_state(["NE"]))  # no hidden keys: nothing pre-drawn is stored


def test_svg_is_well_formed_and_shows_the_pieces() -> None:
    state = make_state(["NE", "callisto", "D-3"], sats=[2, 5, 11, 27], storms={"D-3": 2})
    state = play_round(state, {0: ["move D-1"]}).state  # a syzygy to draw
    svg = GAME.pictures(GAME.observe(state, None))["board.svg"]
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    texts = [el.text for el in root.iter() if el.tag.endswith("text")]
    for name in board.SPACE_NAMES:
        assert name in texts
    for letter in "IEGC":
        assert letter in texts
    assert any(el.tag.endswith("polyline") for el in root.iter()), "the scored line is drawn"
    bars = [el for el in root.iter() if el.tag.endswith("line") and el.get("stroke") == "#ffffff"]
    assert len(bars) >= sum(t.segments for t in board.TRACKS)


def test_picture_is_public() -> None:
    state = make_state(["NE", "SW"])
    assert GAME.pictures(GAME.observe(state, 0)) == GAME.pictures(GAME.observe(state, 1))


def test_text_board_rows_and_describe() -> None:
    state = make_state(["NE", "callisto", "D-3"], sats=[1, 1, 2, 3], storms={"D-3": 2})
    public_text, private_text = GAME.describe(GAME.observe(state, 1))
    labels = ("out", "Cal", "D", "Gan", "C", "Eur", "B", "Io", "A")
    rows = [row for row in public_text.splitlines() if row[:5].strip() in labels]
    assert len(rows) == 18  # two halves
    assert {len(row) for row in rows} == {5 + COLUMNS // 2}
    assert max(len(line) for line in public_text.splitlines()) <= 78
    assert "|D3 3**" in public_text  # player 3 and two storms in D-3
    assert "|@2|" in public_text  # Callisto carrying player 2
    # Io's second segment (120-240 degrees) straddles the halves: continued, not duplicated.
    io_rows = [row for row in rows if row.startswith("Io")]
    assert "|@" in io_rows[0] and "<@" in io_rows[1]
    assert private_text.startswith("You are Player 2.\n\nForecast:")  # see test_jovian_forecast.py


def test_report_lists_awards_with_positions_in_short_lines() -> None:
    state = make_state(["callisto", "io", "NE"], sats=[2, 5, 11, 27], last_gain=["io", "io", None])
    state = play_round(state, {}).state
    text, _ = GAME.describe(GAME.observe(state, None))
    assert "Player 1: +6 Psi for Callisto - Ganymede - Europa - Io - Jupiter (eclipse)" in text
    assert "only 1: the same satellite" in text  # player 2 rode Io again
    assert text.count("slid to (degrees): ") == 2
    assert max(len(line) for line in text.splitlines()) <= 78
