"""Bad input through the real command line: a clear message and exit 1 or 2, never a
traceback, and nothing changed on disk (issue 8 "Everything else found", issue 9 §5).

Each trigger found by the red-team pass has its own test; hypothesis then fuzzes save files,
signed saves of odd structure, report data blocks, key cards and identity files and order
files through the same entry points.  Fuzz sizes are small for CI; set PBEM_FUZZ_EXAMPLES
for a longer run.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.cli import main
from pbem.errors import BUG_EXIT, FormatError, PbemError
from pbem.keys import REPORT_DOMAIN, Identity
from pbem.reports import DATA_BEGIN, DATA_END, DATA_SIG
from pbem.rng import commitment
from pbem.save import encode

PLAYERS = ("alice", "bob", "carol")
FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0"))


def examples(ci: int) -> Any:
    """Hypothesis settings: ``ci`` examples, or PBEM_FUZZ_EXAMPLES when it is set."""
    return settings(
        max_examples=FUZZ or ci,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


# ---- a game to break --------------------------------------------------------------------------
@dataclass
class Table:
    """Key files and a pristine Symbiote game folder, copied for each case."""

    root: Path

    def key(self, name: str) -> str:
        return str(self.root / "keys" / f"{name}.key")

    def card(self, name: str) -> str:
        return str(self.root / "keys" / f"{name}.pub")

    @property
    def pristine(self) -> Path:
        return self.root / "pristine"

    def copy(self, where: Path) -> Path:
        """A fresh copy of the game in ``where``/game, with its own PBEM_HOME."""
        if where.exists():
            shutil.rmtree(where)
        shutil.copytree(self.pristine, where / "game", symlinks=True)
        (where / "home").mkdir()
        return where / "game"

    def report(self, game: Path, name: str = "alice") -> Path:
        return game / "reports" / "turn-0001" / f"{name}.txt"


def run(home: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env={"PBEM_HOME": str(home), **(env or {})})


def snapshot(*roots: Path) -> dict[str, bytes | str]:
    """Every file and link under ``roots``: what "nothing changed" compares."""
    seen: dict[str, bytes | str] = {}
    for root in roots:
        for path in sorted(root.rglob("*")) if root.exists() else []:
            if path.is_symlink():
                seen[str(path)] = f"-> {os.readlink(path)}"
            elif path.is_file():
                seen[str(path)] = path.read_bytes()
            elif path.is_dir():
                seen[str(path)] = "dir"
    return seen


def refused(result: Result, codes: tuple[int, ...] = (1, 2), *words: str) -> str:
    """Assert a clear refusal: an expected exit code, a message, no traceback."""
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        f"traceback instead of a message: {result.exception!r}\n{result.output}"
    )
    assert result.exit_code in codes, f"exit {result.exit_code}, wanted {codes}\n{result.output[:2000]}"
    assert "Traceback" not in result.output and "this is a bug" not in result.output, result.output
    assert result.output.strip().startswith(("pbem", "Usage", "Error", "rejected")), result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


def calm(result: Result) -> None:
    """Any outcome but a traceback or the last-resort net (for fuzzed input that may be valid)."""
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        f"traceback instead of a message: {result.exception!r}\n{result.output}"
    )
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}\n{result.output}"
    assert "this is a bug" not in result.output, result.output


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("robust")
    t = Table(root)
    (root / "keys").mkdir()
    for name in ("moderator", *PLAYERS, "mallory"):
        identity = Identity.generate(name)
        identity.save(root / "keys" / f"{name}.key")
        (root / "keys" / f"{name}.pub").write_text(identity.public().to_text(), encoding="utf-8")
    players = [f"--player={n}={t.card(n)}" for n in PLAYERS]
    made = run(
        root / "home", "new", "symbiote", str(t.pristine), "--moderator-key", t.key("moderator"), *players
    )
    assert made.exit_code == 0, made.output
    return t


@pytest.fixture
def game(table: Table, tmp_path: Path) -> Path:
    return table.copy(tmp_path / "case")


def _moderator_commands(table: Table, game: Path) -> list[list[str]]:
    mod = table.key("moderator")
    return [
        ["status", str(game)],
        ["verify", str(game)],
        ["show", str(game), "--key", mod],
        ["advance", str(game), "--key", mod],
        ["publish", str(game), "--key", mod],
        ["submit", str(game), str(table.report(table.pristine)), "--key", mod],
        ["preview", str(game), "--key", mod],
        ["pause", str(game), "--key", mod, "--state-dir", str(game.parent / "state")],
    ]


# ---- the triggers of issue 8, one test each ---------------------------------------------------
SAVE_DAMAGE: dict[str, Callable[[Path], object]] = {
    "a folder": lambda p: p.mkdir(),
    "a symlink loop": lambda p: p.symlink_to(p),
    "a FIFO": lambda p: os.mkfifo(p),
    "not UTF-8": lambda p: p.write_bytes(b'{"format": "caf\xe9\xff"}'),
    "nested 100,000 deep": lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
    "a 5000-digit number": lambda p: p.write_text('{"format": 1' + "0" * 5000 + "}"),
    "empty": lambda p: p.write_bytes(b""),
}
SAVE_WORDS = {
    "a folder": "it is a folder",
    "a symlink loop": "loop of symbolic links",
    "a FIFO": "not a regular file",
    "not UTF-8": "not valid JSON",
    "nested 100,000 deep": "nested more than 64 deep",
    "a 5000-digit number": "(5001 digits) is beyond 2**53 - 1",
    "empty": "not valid JSON",
}


@pytest.mark.parametrize("damage", list(SAVE_DAMAGE))
def test_a_damaged_save_is_refused_by_every_command(table: Table, game: Path, damage: str) -> None:
    save = game / "save.json"
    save.unlink()
    SAVE_DAMAGE[damage](save)
    before = snapshot(game, game.parent / "home")
    for args in _moderator_commands(table, game):
        out = refused(run(game.parent / "home", *args))
        if args[0] not in ("preview", "pause"):  # these two say "holds no pbem game" of any damage
            assert SAVE_WORDS[damage] in out, (args, out)
    after = snapshot(game, game.parent / "home")
    assert {k: v for k, v in after.items() if ".pbem-lock" not in k} == {
        k: v for k, v in before.items() if ".pbem-lock" not in k
    }


INPUT_DAMAGE: dict[str, Callable[[Path], object]] = {
    "a folder": lambda p: p.mkdir(),
    "a symlink loop": lambda p: p.symlink_to(p),
    "a FIFO": lambda p: os.mkfifo(p),
    "not UTF-8": lambda p: p.write_bytes(b"Game: 1\ncaf\xe9\n"),
    "nested JSON": lambda p: p.write_text("[" * 50_000),
    "a 5000-digit number": lambda p: p.write_text("Seq: " + "9" * 5000 + "\n"),
}


@pytest.mark.parametrize("damage", list(INPUT_DAMAGE))
def test_a_damaged_input_file_is_refused(table: Table, game: Path, damage: str) -> None:
    bad = game.parent / "input.txt"
    INPUT_DAMAGE[damage](bad)
    home = game.parent / "home"
    player = table.key("alice")
    mod = table.key("moderator")
    report = str(table.report(game))
    before = snapshot(game)
    lines = [
        ["read", str(bad), "--key", player],
        ["orders", str(bad), "--key", player],
        ["check", str(bad), "--key", player],
        ["check", str(bad), "--key", player, "--report", str(bad)],
        ["sign", str(bad), "--key", player],
        ["open", str(bad), "--key", player],
        ["submit", str(game), str(bad), "--key", mod],
        ["read", report, "--key", str(bad)],
        ["read", report, "--key", player, "--moderator", str(bad)],
        ["status", str(game), "--moderator", str(bad)],
        ["key", "public", str(bad)],
        ["new", "symbiote", str(game.parent / "n"), "--moderator-key", str(bad), "--player", f"a={bad}"],
    ]
    for args in lines:
        if args[0] == "open" and damage in ("nested JSON", "a 5000-digit number"):
            continue  # any UTF-8 text opens: text with nothing encrypted in it is shown as it is
        refused(run(home, *args))
    assert snapshot(game) == before
    assert not (game.parent / "n").exists()


def test_a_non_utf8_order_file_is_rejected_with_exit_1(table: Table, game: Path) -> None:
    bad = game.parent / "orders.txt"
    bad.write_bytes(b"Game: 1\nTurn: 1\ndraw caf\xe9\n")
    out = refused(
        run(game.parent / "home", "submit", str(game), str(bad), "--key", table.key("moderator")), (1,)
    )
    assert "not UTF-8 text: line 3 holds the bytes e9 0a" in out
    out = refused(run(game.parent / "home", "check", str(bad), "--key", table.key("alice")), (1,))
    assert "save the file as UTF-8" in out


def test_open_on_non_utf8_text(table: Table, tmp_path: Path) -> None:
    bad = tmp_path / "notice.txt"
    bad.write_bytes(b"\xff\xfe not text")
    refused(run(tmp_path, "open", str(bad), "--key", table.key("alice")), (1,), "not UTF-8 text: line 1")


def test_output_into_a_missing_folder(table: Table, game: Path) -> None:
    target = game.parent / "no" / "such" / "form.txt"
    out = refused(
        run(
            game.parent / "home",
            "orders",
            str(table.report(game)),
            "--key",
            table.key("alice"),
            "-o",
            str(target),
        ),
        (2,),
    )
    assert "does not exist" in out and "create the folder first" in out
    assert not (game.parent / "no").exists()


def test_a_forged_report_with_a_deeply_nested_data_block(table: Table, game: Path) -> None:
    report = table.report(game)
    text = report.read_text(encoding="utf-8")
    head = text[: text.index(DATA_BEGIN)]
    raw = ("[" * 5000 + "]" * 5000).encode()
    block = "\n".join([DATA_BEGIN, base64.b64encode(raw).decode(), DATA_SIG, "AAAA", DATA_END])
    report.write_text(head + block + "\n", encoding="utf-8")
    home = game.parent / "home"
    for command in ("read", "orders"):
        refused(run(home, command, str(report), "--key", table.key("alice")), (1,), "nested more than 64")


def test_a_5000_digit_option(table: Table, tmp_path: Path) -> None:
    players = [f"--player={n}={table.card(n)}" for n in PLAYERS[:2]]
    out = refused(
        run(
            tmp_path,
            "new",
            "symbioz",
            str(tmp_path / "g"),
            "--moderator-key",
            table.key("moderator"),
            *players,
            "--option",
            "points=" + "9" * 5000,
        ),
        (2,),
    )
    assert "takes a whole number" in out and "(5,000 characters)" in out
    assert not (tmp_path / "g").exists()


# ---- signed saves of odd structure --------------------------------------------------------------
def _resign(table: Table, game: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``change`` to the save's body and sign it with the game's own moderator key, as
    a buggy program holding that key would (also as the folder's first history file)."""
    body = json.loads((game / "save.json").read_text(encoding="utf-8"))["body"]
    change(body)
    data = encode(body, Identity.load(table.key("moderator")))
    (game / "save.json").write_bytes(data)
    (game / "history" / "rev-000000.json").write_bytes(data)


