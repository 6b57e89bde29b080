"""A new user gives a command the wrong one of their files: the report as orders, the form as
a report, the secret key as a card, the report as a key.  Each answer names what the file is,
what the command wanted, and what the file is for.

Before: ``pbem check REPORT`` said the report "is sealed to the moderator: only the moderator
can open it" (its private part is an encrypted block), ``pbem sign REPORT`` that it "is sealed
already", ``pbem submit GAME FORM`` "no signed order block found", ``pbem read FORM`` "is not a
pbem report (no ... block)", a secret ``.key`` given as a card "no public key card found" and a
report given as ``--key`` "is readable by other users (mode 644): run chmod 600": a new user
was sent to change the mode of their report."""

from __future__ import annotations

from pathlib import Path

import pytest

from .peoplekit import People

NAMES = ("alice", "bob", "carol")


class Table(People):
    """A 3-player Symbiote game with each person in a folder of their own, as on three machines;
    alice has made her order form."""

    def __init__(self, root: Path) -> None:
        super().__init__(root, "symbiote", NAMES, ["dealer=last-seat"])
        self.report = self.report_path(1, "alice")
        self.run("alice", "orders", self.report, "--key", "alice.key", "-o", "orders.txt")


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def save_bytes(table: Table) -> bytes:
    return (table.root / "mod" / "game" / "save.json").read_bytes()


@pytest.mark.parametrize("command", ["check", "sign"])
def test_the_report_given_as_orders(table: Table, command: str) -> None:
    extra = ["-o", "signed.txt"] if command == "sign" else []
    result = table.run("alice", command, table.report, "--key", "alice.key", *extra, code=1)
    assert f"{table.report} is a player's turn report, not an order form" in result.output
    assert f"pbem orders {table.report} --key YOUR.key -o orders.txt" in result.output
    assert "sealed" not in result.output
    assert not (table.root / "alice" / "signed.txt").exists()


def test_the_moderator_submits_a_report_or_an_unsigned_form(table: Table) -> None:
    before = save_bytes(table)
    (table.root / "mod" / "form.txt").write_bytes((table.root / "alice" / "orders.txt").read_bytes())
    result = table.run("mod", "submit", "game", table.report, "--key", "mod.key", code=1)
    assert "is a player's turn report, not a signed order file" in result.output
    result = table.run("mod", "submit", "game", "form.txt", "--key", "mod.key", code=1)
    assert "form.txt is an order form, not a signed order file" in result.output
    assert "pbem sign form.txt --key YOUR.key -o signed.txt" in result.output
    assert save_bytes(table) == before


def test_the_form_given_as_a_report(table: Table) -> None:
    result = table.run("alice", "read", "orders.txt", "--key", "alice.key", code=1)
    assert "orders.txt is an order form, not a player's turn report" in result.output
    assert "pbem check orders.txt --key YOUR.key" in result.output


def test_the_secret_key_given_as_orders(table: Table) -> None:
    result = table.run("alice", "check", "alice.key", "--key", "alice.key", code=1)
    assert "alice.key is a secret identity file, not an order form" in result.output
    assert "keep it private" in result.output


def test_the_report_given_as_the_key(table: Table) -> None:
    result = table.run("alice", "read", table.report, "--key", table.report, code=2)
    assert f"{table.report} is a player's turn report, not a secret identity file" in result.output
    assert "chmod" not in result.output


def test_the_secret_key_given_as_a_card(table: Table) -> None:
    alice_key = str(table.root / "alice" / "alice.key")
    result = table.run(
        "mod", "new", "symbiote", "game2", "--moderator-key", "mod.key",
        f"--player=alice={alice_key}", *(f"--player={n}={table.root / n / n}.pub" for n in NAMES[1:]),
        code=2,
    )  # fmt: skip
    assert f"{alice_key} is a secret identity file, not a public key card" in result.output
    assert "the public card made with it is the .pub file" in result.output
    assert not (table.root / "mod" / "game2").exists()
    result = table.run(
        "alice", "read", table.report, "--key", "alice.key", "--moderator", "alice.key", code=2
    )
    assert "alice.key is a secret identity file, not a public key card" in result.output


def test_the_right_files_still_work(table: Table) -> None:
    table.run("alice", "check", "orders.txt", "--key", "alice.key")
    table.run("alice", "sign", "orders.txt", "--key", "alice.key", "-o", "signed.txt")
    result = table.run("mod", "submit", "game", str(table.root / "alice" / "signed.txt"), "--key", "mod.key")
    assert "accepted" in result.output
