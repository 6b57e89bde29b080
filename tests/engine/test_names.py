"""Names, not seat numbers, wherever a person reads: the one naming path (pbem.wording), the
order forms and validation errors built from it, and the moderator's commands (advance,
show, status, preview)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.errors import OrdersRejected
from pbem.game import IllegalOrderError, OrderLine
from pbem.player import check_orders, order_form
from pbem.wording import WIDTH, form_lines, name_seats, named_outcome, wrap_line, wrap_text

from .conftest import PLAYERS, Table

SEAT_REF = re.compile(r"\b(?:[Pp]layer|[Ss]eat) \d+\b")
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 60


# ---- the one naming path -------------------------------------------------------------------
def test_name_seats_puts_names_for_1_based_seats_and_leaves_the_rest() -> None:
    names = ["alice", "bob", "carol"]
    assert name_seats("player 1 passes; Player 3 draws", names) == "alice passes; carol draws"
    assert name_seats("player 4 and player 0 are no seats", names) == "player 4 and player 0 are no seats"
    assert name_seats("players 2 and a 2-player game", names) == "players 2 and a 2-player game"


def test_an_order_error_names_people_but_quotes_the_order_as_written() -> None:
    error = IllegalOrderError(OrderLine(7, "give player 2"), "it is player 2's turn", "give player 3")
    text = error.describe("orders.txt", ["alice", "bob", "carol"])
    assert text == (
        "orders.txt, line 7: illegal order 'give player 2': it is bob's turn (did you mean 'give player 3'?)"
    )
    assert "it is player 2's turn" in error.describe("orders.txt")  # no names given: unchanged


def test_named_outcome_gives_winners_names_and_survives_odd_records() -> None:
    outcome = named_outcome({"winners": [2], "scores": [1, 2, 3], "summary": "player 3 won"}, PLAYERS)
    assert outcome is not None and outcome["summary"] == "carol won" and outcome["won_by"] == ["carol"]
    odd = named_outcome({"winners": [7, "x", True], "summary": 5}, PLAYERS)
    assert odd is not None and odd["won_by"] == ["seat 7", "seat x", "seat True"]
    assert named_outcome(None, PLAYERS) is None


def test_form_lines_fold_comments_and_never_touch_orders() -> None:
    order = "buy 12 zerbs C3 else C4 C5 C6 C7 C8 C9 C10 C11 C12 A1 A2 A3 A4 B1 B2 B3 B4 player 2"
    comment = "#   discard 10C  (set aside; the parasite goes to player 1, " + "and on " * 10
    out = form_lines([order, comment], ["Bartholomew.Featherstonehaugh-22", "x"] * 2)
    assert out[0] == order
    assert all(line.startswith("#     ") for line in out[2:]) and out[1].startswith("#   discard")
    assert "Bartholomew.Featherstonehaugh-22" in " ".join(out[1:])
    assert all(len(line) <= WIDTH for line in out[1:])


words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Z", "C")), min_size=1, max_size=30)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    prefix=st.sampled_from(["", "  ", "# ", "#   ", "- ", "    * ", "12. ", "#  - "]),
    body=st.lists(words, min_size=1, max_size=40),
    width=st.integers(min_value=30, max_value=90),
)
def test_wrap_line_keeps_every_word_in_order_and_fits(prefix: str, body: list[str], width: int) -> None:
    line = prefix + " ".join(body)
    out = wrap_line(line, width)
    # Continuation lines of a comment repeat its "#": read past it, as a person does.
    text = " ".join([out[0], *(p.lstrip()[1:] if prefix.startswith("#") else p for p in out[1:])])
    assert text.split() == line.split(), "no word changed, lost, split or joined"
    for part in out:
        assert len(part) <= width or len(part.split()) <= len(prefix.split()) + 1, part
    if prefix.startswith("#"):
        assert all(part.startswith("#") for part in out), "a folded comment stays a comment"
    if len(line) <= width:
        assert out == (line,)
    assert wrap_text(line + "\n" + line, width) == "\n".join([*out, *out])


# ---- order forms and errors ------------------------------------------------------------------
def test_forms_and_offline_errors_name_the_players(table: Table) -> None:
    idle = table.idle()
    awaited = table.awaited()
    text, path = table.report_text(idle)
    form = order_form(text, path, table.keys[idle], table.moderator.public())
    assert f"it is {awaited}'s turn" in form and not SEAT_REF.search(form)
    text, path = table.report_text(awaited)
    form = order_form(text, path, table.keys[awaited], table.moderator.public())
    assert not SEAT_REF.search(form) and all(len(line) <= 72 for line in form.splitlines())
    assert re.search(rf"# Symbiote, round 1: your turn \({awaited}\)\.", form)
    assert "The symbiote is with" in form
    # The idle player checks orders anyway: the game's error names whose turn it is.
    idle_text, idle_path = table.report_text(idle)
    idle_form = order_form(idle_text, idle_path, table.keys[idle], table.moderator.public())
    headers = "\n".join(line for line in idle_form.splitlines() if ":" in line and not line.startswith("#"))
    with pytest.raises(OrdersRejected) as caught:
        check_orders(headers + "\ndraw\n", "mine.txt", idle_text, idle_path, table.keys[idle])
    assert f"it is {awaited}'s turn" in caught.value.message and not SEAT_REF.search(caught.value.message)


def test_the_engine_names_players_in_game_errors(table: Table) -> None:
    name = table.awaited()
    block = table.sealed(table.signed(name, ["discard ZZ", "pair 10H 10S"]))
    with pytest.raises(OrdersRejected) as caught:
        table.submit(block, "orders.txt")
    assert "line" in caught.value.message and not SEAT_REF.search(caught.value.message)


# ---- the moderator's commands --------------------------------------------------------------
def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def _moderator_key(table: Table, tmp_path: Path) -> str:
    path = tmp_path / "moderator.key"
    table.moderator.save(path)
    return str(path)


def test_advance_show_status_and_preview_name_people(table: Table, tmp_path: Path) -> None:
    key = _moderator_key(table, tmp_path)
    game = str(table.folder.path)
    outputs = {}
    for step in range(6):
        outputs[f"advance {step}"] = run("advance", game, "--key", key, "--fill", "greedy").output
    outputs["preview"] = run("preview", game, "--key", key, "--state-dir", str(tmp_path / "state")).output
    outputs["advance --preview"] = run("advance", game, "--key", key, "--fill", "greedy", "--preview").output
    outputs["show"] = run("show", game, "--key", key).output
    outputs["status"] = run("status", game).output
    for what, text in outputs.items():
        assert not SEAT_REF.search(text), f"{what} says {SEAT_REF.search(text)}:\n{text}"
    everything = "\n".join(outputs.values())
    assert all(name in everything for name in PLAYERS)
    assert re.search(
        rf"\b({'|'.join(PLAYERS)}) (draws|takes|discards)", outputs["advance 0"] + outputs["advance 1"]
    )
    assert "(private to " in everything  # private events say whose they are
    assert re.search(r"--- pending orders \(\d+ of \d+ awaited\)", outputs["show"])
    assert "--- last events:" in outputs["show"]
