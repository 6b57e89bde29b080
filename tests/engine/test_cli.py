"""The pbem command line: every command of pbem/cli.py, its exit codes (0 ok, 1 rejected,
2 usage) and what it prints."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity
from pbem.player import bot_orders
from pbem.reports import parse_report
from pbem.rng import Rng
from pbem.wording import name_seats

from .conftest import PLAYERS


@dataclass
class World:
    """Key files made with `pbem keygen`, and a place for games."""

    root: Path
    home: Path

    def key(self, name: str) -> str:
        return str(self.root / "keys" / f"{name}.key")

    def card(self, name: str) -> str:
        return str(self.root / "keys" / f"{name}.pub")

    def run(self, *args: str, stdin: str | None = None) -> Result:
        runner = CliRunner()
        return runner.invoke(main, list(args), input=stdin, env={"PBEM_HOME": str(self.home)})


def ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def fails(result: Result, code: int, *words: str) -> Result:
    assert result.exit_code == code, f"exit {result.exit_code}, wanted {code}\n{result.output}"
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        f"traceback instead of a message: {result.exception!r}"
    )
    for word in words:
        assert word in result.output, result.output
    return result


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("cli")
    w = World(root, root / "moderator-home")
    for name in ("moderator", "outsider", *PLAYERS):
        ok(w.run("keygen", name, "--out", str(root / "keys")))
    return w


def new_game(world: World, folder: Path) -> Path:
    players = [f"--player={n}={world.card(n)}" for n in PLAYERS]
    result = world.run(
        "new", "symbiote", str(folder), "--moderator-key", world.key("moderator"), *players, "--option",
        "dealer=last-seat",
    )  # fmt: skip
    ok(result)
    assert (
        f"created symbiote game {json.loads(folder.joinpath('save.json').read_text())['body']['game_id']}"
        in (result.output)
    )
    assert "awaiting orders from: alice" in result.output
    return folder


@pytest.fixture
def game(world: World, tmp_path: Path) -> Path:
    return new_game(world, tmp_path / "game")


def report_of(game: Path, name: str) -> Path:
    save = json.loads((game / "save.json").read_text())["body"]
    return game / "reports" / f"turn-{save['turn']:04d}" / f"{name}.txt"


def bot_lines(world: World, game: Path, name: str) -> list[str]:
    path = report_of(game, name)
    report = parse_report(path.read_text(), str(path), Identity.load(world.key(name)))
    return bot_orders(report, "greedy", Rng(b"cli-test"))


def fill_form(form: str, lines: list[str]) -> str:
    """A form as a player fills it: the suggested lines replaced by the player's orders."""
    keep = [
        line
        for line in form.splitlines()
        if not line.strip() or line.startswith("#") or ":" in line.split()[0] or line.startswith("Seal-To")
    ]
    return "\n".join([*keep, *lines]) + "\n"


def signed_orders(
    world: World, game: Path, tmp_path: Path, name: str, lines: list[str] | None = None, *extra: str
) -> Path:
    """Form, fill, check and sign through the CLI, as a player does; returns the sealed file."""
    form = tmp_path / f"{name}-form.txt"
    ok(world.run("orders", str(report_of(game, name)), "--key", world.key(name), "-o", str(form)))
    form.write_text(fill_form(form.read_text(), bot_lines(world, game, name) if lines is None else lines))
    signed = tmp_path / f"{name}-signed.txt"
    ok(world.run("sign", str(form), "--key", world.key(name), "-o", str(signed), *extra))
    return signed


# ---- the installed script ----------------------------------------------------------------------
def test_installed_script_help() -> None:
    script = shutil.which("pbem") or str(Path(sys.executable).parent / "pbem")
    if not os.path.exists(script):
        pytest.skip("the pbem script is not installed (pip install -e .)")
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "Usage: pbem" in done.stdout
    for command in ("keygen", "new", "submit", "advance", "verify", "demo"):
        assert command in done.stdout
    version = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert version.returncode == 0 and "version" in version.stdout


def test_usage_errors_exit_2(world: World) -> None:
    fails(world.run("no-such-command"), 2, "No such command")
    fails(world.run("status"), 2, "Missing argument")
    fails(world.run("submit", str(world.root)), 2, "Missing argument")
    fails(
        world.run("read", str(world.root / "nothing.txt"), "--key", world.key("alice")), 2, "does not exist"
    )


