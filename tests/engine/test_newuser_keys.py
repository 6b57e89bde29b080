"""A new user's mistake: checking or signing a player's orders with another player's key
file (two keys in one folder, a typo).  ``pbem check`` used to answer with a message about
the other player's kept report copy (a path inside $PBEM_HOME, "cannot decrypt"), with "no
report ... has been opened here" on another machine, or, for a signed file, "the signature
does not match" with advice to sign again with the wrong key; ``pbem sign`` said whose form
it was but not what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main

NAMES = ("alice", "bob", "carol")


class Table:
    """Key files in one folder, a Symbiote game in which alice plays first, one home each."""

    def __init__(self, root: Path) -> None:
        self.root = root
        for name in (*NAMES, "mod"):
            self.run("mod", "keygen", name, "--out", str(root))
        cards = [f"--player={n}={root / n}.pub" for n in NAMES]
        mod = ("--moderator-key", str(root / "mod.key"))
        self.run("mod", "new", "symbiote", str(root / "game"), *mod, *cards, "--option", "dealer=last-seat")
        self.report = str(root / "game" / "reports" / "turn-0001" / "alice.txt")
        self.form = root / "form.txt"
        self.run("alice", "orders", self.report, "--key", self.key("alice"), "-o", str(self.form))
        assert self.form.read_text().endswith("\ndraw\n")  # the form's own suggestion, left as it is

    def key(self, name: str) -> str:
        return str(self.root / f"{name}.key")

    def run(self, home: str, *args: str, code: int = 0) -> Result:
        result = CliRunner().invoke(main, list(args), env={"PBEM_HOME": str(self.root / f"home-{home}")})
        assert result.exit_code == code, result.output
        return result


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return Table(tmp_path_factory.mktemp("newuser-keys"))


def _names_both_and_what_to_do(output: str) -> None:
    assert "of alice (its Player: line), and your key is bob's" in output, output
    assert "--key alice.key" in output and "pbem orders REPORT --key bob.key" in output, output
    assert "home-" not in output and "cannot decrypt" not in output, output  # no kept copy's path


def test_check_with_another_players_key_on_the_same_machine(table: Table) -> None:
    result = table.run("alice", "check", str(table.form), "--key", table.key("bob"), code=1)
    _names_both_and_what_to_do(result.output)
    assert "is an order form of alice" in result.output


def test_check_with_another_players_key_on_another_machine(table: Table) -> None:
    result = table.run("bob", "check", str(table.form), "--key", table.key("bob"), code=1)
    _names_both_and_what_to_do(result.output)
    assert "has been opened here" not in result.output


def test_check_a_signed_file_with_another_players_key(table: Table, tmp_path: Path) -> None:
    signed = tmp_path / "signed.txt"
    table.run("alice", "sign", str(table.form), "--key", table.key("alice"), "--no-seal", "-o", str(signed))
    result = table.run("alice", "check", str(signed), "--key", table.key("bob"), code=1)
    _names_both_and_what_to_do(result.output)
    assert "is a signed order file of alice" in result.output and "signature" not in result.output


def test_sign_with_another_players_key_says_what_to_do(table: Table, tmp_path: Path) -> None:
    out = tmp_path / "signed.txt"
    result = table.run("alice", "sign", str(table.form), "--key", table.key("bob"), "-o", str(out), code=1)
    _names_both_and_what_to_do(result.output)
    assert not out.exists()


def test_the_right_key_still_checks(table: Table) -> None:
    result = table.run("alice", "check", str(table.form), "--key", table.key("alice"))
    assert "1 order, all accepted" in result.output
