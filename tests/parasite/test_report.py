"""Parasite reports, order forms and the board picture (games/parasite/report.py, forms.py,
svg.py), over positions of whole bot games with every option, and by hand.

- The public text is the same whoever's view it is written from, and holds the Locations
  and who stands there, conditions, tokens, the Leader, deck and discard sizes, the Mission
  and revealed Infection cards; the private text holds the hand and Items with their texts,
  the Infection card with Win, Lose and ability, Test Results, standing reactions and notes.
- With 32-character names every line fits 72 columns and no seat number is left.
- The final report reveals every Infection card, hand and token, Escaped players first.
- Every order form's uncommented lines pass the check, and so does every complete order
  line it lists; ``pbem check`` passes on a filled form.
- The picture is well-formed SVG, a function of the public view only.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.game import OrderLine, View
from pbem.rng import Rng
from pbem.wording import for_people, form_lines, name_seats
from pbem_games.parasite import GAME, forms, rules
from pbem_games.parasite.cards import load_cards

State = dict[str, Any]
NAMES = tuple(
    f"{n}{'x' * 32}"[:32] for n in ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "hal")
)
FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 6
OPTIONS: list[dict[str, Any]] = [
    {},
    {"dog": True},
    {"reactions": "windows"},
    {"unknown-infections": True},
    {"untidy": True, "arctic-pot-luck": True, "difficulty": "harder"},
    {"activation-events": "kept", "leader": "random", "start-location": "office"},
]


def positions(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Every position of one engine-only game played by the game's own bots."""
    pick = random.Random(seed)
    state = rules.setup(players, options, Rng(f"report/{seed}".encode()))
    for step in range(600):
        yield state
        if state["over"]:
            return
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            bot = GAME.bots[pick.choice(sorted(GAME.bots))]
            lines = bot(GAME, view, Rng(f"report/{seed}/{step}/{seat}".encode()))
            orders[seat] = GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(lines, 1) if t])
        state = GAME.resolve(state, orders, Rng(f"report/{seed}/{step}".encode())).state
    raise AssertionError("the game did not end")


def _people(text: str, players: int) -> str:
    return for_people(text, NAMES[:players])


def check_position(state: State) -> None:
    """Every property of the report, form and picture that holds in any position."""
    n = state["n"]
    public_view = GAME.observe(state, None)
    public, nothing = GAME.describe(public_view)
    assert nothing == ""
    picture = GAME.pictures(public_view)["board.svg"]
    ElementTree.fromstring(name_seats(picture, NAMES[:n]))
    for line in _people(public, n).splitlines():
        assert len(line) <= 72, line
        assert not re.search(r"\b[Pp]layer \d", line), line
    for seat in range(n):
        view = GAME.observe(state, seat)
        mine_public, private = GAME.describe(view)
        assert mine_public == public, "the public text depends on whose view it is"
        assert GAME.pictures(view)["board.svg"] == picture, "the picture depends on whose view it is"
        for line in _people(private, n).splitlines():
            assert len(line) <= 72, line
        cards = load_cards()
        for card in view.private["hand"]:
            assert cards.cards[card].name in private
        assert cards.infections[view.private["priority"]].name in private
        if seat in GAME.to_act(state):
            check_form(view)


def check_form(view: View) -> None:
    """The form's own orders pass the check; so does each complete order line it lists."""
    lines = forms.order_form(view)
    orders = [line for line in lines if line.strip() and not line.startswith("#")]
    assert orders, lines
    GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(orders, 1)])
    kind = view.public["ask"]["question"]["kind"]
    if kind == "turn":
        return  # its Action lines need the hand-limit lines before them; checked in forms.py
    for line in lines:
        m = re.fullmatch(
            r"#   ((?:keep|leave|give|discard|target|option|return|to|escape|stay behind|dog \w+)\b.*)", line
        )
        order = re.sub(r" \(player \d+\)", "", m.group(1)) if m else ""
        if m and "CARD" not in order and "(" not in order:
            GAME.validate(view, [OrderLine(1, order.strip())])
    for line in form_lines(lines, NAMES):
        assert len(line) <= 72 or not line.startswith("#"), line


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "standard")
def test_every_position_of_a_bot_game(options: dict[str, Any]) -> None:
    players = 4 + len(canonical.dumps(options)) % 5
    count = 0
    for state in positions(players, options, 3):
        check_position(state)
        count += 1
    assert count > 5