# ---- keys -----------------------------------------------------------------------------------------
def test_keygen(world: World, tmp_path: Path) -> None:
    result = ok(world.run("keygen", "dave", "--out", str(tmp_path)))
    assert (tmp_path / "dave.key").stat().st_mode & 0o777 == 0o600
    card = (tmp_path / "dave.pub").read_text()
    assert card in result.output and "keep it private" in result.output
    fails(world.run("keygen", "dave", "--out", str(tmp_path)), 2, "already exists", "never overwrites")
    fails(world.run("keygen", "bad name!", "--out", str(tmp_path)), 2, "invalid name")


def test_key_age_identity_and_public(world: World, tmp_path: Path) -> None:
    identity = Identity.load(world.key("alice"))
    result = ok(world.run("key", "age-identity", world.key("alice")))
    assert result.output.strip() == identity.age_identity_line()
    result = ok(world.run("key", "public", world.key("alice")))
    assert result.output == Path(world.card("alice")).read_text()
    loose = tmp_path / "loose.key"
    shutil.copy(world.key("alice"), loose)
    os.chmod(loose, 0o644)
    fails(world.run("key", "age-identity", str(loose)), 2, "readable by other users", f"chmod 600 {loose}")
    fails(world.run("key", "public", world.card("alice")), 2, "is a public key card, not an identity")


# ---- games and folders -----------------------------------------------------------------------
def test_games(world: World) -> None:
    result = ok(world.run("games"))
    assert "symbiote: Symbiote, 3-4 players." in result.output
    assert "--option dealer=random (one of random, last-seat)" in result.output


def test_new_refusals(world: World, tmp_path: Path) -> None:
    mod = ("--moderator-key", world.key("moderator"))
    two = [f"--player={n}={world.card(n)}" for n in PLAYERS[:2]]
    three = [*two, f"--player=carol={world.card('carol')}"]
    fails(world.run("new", "symbiote", str(tmp_path / "a"), *mod, *two), 2, "takes 3 to 4 players, got 2")
    fails(world.run("new", "chess", str(tmp_path / "a"), *mod, *three), 2, "no game called 'chess'")
    wrong = [*two, f"--player=carol={world.card('outsider')}"]
    fails(
        world.run("new", "symbiote", str(tmp_path / "a"), *mod, *wrong), 2, "is outsider's card, not carol's"
    )
    fails(
        world.run("new", "symbiote", str(tmp_path / "a"), *mod, *two, "--player", "carol"), 2, "NAME=CARD.pub"
    )
    bad_option = ("--option", "dealer=me")
    fails(
        world.run("new", "symbiote", str(tmp_path / "a"), *mod, *three, *bad_option), 2, "option dealer takes"
    )
    edited = tmp_path / "carol.pub"
    edited.write_text(Path(world.card("carol")).read_text().replace("Name: carol", "Name: carl"))
    bent = [*two, f"--player=carl={edited}"]
    fails(world.run("new", "symbiote", str(tmp_path / "a"), *mod, *bent), 1, "not self-signed correctly")
    assert not (tmp_path / "a" / "save.json").exists()
    new_game(world, tmp_path / "b")
    fails(world.run("new", "symbiote", str(tmp_path / "b"), *mod, *three), 2, "already holds a game")


def test_status(world: World, game: Path) -> None:
    result = ok(world.run("status", str(game)))
    assert "symbiote game" in result.output and "turn 1" in result.output
    assert "awaiting orders from: alice" in result.output
    info = json.loads(ok(world.run("status", str(game), "--json")).output)
    assert info["turn"] == 1 and info["awaiting"] == ["alice"] and info["submitted"] == []
    assert [p["name"] for p in info["players"]] == list(PLAYERS)
    assert info["outcome"] is None
    # A folder of game folders is a moderator's root: one line per game (issue 9 §4).
    overview = ok(world.run("status", str(game.parent)))
    assert overview.output.splitlines()[1].split()[:4] == [game.name, "symbiote", "1", "alice"]
    (game.parent / "empty").mkdir()
    fails(world.run("status", str(game.parent / "empty")), 2, "holds no pbem game")


def test_status_of_a_tampered_save(world: World, game: Path) -> None:
    save = game / "save.json"
    save.write_text(save.read_text().replace('"turn": 1', '"turn": 2'))
    fails(world.run("status", str(game)), 1, "changed after the moderator signed it", "what to do:")


def test_show(world: World, game: Path) -> None:
    doc = json.loads(ok(world.run("show", str(game), "--key", world.key("moderator"), "--json")).output)
    assert doc["players"] == list(PLAYERS) and doc["turn"] == 1 and doc["pending"] == {}
    hand = doc["state"]["hands"][0]
    text = ok(world.run("show", str(game), "--key", world.key("moderator"))).output
    assert "--- alice ---" in text and "--- table ---" in text
    assert all(card in text for card in hand)
    fails(world.run("show", str(game), "--key", world.key("outsider")), 1, "signed by moderator moderator")