SEED = b"\x01" * 32


def _over(body: dict[str, Any], replay: Any) -> None:
    body.update(
        outcome={"winners": [0], "scores": [1, 2, 3], "summary": "done"},
        seed=SEED.hex(),
        seed_commitment=commitment(SEED),
        replay=replay,
    )


def _winner_out_of_range(body: dict[str, Any]) -> None:
    _over(body, [])
    body["outcome"]["winners"] = [7]


def _seed_not_hex(body: dict[str, Any]) -> None:
    _over(body, [])
    body["seed"] = "zz"


def _seed_missing(body: dict[str, Any]) -> None:
    _over(body, [])
    body["seed"] = None


ODD: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a player entry that is text": (
        lambda b: b["players"].__setitem__(0, "x"),
        "body.players[0] must be an object",
    ),
    "a player without a card": (lambda b: b["players"][0].pop("card"), "body.players[0] lacks ['card']"),
    "an empty card": (lambda b: b["players"][0].__setitem__("card", {}), "body.players[0].card lacks"),
    "an unknown status": (lambda b: b["players"][1].__setitem__("status", "zombie"), "status must be one of"),
    "no players": (lambda b: b.__setitem__("players", []), "must list 1 to 64 seats"),
    "an awaited seat out of range": (lambda b: b.__setitem__("awaiting", [99]), "body.awaiting[0] must be"),
    "an awaited seat as text": (lambda b: b.__setitem__("awaiting", ["a"]), "body.awaiting[0] must be"),
    "a submitted seat out of range": (lambda b: b.__setitem__("submitted", [3]), "body.submitted[0]"),
    "a sequence number as text": (lambda b: b.__setitem__("seq", {"alice": "x"}), "body.seq.alice"),
    "an event that is a number": (lambda b: b.__setitem__("events", [5]), "body.events[0] must be an object"),
    "a winner out of range": (_winner_out_of_range, "body.outcome.winners[0]"),
    "turn zero": (lambda b: b.__setitem__("turn", 0), "body.turn must be a whole number from 1"),
    "an option that is a list": (lambda b: b["options"].__setitem__("x", [1]), "body.options.x"),
    "a seed that is not hex": (_seed_not_hex, "body.seed is not"),
    "an outcome without its seed": (_seed_missing, "must both be set"),
    "a replay entry that is a number": (lambda b: _over(b, [1]), "body.replay[0] must be an object"),
    "a replay entry without orders": (lambda b: _over(b, [{"turn": 1}]), "body.replay[0] lacks ['orders']"),
    "replayed orders that are text": (
        lambda b: _over(b, [{"turn": 1, "orders": "x"}]),
        "body.replay[0].orders",
    ),
    "a replayed seat that is no seat": (
        lambda b: _over(b, [{"turn": 1, "orders": {"x": []}}]),
        "names seat 'x'",
    ),
    "a huge written time": (lambda b: b.__setitem__("written", "x" * 1000), "body.written is not a time"),
    "a game id that is a path": (lambda b: b.__setitem__("game_id", "../../x"), "body.game_id is not"),
}