@settings(max_examples=FUZZ, deadline=None)
@given(
    players=st.integers(min_value=4, max_value=8),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_reports_forms_and_pictures_in_random_games(players: int, options: dict[str, Any], seed: int) -> None:
    for k, state in enumerate(positions(players, options, seed)):
        if k % 3 == 0 or state["over"]:
            check_position(state)


# ---- what the reports say -------------------------------------------------------------------------
def _finished(options: dict[str, Any], want_escape: bool = True) -> State:
    for seed in range(40):
        *_, last = positions(5, options, seed)
        if not want_escape or last["escaped"]:
            return last
    raise AssertionError("no bot game ended with someone Escaping")


def test_the_public_report_shows_the_position() -> None:
    state = rules.setup(
        5, {"characters": "seat-order", "dog": True, "dog-first-move": "round-2"}, Rng(b"public")
    )
    state["loc"][1] = "office"
    state["health"][2] = "distressed"
    state["tokens"][3] = [0]
    state["revealed"][4] = True
    state["mission"] = "fuel-run"
    text = _people(GAME.describe(GAME.observe(state, None))[0], 5)
    cards = load_cards()
    assert "PARASITE - round 1, Game Phase, alice" in text
    assert "Leader: alice" in text
    deck = len(state["decks"]["office"])
    assert re.search(rf"Office \(deck {deck}, discards 0\): bob", text)
    assert "carol" in text and "Distressed" in text
    assert re.search(r"dave\w*: Mechanic [^:]*Helipad\n\s+\d hand cards?\n\s+Tokens: red \(alice", text)
    assert cards.infections[state["infection"][4][0]].name in text
    assert "Mission in play: Fuel Run (0 on it, 2 needed)" in text
    assert f"{cards.dog.name} the Dog" in text
    for hidden in state["hands"][0]:
        assert cards.cards[hidden].name not in text.split("Players, clockwise:")[1].split("Options")[0]


def test_the_private_part_shows_what_only_its_reader_knows() -> None:
    state = rules.setup(4, {"characters": "seat-order"}, Rng(b"private"))
    state["hands"][0] = ["scalpel", "pep-talk"]
    state["tests"][0] = {"2": "parasite"}
    state["reactions"][0] = [{"card": "scalpel", "from": [1]}, {"card": "ice-pick", "for": [2, 3]}]
    state["notes"][0].append("Round 1: player 2 gave Pep Talk to player 1.")
    text = _people(GAME.describe(GAME.observe(state, 0))[1], 4)
    cards = load_cards()
    inf = cards.infections[state["infection"][0][0]]
    assert "For alice" in text and "Station Chief" in text
    assert inf.name in text and f"priority {inf.priority:02d}" in text and "Win:" in text
    assert "Scalpel [scalpel], Interrupt: Play when another player's Action" in text
    assert "Pep Talk [pep-talk], Action" in text
    assert re.search(r"Test Results you saw: carol\w* is Parasite", text)
    assert re.search(
        r"Your standing reactions: react scalpel if\s+bob\w*; react ice-pick for\s+carol\w* or\s+dave", text
    )
    assert re.search(r"bob\w* gave Pep Talk to\s+alice", text)
    other = _people(GAME.describe(GAME.observe(state, 1))[1], 4)
    assert "Test Results you saw" not in other and "react scalpel" not in other


def test_the_final_report_reveals_everything_escaped_first() -> None:
    last = _finished({})
    n = last["n"]
    text = _people(GAME.describe(GAME.observe(last, None))[0], n)
    cards = load_cards()
    reveal = text.split("THE REVEAL")[1]
    for seat in range(n):
        for card in last["infection"][seat]:
            assert cards.infections[card].name in reveal
        for card in last["hands"][seat]:
            assert cards.cards[card].name in reveal
    order = [NAMES[s] for s in last["escaped"] if s < n]
    found = [m.group(1) for m in re.finditer(r"^  (\w+): ", reveal, re.M)]
    assert found[: len(order)] == order, "those who Escaped reveal first"
    assert re.search(rf"{NAMES[last['escaped'][0]]}: Escaped \(1 of", reveal)
    winners = ", ".join(NAMES[w] for w in last["winners"]) or "nobody"
    assert f"Winners: {winners}." in text.replace("\n  ", " ")


def test_forms_answer_questions_with_card_texts() -> None:
    state = rules.setup(4, {"characters": "seat-order", "hand-limit": "start-of-turn"}, Rng(b"form"))
    state["hands"][0] = ["pep-talk", "crowbar", "scalpel", "blood-test", "stitches"]
    state["pending"]["base"]["hands"][0] = list(state["hands"][0])
    view = GAME.observe(state, 0)
    lines = forms.order_form(view)
    text = "\n".join(lines)
    assert "Hand limit: you hold 5 cards; 2 line(s)" in text
    assert "Pep Talk [pep-talk], Action: Choose another player" in text
    chars = state["chars"]
    assert f"play pep-talk on PLAYER: {chars[1]} (player 2), {chars[2]} (player 3)" in text
    named = forms.order_form(view)
    assert not any(re.search(r"on player \d", line) for line in named), "orders name characters"
    assert "react scalpel" in text and "Scalpel [scalpel], Interrupt" in text
    assert "play scalpel" not in text, "an Interrupt is not an Action"
    assert "move office | move storehouse | move laboratory" in text
    assert lines[-3:] == ["discard pep-talk", "discard crowbar", "stay"]
    GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(lines[-3:], 1)])