# ---- a player's tools ------------------------------------------------------------------------
def test_read(world: World, game: Path) -> None:
    report = report_of(game, "alice")
    result = ok(world.run("read", str(report), "--key", world.key("alice")))
    hand = parse_report(report.read_text(), str(report), Identity.load(world.key("alice"))).private["hand"]
    assert all(card in result.output for card in hand)
    assert "BEGIN AGE ENCRYPTED FILE" not in result.output
    fails(world.run("read", str(report), "--key", world.key("bob")), 1, "cannot decrypt with bob's key")
    tampered = game.parent / "tampered.txt"
    lines = report.read_text().splitlines()
    at = lines.index("-----BEGIN PBEM REPORT DATA-----") + 1
    lines[at] = lines[at][:-4] + ("AAAA" if not lines[at].endswith("AAAA") else "BBBB")
    tampered.write_text("\n".join(lines) + "\n")
    fails(world.run("read", str(tampered), "--key", world.key("alice")), 1)


def test_orders_form(world: World, game: Path, tmp_path: Path) -> None:
    report = report_of(game, "alice")
    result = ok(world.run("orders", str(report), "--key", world.key("alice")))
    save = json.loads((game / "save.json").read_text())["body"]
    for line in (f"Game: {save['game_id']}", "Turn: 1", "Player: alice", "Seq: 1", "Seal-To: age1"):
        assert line in result.output
    out = tmp_path / "form.txt"
    ok(world.run("orders", str(report), "--key", world.key("alice"), "-o", str(out)))
    assert out.read_text() == result.output
    idle = ok(world.run("orders", str(report_of(game, "bob")), "--key", world.key("bob"))).output
    assert "awaits no orders from you" in idle
    public = report.parent / "public.txt"
    fails(world.run("orders", str(public), "--key", world.key("alice")), 2, "is the public report")
    fails(world.run("orders", str(report), "--key", world.key("bob")), 1, "cannot decrypt")


def test_check(world: World, game: Path, tmp_path: Path) -> None:
    report = str(report_of(game, "alice"))
    form = tmp_path / "form.txt"
    ok(world.run("orders", report, "--key", world.key("alice"), "-o", str(form)))
    lines = bot_lines(world, game, "alice")
    form.write_text(fill_form(form.read_text(), lines))
    result = ok(world.run("check", str(form), "--key", world.key("alice"), "--report", report))
    assert f"{len(lines)} order{'' if len(lines) == 1 else 's'}, all accepted by the rules" in result.output
    form.write_text(fill_form(form.read_text(), [*lines, "fly away"]))
    number = form.read_text().splitlines().index("fly away") + 1
    fails(
        world.run("check", str(form), "--key", world.key("alice"), "--report", report),
        1,
        f"{form}, line {number}: invalid order 'fly away'",
    )


def test_sign(world: World, game: Path, tmp_path: Path) -> None:
    report = str(report_of(game, "alice"))
    form = tmp_path / "form.txt"
    ok(world.run("orders", report, "--key", world.key("alice"), "-o", str(form)))
    lines = bot_lines(world, game, "alice")
    form.write_text(fill_form(form.read_text(), lines))
    sealed = ok(world.run("sign", str(form), "--key", world.key("alice"))).stdout  # notes go to stderr
    assert sealed.startswith("-----BEGIN AGE ENCRYPTED FILE-----")
    plain = ok(world.run("sign", str(form), "--key", world.key("alice"), "--no-seal")).stdout
    assert plain.startswith("-----BEGIN PBEM ORDERS-----") and all(line in plain for line in lines)
    signed = tmp_path / "signed.txt"
    signed.write_text(plain)
    result = ok(world.run("check", str(signed), "--key", world.key("alice"), "--report", report))
    assert "all accepted" in result.output
    sealed_file = tmp_path / "sealed.txt"
    sealed_file.write_text(sealed)
    fails(
        world.run("check", str(sealed_file), "--key", world.key("alice"), "--report", report),
        1,
        "is sealed to the moderator",
        "--no-seal",
    )
    fails(world.run("sign", str(form), "--key", world.key("bob")), 1, "is an order form of alice")
    fails(world.run("sign", str(signed), "--key", world.key("alice")), 1, "already signed")


