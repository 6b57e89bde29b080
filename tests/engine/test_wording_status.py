"""A finished game's result is said once: ``pbem status`` printed "game over: bob won (...).
(won by: bob)", and ``pbem demo`` "winner(s): bob" above "bob won (...)"."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.wording import name_seats, outcome_line


def test_outcome_line_names_the_winners_only_when_the_summary_does_not() -> None:
    assert outcome_line("bob won (alice 7, bob 1).", ["bob"]) == "bob won (alice 7, bob 1)."
    assert outcome_line("bob and carol won (x).", ["bob", "carol"]) == "bob and carol won (x)."
    assert outcome_line("solo timed: 35 Psi after 40 rounds", ["alice"]) == (
        "solo timed: 35 Psi after 40 rounds; won by alice"
    )
    # "al" is not named by "alice won": names are matched whole.
    assert outcome_line("alice won.", ["al"]) == "alice won; won by al"
    assert outcome_line("solo timed: 20 Psi after 40 rounds", []) == (
        "solo timed: 20 Psi after 40 rounds; nobody won"
    )
    assert outcome_line("nobody won (everyone died).", []) == "nobody won (everyone died)."


def test_status_and_demo_of_a_finished_game_say_the_result_once(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"PBEM_HOME": str(tmp_path / "home")}
    out = tmp_path / "demo"
    demo = runner.invoke(
        main, ["demo", "symbiote", "--players", "3", "--seed", "3", "--out", str(out)], env=env
    )
    assert demo.exit_code == 0, demo.output
    assert "winner(s)" not in demo.output
    save = json.loads((out / "game" / "save.json").read_text())["body"]
    names = [p["card"]["name"] for p in save["players"]]
    winners = [names[w] for w in save["outcome"]["winners"]]
    [first] = [line for line in demo.output.splitlines() if line.startswith("Symbiote over after")]
    assert " won (" in first and all(name in first for name in winners), first
    status = runner.invoke(main, ["status", str(out / "game")], env=env)
    assert status.exit_code == 0, status.output
    [over] = [line for line in status.output.splitlines() if line.startswith("game over: ")]
    assert over == f"game over: {name_seats(save['outcome']['summary'], names)}", over
    assert "won by" not in status.output, status.output
