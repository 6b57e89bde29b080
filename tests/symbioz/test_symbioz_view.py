"""What readers see: the allow-listed view, the leak test, the text table and the SVG."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from symbioz_helpers import BLUE, RED, YELLOW, play, position

from pbem.rng import Rng
from pbem_games.symbioz import GAME

SECRET = "5eed-0f-the-game-do-not-show"


def test_views_are_allow_listed_and_the_seed_never_shows() -> None:
    state = GAME.setup(4, {}, Rng(b"leak"))
    # Anything the engine (or a later change) keeps in the state is not copied out.
    state = dict(state, seed=SECRET, rng_seed=SECRET, notes={"moderator": SECRET})
    for _ in range(3):
        views = [GAME.observe(state, seat) for seat in (None, 0, 1, 2, 3)]
        for view in views:
            assert view.public == views[0].public and view.private == {}
            outputs = [json.dumps(view.public), *GAME.describe(view), *GAME.pictures(view).values()]
            assert not any(SECRET in text for text in outputs)
            assert "seed" not in view.public
        result = GAME.resolve(
            state, {s: {"buy": [], "grow": [], "krogul": [], "crapit": []} for s in range(4)}, Rng(b"t")
        )
        assert not any(SECRET in e.text for e in result.events)
        state = result.state


def test_text_table() -> None:
    state = position(
        zerbs={"C2": {YELLOW: 11, RED: 1}, "A1": {BLUE: 3}},
        crapits={"C2": {RED: 2}},
        kroguls={"C2": {YELLOW: 1}},
        symbioz={"C5": RED},
    )
    public, private = GAME.describe(GAME.observe(state, YELLOW))
    assert private == "You play Yellow (player 1).\n"
    rows = {line.split()[0]: line for line in public.splitlines() if line[:2] in ("A1", "C2", "C5")}
    assert rows["C2"].split()[1:4] == ["11/-/1", "1/2/-", "."]
    assert "saturated" in rows["C2"]
    assert "fertile" in rows["A1"] and "SYMBIOZ Red" in rows["C5"]
    assert "C3" not in [line.split()[0] for line in public.splitlines() if line.strip()]
    assert "Option:" not in public
    first = position(zerbs={"C2": {YELLOW: 1}}, options={"first-game": True})
    assert (
        "Option: first game: one more Symbioz needed to win." in GAME.describe(GAME.observe(first, None))[0]
    )
    assert "turn 2 of 12" in public and "Play order this turn: Yellow, Red, Blue, Purple" in public


def _svg(state: dict) -> ET.Element:
    text = GAME.pictures(GAME.observe(state, None))["board.svg"]
    return ET.fromstring(text)


NS = "{http://www.w3.org/2000/svg}"


def test_svg_board_is_well_formed_and_shows_the_position() -> None:
    state = position(zerbs={"C2": {YELLOW: 7}}, crapits={"C2": {RED: 2}}, symbioz={"B5": BLUE})
    root = _svg(state)
    assert len(root.findall(f"{NS}path")) == 24  # one sector per square
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "C2 (7)" in texts and "7" in texts and "2" in texts
    marker = [c for c in root.iter(f"{NS}circle") if c.get("r") == "24"]
    assert len(marker) == 1  # the Symbioz of B5
    assert any("Blue (player 3): 1 Symbioz" in (t or "") for t in texts)


def test_svg_is_a_pure_function_of_the_public_view() -> None:
    state = position(zerbs={"C2": {YELLOW: 7}})
    pictures = {json.dumps(GAME.pictures(GAME.observe(state, seat))) for seat in (None, 0, 1, 2, 3)}
    assert len(pictures) == 1


def test_svg_half_board_greys_the_unused_half() -> None:
    root = _svg(position(2, zerbs={"C1": {YELLOW: 4}}))
    grey = [p for p in root.findall(f"{NS}path") if p.get("fill") == "#d0d0d0"]
    assert len(grey) == 12


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reports_over_a_whole_game(players: int) -> None:
    state = GAME.setup(players, {}, Rng(b"r"))
    while not state["over"]:
        view = GAME.observe(state, 0)
        assert GAME.describe(view)[0] and ET.fromstring(GAME.pictures(view)["board.svg"]) is not None
        state = play(
            state, {s: GAME.bots["greedy"](GAME, GAME.observe(state, s), Rng(b"b")) for s in range(players)}
        ).state
    public = GAME.describe(GAME.observe(state, None))[0]
    assert "game over" in public and state["result"] in public