# ---- the moderator ----------------------------------------------------------------------------
def test_submit(world: World, game: Path, tmp_path: Path) -> None:
    mod = ("--key", world.key("moderator"))
    signed = signed_orders(world, game, tmp_path, "alice")
    result = ok(world.run("submit", str(game), str(signed), *mod))
    assert "accepted: orders of alice for turn 1 (seq 1)" in result.output
    assert "all orders are in: ready to advance" in result.output
    before = (game / "save.json").read_bytes()
    result = fails(world.run("submit", str(game), str(signed), *mod), 1, "rejected", "already accepted")
    assert (game / "save.json").read_bytes() == before
    # several files: the good one is taken, the bad one named, exit 1
    bob = signed_orders(world, game, tmp_path, "bob", None, "--no-check")  # sign would refuse it
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("hello\n")
    form = tmp_path / "replace.txt"
    form.write_text(
        fill_form(
            ok(world.run("orders", str(report_of(game, "alice")), "--key", world.key("alice"))).output,
            bot_lines(world, game, "alice"),
        ).replace("Seq: 1", "Seq: 2")
    )
    again = tmp_path / "again.txt"
    ok(world.run("sign", str(form), "--key", world.key("alice"), "-o", str(again)))
    result = world.run("submit", str(game), str(garbage), str(bob), str(again), *mod)
    fails(result, 1, f"rejected {garbage}: no signed order block", "bob owes no orders")
    assert "replaced: orders of alice for turn 1 (seq 2)" in result.output
    fails(world.run("submit", str(game), str(signed), world.key("alice")), 2, "Missing option")


def test_advance(world: World, game: Path, tmp_path: Path) -> None:
    mod = ("--key", world.key("moderator"))
    fails(world.run("advance", str(game), *mod), 1, "turn 1 still awaits orders from alice", "what to do:")
    ok(world.run("submit", str(game), str(signed_orders(world, game, tmp_path, "alice")), *mod))
    before = (game / "save.json").read_bytes()
    preview = ok(world.run("advance", str(game), *mod, "--preview"))
    assert "preview only, nothing written" in preview.output
    assert (game / "save.json").read_bytes() == before
    result = ok(world.run("advance", str(game), *mod))
    assert preview.output.replace("preview only, nothing written:\n", "") in result.output
    status = json.loads(ok(world.run("status", str(game), "--json")).output)
    assert status["turn"] == 2
    assert f"turn 2: awaiting {', '.join(status['awaiting'])}" in result.output
    assert "reports written to" in result.output
    for how in ("default", "greedy", "random"):
        waiting = json.loads(ok(world.run("status", str(game), "--json")).output)["awaiting"]
        result = ok(world.run("advance", str(game), *mod, "--fill", how))
        assert f"orders filled in ({how}) for: {', '.join(waiting)}" in result.output
    fails(world.run("advance", str(game), *mod, "--fill", "magic"), 2, "Invalid value for '--fill'")
    fails(world.run("advance", str(game), "--key", world.key("outsider")), 1, "signed by moderator moderator")


def test_demo_and_verify(world: World, tmp_path: Path, game: Path) -> None:
    out = tmp_path / "demo"
    result = ok(world.run("demo", "symbiote", "--players", "3", "--seed", "3", "--out", str(out)))
    assert "Symbiote over after" in result.output and " won (" in result.output
    save = json.loads((out / "game" / "save.json").read_text())["body"]
    assert save["outcome"] is not None
    verified = ok(world.run("verify", str(out / "game")))
    assert f"verified: {len(save['replay'])} turns re-played" in verified.output
    fails(world.run("verify", str(game)), 2, "is not over")
    status = ok(world.run("status", str(out / "game"))).output
    names = [p["card"]["name"] for p in save["players"]]
    assert f"game over: {name_seats(save['outcome']['summary'], names)}" in status
    assert not re.search(r"\b(player|seat) \d", status)
    info = json.loads(ok(world.run("status", str(out / "game"), "--json")).output)
    assert info["outcome"]["winners"] == save["outcome"]["winners"] and info["awaiting"] == []
    assert info["outcome"]["won_by"] == [names[w] for w in save["outcome"]["winners"]]
    mod = str(out / "keys" / "moderator.key")
    fails(world.run("advance", str(out / "game"), "--key", mod), 2, "is over")
    fails(world.run("demo", "symbiote", "--out", str(out)), 2, "is not empty")
    fails(
        world.run("demo", "symbiote", "--bots", "genius", "--out", str(tmp_path / "d2")), 2, "no bot 'genius'"
    )
    fails(world.run("demo", "symbiote", "--players", "9", "--out", str(tmp_path / "d3")), 2, "takes 3 to 4")
    fails(world.run("demo", "chess", "--out", str(tmp_path / "d4")), 2, "no game called 'chess'")
    fails(world.run("demo", "symbiote", "--option", "dealer", "--out", str(tmp_path / "d5")), 2, "NAME=VALUE")