def test_the_picture_reads_only_the_public_view() -> None:
    state = rules.setup(6, {"unknown-infections": True}, Rng(b"svg"))
    view = GAME.observe(state, None)
    picture = GAME.pictures(view)["board.svg"]
    twin = canonical.loads(canonical.dumps(state))
    twin["hands"] = [[] for _ in twin["hands"]]
    twin["infection"] = list(reversed(twin["infection"]))
    twin["tokens"][0] = [1, 2]
    assert GAME.pictures(GAME.observe(twin, None))["board.svg"] == picture
    root = ElementTree.fromstring(picture)
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for seat in range(6):
        assert f"player {seat + 1}" in texts
    assert "tokens hidden" in texts
    assert "Leader" in texts


# ---- through the command line -------------------------------------------------------------------------
def test_pbem_check_passes_on_a_filled_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A demo game's reports: ``pbem orders`` writes a form; ``pbem check`` passes on it as it
    is, and on the form with one of the orders it lists filled in."""
    from pbem.cli import main
    from pbem.demo import run_demo

    monkeypatch.setattr("os.fsync", lambda fd: None)
    out = tmp_path / "demo"
    run_demo("parasite", 4, 21, out, ["random"], {})
    env = {"PBEM_HOME": str(tmp_path / "home")}
    runner = CliRunner()
    checked = filled = 0
    for turn_dir in sorted((out / "game" / "reports").iterdir())[:10]:
        for key in sorted((out / "keys").glob("*.key")):
            path = turn_dir / f"{key.stem}.txt"
            if key.stem == "moderator" or not path.exists():
                continue
            form = tmp_path / f"{turn_dir.name}-{key.stem}.txt"
            made = runner.invoke(main, ["orders", str(path), "--key", str(key), "-o", str(form)], env=env)
            assert made.exit_code == 0, made.output
            if "no orders are awaited" in form.read_text(encoding="utf-8"):
                continue
            done = runner.invoke(
                main, ["check", str(form), "--key", str(key), "--report", str(path)], env=env
            )
            assert done.exit_code == 0, done.output + form.read_text(encoding="utf-8")
            checked += 1
            text = form.read_text(encoding="utf-8")
            action = re.search(
                r"^#   ((?:play|use) \S+|ability|reveal|distress)(?: on)?(?: PLAYER: (\S+))?", text, re.M
            )
            if action and text.rstrip().endswith("\nstay") and "Hand limit" not in text:
                order = action.group(1) + (f" on {action.group(2)}" if action.group(2) else "")
                order = order.replace("distress on ", "distress ")
                form.write_text(text.rstrip()[: -len("stay")] + f"{order}\nmove office\n", encoding="utf-8")
                done = runner.invoke(
                    main, ["check", str(form), "--key", str(key), "--report", str(path)], env=env
                )
                assert done.exit_code == 0, done.output + form.read_text(encoding="utf-8")
                filled += 1
    assert checked >= 5 and filled >= 1
