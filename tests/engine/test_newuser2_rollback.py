"""After the moderator rolls a game back, a player who had read the later turn's report can
check and sign orders for the turn the game went back to.

Before: ``pbem check`` and ``pbem sign`` refused every form for that turn with "these orders
are for turn 1, but you have already read the report of turn 2" (the kept copy of the undone
turn's report), although the player had just read the new report of turn 1 and made the form
from it; only ``--report`` got round it.  A form answering a report older than every report
read is still refused."""

from __future__ import annotations

from pathlib import Path

from .peoplekit import People

NAMES = ("alice", "bob")


class Table(People):
    """A 2-player Symbioz game; the moderator and each player in a folder with a home of their own."""

    def __init__(self, root: Path) -> None:
        super().__init__(root, "symbioz", NAMES)

    def play_turn(self, turn: int) -> None:
        """Every player signs the form as written (automatic defaults), the moderator files it."""
        for name in NAMES:
            self.run(
                name, "orders", self.report_path(turn, name), "--key", f"{name}.key", "-o", f"form{turn}.txt"
            )
            self.run(name, "sign", f"form{turn}.txt", "--key", f"{name}.key", "-o", f"signed{turn}.txt")
            self.run("mod", "submit", "game", str(self.root / name / f"signed{turn}.txt"), "--key", "mod.key")
        self.run("mod", "advance", "game", "--key", "mod.key")


def test_orders_for_the_turn_rolled_back_to(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.play_turn(1)
    table.run("alice", "read", table.report_path(2, "alice"), "--key", "alice.key")
    table.run("mod", "rollback", "game", "1", "--key", "mod.key")
    table.run("alice", "orders", table.report_path(1, "alice"), "--key", "alice.key", "-o", "again.txt")
    result = table.run("alice", "check", "again.txt", "--key", "alice.key")
    assert "all accepted by the rules" in result.output
    table.run("alice", "sign", "again.txt", "--key", "alice.key", "-o", "again-signed.txt")
    result = table.run(
        "mod", "submit", "game", str(tmp_path / "alice" / "again-signed.txt"), "--key", "mod.key"
    )
    assert "accepted: orders of alice for turn 1" in result.output


def test_a_form_for_an_old_turn_is_still_refused(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.play_turn(1)
    table.run("alice", "read", table.report_path(2, "alice"), "--key", "alice.key")
    result = table.run("alice", "check", "form1.txt", "--key", "alice.key", code=1)
    assert "these orders are for turn 1, but you have already read the report of turn 2" in result.output