@pytest.mark.parametrize("odd", list(ODD))
def test_a_signed_save_of_odd_structure(table: Table, game: Path, odd: str) -> None:
    change, words = ODD[odd]
    _resign(table, game, change)
    home = game.parent / "home"
    before = snapshot(game, home)
    for args in _moderator_commands(table, game):
        refused(run(home, *args), (1,), words)
    after = snapshot(game, home)
    assert {k: v for k, v in after.items() if ".pbem-lock" not in k} == {
        k: v for k, v in before.items() if ".pbem-lock" not in k
    }


@pytest.mark.parametrize("other", ["symbioz", "jovian-syzygy"])
def test_a_signed_save_of_another_games_position(table: Table, game: Path, other: str) -> None:
    """A save re-signed with the moderator's own key but naming another game over this
    game's position: every command that runs the game's code on it refuses it, naming the
    save, instead of the last-resort net."""
    _resign(table, game, lambda b: b.__setitem__("game", other))
    home = game.parent / "home"
    before = snapshot(game, home)
    commands = [args for args in _moderator_commands(table, game) if args[0] not in ("verify", "pause")]
    for args in commands:
        refused(run(home, *args), (1,), f"the save says this is a {other} game", "history/")
    after = snapshot(game, home)
    assert {k: v for k, v in after.items() if ".pbem-lock" not in k} == {
        k: v for k, v in before.items() if ".pbem-lock" not in k
    }


@pytest.mark.parametrize(
    "orders",
    [{"0": ["garbage"]}, {"0": {"take": [1, "y"]}}, {"2": None}, {"1": {"x": {"y": {"z": []}}}}],
)
def test_verify_refuses_replayed_orders_the_game_cannot_take(table: Table, game: Path, orders: Any) -> None:
    _resign(table, game, lambda b: _over(b, [{"turn": 1, "orders": orders}]))
    out = refused(run(game.parent / "home", "verify", str(game)), (1,))
    assert "re-playing turn 1: the game refused the published data" in out or "does not reach" in out


def test_verify_on_an_unfinished_game_and_advance_on_a_finished_one(
    table: Table, game: Path, tmp_path: Path
) -> None:
    out = refused(run(game.parent / "home", "verify", str(game)), (2,), "is not over")
    assert "run pbem verify after the game has ended" in out
    demo = tmp_path / "demo"
    assert run(tmp_path, "demo", "symbioz", "--players", "2", "--out", str(demo)).exit_code == 0
    out = refused(
        run(
            demo / ".moderator", "advance", str(demo / "game"), "--key", str(demo / "keys" / "moderator.key")
        ),
        (2,),
        "is over: there is no turn to advance",
    )
    assert "pbem verify" in out


# ---- the last-resort net ------------------------------------------------------------------------
def test_an_unexpected_exception_is_one_line_and_exit_3(
    table: Table, game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbem.engine

    def boom(*_: Any, **__: Any) -> Any:
        raise KeyError("players")

    monkeypatch.setattr(pbem.engine.GameFolder, "read", boom)
    result = run(game.parent / "home", "status", str(game))
    assert result.exit_code == BUG_EXIT == 3
    lines = result.output.strip().splitlines()
    assert lines == [
        "pbem status: unexpected error (KeyError: 'players'); this is a bug: please report it "
        "(run again with PBEM_DEBUG=1 for the details)"
    ]
    debug = run(game.parent / "home", "status", str(game), env={"PBEM_DEBUG": "1"})
    assert isinstance(debug.exception, KeyError)


def test_pbem_errors_keep_their_codes(table: Table, game: Path) -> None:
    refused(run(game.parent / "home", "status", str(game.parent / "nothing")), (2,))
    refused(run(game.parent / "home", "rules", "chess"), (2,), "no game called 'chess'")


# ---- help and rules -------------------------------------------------------------------------------
def test_help_groups_commands_and_says_whose_key(tmp_path: Path) -> None:
    out = run(tmp_path, "--help").output
    sections = ["Players:", "Moderators, one game:", "Moderators, running games unattended:", "Anyone:"]
    assert [out.index(s) for s in sections] == sorted(out.index(s) for s in sections)
    assert "Other:" not in out and "Exit codes: 0 success, 1 rejected input, 2 usage, 3 a bug" in out
    players = out[out.index("Players:") : out.index("Moderators, one game:")]
    assert all(f"  {c} " in players for c in ("read", "orders", "check", "sign", "open", "keygen"))
    assert "Your own secret identity file" in run(tmp_path, "sign", "--help").output
    for command in ("advance", "submit", "show", "publish", "preview", "rollback"):
        assert "The moderator's secret identity file" in run(tmp_path, command, "--help").output, command
    assert "[default: 7]" in run(tmp_path, "demo", "--help").output
    assert "[default: none]" in run(tmp_path, "advance", "--help").output


def test_rules_prints_the_game_readme(tmp_path: Path) -> None:
    for game, folder in (
        ("symbiote", "symbiote"),
        ("jovian-syzygy", "jovian_syzygy"),
        ("symbioz", "symbioz"),
    ):
        result = run(tmp_path, "rules", game)
        assert result.exit_code == 0
        readme = Path(__file__).parents[2] / "games" / folder / "README.md"
        assert result.output == readme.read_text(encoding="utf-8")


# ---- the demo ------------------------------------------------------------------------------------
def test_two_demos_with_the_same_seed_play_the_same_game_and_both_read(tmp_path: Path) -> None:
    home = tmp_path / "player-home"
    for out in ("one", "two"):
        result = run(home, "demo", "symbioz", "--players", "2", "--seed", "7", "--out", str(tmp_path / out))
        assert result.exit_code == 0, result.output
    ids = []
    for out in ("one", "two"):
        report = tmp_path / out / "game" / "reports" / "turn-0002" / "alice.txt"
        read = run(home, "read", str(report), "--key", str(tmp_path / out / "keys" / "alice.key"))
        assert read.exit_code == 0, read.output  # the second is not "a forged report"
        ids.append(json.loads((tmp_path / out / "game" / "save.json").read_text())["body"]["game_id"])
    assert ids[0] != ids[1]
    one, two = (
        json.loads((tmp_path / out / "game" / "save.json").read_text())["body"] for out in ("one", "two")
    )
    assert one["public"] == two["public"] and one["replay"] == two["replay"]  # the same play


def test_a_failed_demo_leaves_nothing_behind(tmp_path: Path) -> None:
    from pbem.demo import run_demo
    from pbem.errors import UsageError

    absent, empty = tmp_path / "absent", tmp_path / "empty"
    empty.mkdir()
    for out in (absent, empty):
        with pytest.raises(UsageError, match="did not end within 1 turns"):
            run_demo("symbioz", 2, 7, out, ["greedy"], {}, max_turns=1)
        assert not absent.exists() and list(empty.iterdir()) == []
    keep = tmp_path / "busy"
    keep.mkdir()
    (keep / "mine.txt").write_text("precious")
    refused(run(tmp_path, "demo", "symbioz", "--out", str(keep)), (2,), "is not empty")
    assert [p.name for p in keep.iterdir()] == ["mine.txt"]


def test_the_demo_says_how_far_it_is(tmp_path: Path) -> None:
    from pbem.demo import run_demo

    ticks = iter(range(0, 10_000, 2))  # every reading of the clock is two seconds later
    said: list[str] = []
    run_demo("symbioz", 2, 7, tmp_path / "d", ["greedy"], {}, progress=said.append, timer=lambda: next(ticks))
    turns = [line for line in said if line.strip().startswith("turn ")]
    assert turns and turns[0].strip().startswith("turn 1 (0 resolved")


# ---- fuzzing ------------------------------------------------------------------------------------
NASTY = st.sampled_from(
    [b"\xff", b"\x00", b"[" * 200, b"9" * 5000, b"\xef\xbb\xbf", b'"\\ud800"', b"-", b"{}", b"null", b"1e999"]
)


@examples(25)
@given(data=st.data())
def test_fuzz_save_bytes(table: Table, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    game = table.copy(tmp_path_factory.mktemp("fz"))
    raw = bytearray((game / "save.json").read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        how = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if how == "flip" and at < len(raw):
            raw[at] ^= data.draw(st.integers(1, 255))
        elif how == "cut":
            del raw[at : at + data.draw(st.integers(1, 500))]
        else:
            raw[at:at] = data.draw(NASTY)
    assume(bytes(raw) != (table.pristine / "save.json").read_bytes())
    (game / "save.json").write_bytes(bytes(raw))
    before = snapshot(game)
    for args in (
        ["status", str(game)],
        ["verify", str(game)],
        ["show", str(game), "--key", table.key("moderator")],
    ):
        calm(run(game.parent / "home", *args))  # a cut in the indentation leaves a valid save
    assert {k: v for k, v in snapshot(game).items() if ".pbem-lock" not in k} == {
        k: v for k, v in before.items() if ".pbem-lock" not in k
    }


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
BODY_PATHS = [
    ("players", 0), ("players", 0, "card"), ("players", 0, "status"), ("players", 1, "card", "name"),
    ("awaiting",), ("awaiting", 0), ("submitted",), ("seq",), ("seq", "alice"), ("events",), ("outcome",),
    ("turn",), ("revision",), ("options",), ("seed",), ("replay",), ("prev",), ("written",),
    ("seed_commitment",), ("moderator", "name"), ("game_id",),
]  # fmt: skip


def _set(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target: Any = body
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


@examples(40)
@given(path=st.sampled_from(BODY_PATHS), value=JSON_VALUES, finished=st.booleans())
def test_fuzz_signed_save_structure(
    table: Table, tmp_path_factory: pytest.TempPathFactory, path: tuple[Any, ...], value: Any, finished: bool
) -> None:
    game = table.copy(tmp_path_factory.mktemp("fz"))

    def change(body: dict[str, Any]) -> None:
        if finished:
            _over(body, [{"turn": 1, "orders": {"0": ["draw"]}}])
        _set(body, path, value)

    _resign(table, game, change)
    before = snapshot(game)
    home = game.parent / "home"
    for args in (
        ["status", str(game)],
        ["verify", str(game)],
        ["show", str(game), "--key", table.key("moderator")],
    ):
        calm(run(home, *args))
    assert {k: v for k, v in snapshot(game).items() if ".pbem-lock" not in k} == {
        k: v for k, v in before.items() if ".pbem-lock" not in k
    }


def _forge_report(text: str, data: dict[str, Any], signer: Identity) -> str:
    """``text`` with its data block replaced by ``data`` signed by ``signer``."""
    head = text[: text.index(DATA_BEGIN)]
    raw = canonical.dumps(data)
    sig = base64.b64encode(signer.sign(REPORT_DOMAIN, raw)).decode()
    wrap = lambda s: [s[i : i + 64] for i in range(0, len(s), 64)]  # noqa: E731
    return (
        head
        + "\n".join([DATA_BEGIN, *wrap(base64.b64encode(raw).decode()), DATA_SIG, *wrap(sig), DATA_END])
        + "\n"
    )


REPORT_FIELDS = [
    "game",
    "game_id",
    "turn",
    "revision",
    "seat",
    "player",
    "names",
    "awaiting",
    "seq",
    "public",
]
REPORT_FIELDS += ["private_sha256", "text_sha256", "moderator", "format"]


@examples(40)
@given(field=st.sampled_from(REPORT_FIELDS), value=JSON_VALUES, own_key=st.booleans())
def test_fuzz_report_data_block(
    table: Table, tmp_path_factory: pytest.TempPathFactory, field: str, value: Any, own_key: bool
) -> None:
    """A report whose data block holds anything, signed by the game's moderator (a buggy
    program with the right key) or by an outsider who put their own card in it."""
    where = tmp_path_factory.mktemp("fz")
    report = table.report(table.pristine)
    text = report.read_text(encoding="utf-8")
    lines = text[text.index(DATA_BEGIN) :].splitlines()
    raw = base64.b64decode("".join(lines[1 : lines.index(DATA_SIG)]))
    data = copy.deepcopy(canonical.loads(raw))
    signer = Identity.load(table.key("moderator" if own_key else "mallory"))
    data["moderator"] = signer.public().to_json()
    data[field] = value
    forged = where / "report.txt"
    try:
        forged.write_text(_forge_report(text, data, signer), encoding="utf-8")
    except FormatError:
        return  # not canonical JSON: could not be signed at all
    home = where / "home"
    form = where / "form.txt"
    for args in (
        ["read", str(forged), "--key", table.key("alice")],
        ["orders", str(forged), "--key", table.key("alice"), "-o", str(form)],
    ):
        calm(run(home, *args))


CARD_LINES = st.sampled_from(
    ["", "-----BEGIN PBEM PUBLIC KEY-----", "-----END PBEM PUBLIC KEY-----", "Name: " + "a" * 300,
     "Name: \x00", "Ed25519: !!!", "Age: age1xyz", "Signature: " + "A" * 90, "\ufeff", "x" * 2000,
     "Name: bob"]
)  # fmt: skip


@examples(40)
@given(which=st.sampled_from(["alice.pub", "alice.key"]), data=st.data())
def test_fuzz_key_cards_and_identity_files(
    table: Table, tmp_path_factory: pytest.TempPathFactory, which: str, data: st.DataObject
) -> None:
    where = tmp_path_factory.mktemp("fz")
    lines = (table.root / "keys" / which).read_text(encoding="utf-8").splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(lines)))
        if data.draw(st.booleans()) and at < len(lines):
            lines[at] = data.draw(CARD_LINES | st.text(max_size=40))
        else:
            lines.insert(at, data.draw(CARD_LINES))
    bad = where / which
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad.chmod(0o600)
    home = where / "home"
    report = str(table.report(table.pristine))
    players = [f"--player=bob={table.card('bob')}", f"--player=carol={table.card('carol')}"]
    if which.endswith(".pub"):
        lines_to_run = [
            ["read", report, "--key", table.key("alice"), "--moderator", str(bad)],
            ["new", "symbiote", str(where / "g"), "--moderator-key", table.key("moderator"),
             f"--player=alice={bad}", *players],
        ]  # fmt: skip
    else:
        lines_to_run = [["read", report, "--key", str(bad)], ["key", "public", str(bad)]]
    for args in lines_to_run:
        calm(run(home, *args))


@examples(40)
@given(text=st.text(max_size=300) | st.binary(max_size=300))
def test_fuzz_order_files_through_the_cli(
    table: Table, tmp_path_factory: pytest.TempPathFactory, text: str | bytes
) -> None:
    where = tmp_path_factory.mktemp("fz")
    game = table.copy(where)
    bad = where / "orders.txt"
    if isinstance(text, str):
        bad.write_text(text, encoding="utf-8", errors="surrogatepass")
    else:
        bad.write_bytes(text)
    before = snapshot(game)
    home = where / "home"
    refused(run(home, "submit", str(game), str(bad), "--key", table.key("moderator")), (1,))
    for args in (
        ["check", str(bad), "--key", table.key("alice")],
        ["sign", str(bad), "--key", table.key("alice")],
    ):
        calm(run(home, *args))
    assert {k: v for k, v in snapshot(game).items() if ".pbem-lock" not in k} == {
        k: v for k, v in before.items() if ".pbem-lock" not in k
    }


def test_canonical_loads_raises_only_format_errors() -> None:
    for text in ("[" * 100_000, "[" * 65 + "]" * 65, "1" * 5000, "-" + "1" * 17, b"\xff\xfe\x00"):
        with pytest.raises(FormatError):
            canonical.loads(text)
    assert canonical.loads("[" * 64 + "]" * 64) is not None
    assert canonical.loads(str(2**53 - 1)) == 2**53 - 1
    with pytest.raises(PbemError):
        canonical.loads(str(2**53))


def test_inputs_say_what_is_wrong_with_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import inputs
    from pbem.errors import UsageError

    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(FormatError, match=r"is 2,000 bytes; pbem reads at most 1,000"):
        inputs.read_bytes(big, "order file", limit=1000)
    with pytest.raises(UsageError, match="there is no such file"):
        inputs.read_bytes(tmp_path / "nothing", "report")
    with pytest.raises(UsageError, match="a part of the path is not a folder"):
        inputs.read_bytes(big / "below", "report")

    def denied(*_: Any) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(inputs.os, "open", denied)  # as an unprivileged user meets a mode-000 file
    with pytest.raises(UsageError, match=r"cannot read report .*big.txt: permission denied") as info:
        inputs.read_bytes(big, "report")
    assert info.value.hint == "check the path and name a file"
