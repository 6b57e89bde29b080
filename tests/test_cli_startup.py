"""Start-up (issue 13): what ``pbem status`` and ``pbem read`` load and do, so that the gains
do not quietly come back.

- a game plug-in loads its bots, order parser, rules, views and reports on first use
  (pbem/lazy.py), and then they are the module functions themselves in the class;
- ``pbem status`` of a shipped game, through the real console entry point, imports none of
  them (nor difflib, the order-file code or the mail and XML libraries);
- a command that only reads ends the process without the interpreter's tear-down
  (pbem/cli_exit.py), after the exit handlers, with all its output and its exit code;
- ``pbem read`` does not rewrite the local copy of a report it already holds.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli import PbemGroup, main
from pbem.cli_exit import quick_command
from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.lazy import Lazy, lazy
from pbem.player import ReportCopies
from pbem.registry import get_game

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GAMES = {
    # game: (players, its modules `pbem status` must not import, other modules it must not)
    # (the Jovian board picture needs the rules, which import the order parser, difflib and
    # textwrap)
    "symbiote": (
        3,
        ("bots", "orders", "forms", "report", "rules", "view", "charts", "cards"),
        ("difflib", "textwrap"),
    ),
    "jovian-syzygy": (3, ("bots", "view", "charts", "forecast"), ()),
    "symbioz": (3, ("bots", "orders", "phases", "rounds", "view", "charts"), ("difflib", "textwrap")),
}
NEVER_FOR_STATUS = (
    *("pbem.orders", "pbem.moderator.actions", "jinja2", "importlib.metadata", "pbem.wording"),
    *("xml.sax.saxutils", "urllib.request", "http.client", "email.parser", "ssl"),
)


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ, PBEM_HOME=str(home))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _console(args: list[str], home: Path, *, code: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m pbem ARGS`` (the console entry point, as ``pbem``), or ``code`` then
    ``main()`` with ARGS as the command line; run in ``home``, which is also PBEM_HOME."""
    runner = ["-m", "pbem"] if code is None else ["-c", code]
    return subprocess.run(
        [sys.executable, *runner, *args],
        capture_output=True,
        text=True,
        env=_env(home),
        timeout=120,
        cwd=home,
    )


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A new game of each shipped game (turn 1, reports published), by name."""
    root = tmp_path_factory.mktemp("startup")
    moderator = Identity.generate("moderator")
    alice = Identity.generate("alice")
    alice.save(root / "alice.key")
    players = [alice.public(), *(Identity.generate(name).public() for name in ("bob", "carol"))]
    made = {}
    for name, (count, _, _) in GAMES.items():
        folder = GameFolder.create(
            root / name, name, moderator, players[:count], {}, now=NOW, home=root / "home"
        )
        made[name] = folder.path
    return made


def _imported(stderr: str) -> set[str]:
    """The modules named in ``python -X importtime`` output."""
    return {m.group(1) for m in re.finditer(r"^import time:\s+\d+ \|\s+\d+ \| *(\S+)$", stderr, re.M)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_status_imports_none_of_the_game_code_it_does_not_show(
    name: str, folders: dict[str, Path], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pbem", "status", str(folders[name])],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith(f"{name} game ") and ", turn 1 " in done.stdout
    imported = _imported(done.stderr)
    assert "pbem.engine" in imported  # the importtime listing is there at all
    package = "pbem_games." + name.replace("-", "_")
    _, own, others = GAMES[name]
    unwanted = {f"{package}.{m}" for m in own} | set(others) | set(NEVER_FOR_STATUS)
    assert not imported & unwanted, sorted(imported & unwanted)


def test_read_imports_neither_the_order_code_nor_the_games_nor_the_signing_result(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    report = folders["symbiote"] / "reports" / "turn-0001" / "alice.txt"
    key = folders["symbiote"].parent / "alice.key"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pbem", "read", str(report), "--key", str(key)],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "alice" in done.stdout and "BEGIN AGE" not in done.stdout  # opened: the private part shown
    imported = _imported(done.stderr)
    assert "pbem.player" in imported
    unwanted = {"pbem.signed_form", "pbem.orders", "pbem.engine", "difflib", "jinja2", "importlib.metadata"}
    assert not imported & unwanted, sorted(imported & unwanted)
    assert not any(name.startswith("pbem_games.") for name in imported)


def test_the_report_reader_makes_no_dataclass_of_its_own() -> None:
    # Each frozen dataclass costs about 1 ms at import; pbem read imports pbem.player.
    import dataclasses

    import pbem.player
    from pbem.signed_form import SignedForm

    made = [
        v for v in vars(pbem.player).values() if dataclasses.is_dataclass(v) and v.__module__ == "pbem.player"
    ]
    assert made == []
    assert pbem.player.SignedForm is SignedForm  # still there for older callers


def test_status_through_the_console_says_what_the_library_says(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    folder = str(folders["symbiote"])
    expected = CliRunner().invoke(main, ["status", folder])
    done = _console(["status", folder], tmp_path)
    assert (done.returncode, done.stdout) == (0, expected.output)
    assert done.stderr == ""


def test_a_long_output_is_written_whole_before_the_quick_exit(tmp_path: Path) -> None:
    expected = CliRunner().invoke(main, ["rules", "parasite"])
    assert expected.exit_code == 0 and len(expected.output) > 20_000  # more than a pipe's buffer
    done = _console(["rules", "parasite"], tmp_path)
    assert (done.returncode, done.stdout) == (0, expected.output)


def test_quick_exit_keeps_the_exit_codes_and_messages(folders: dict[str, Path], tmp_path: Path) -> None:
    usage = _console(["status", str(tmp_path / "missing")], tmp_path)
    assert usage.returncode == 2 and "does not exist" in usage.stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "save.json").write_text("{not json")
    rejected = _console(["status", str(broken)], tmp_path)
    assert rejected.returncode == 1 and "save file" in rejected.stderr and "Traceback" not in rejected.stderr
    helped = _console(["--help"], tmp_path)
    assert helped.returncode == 0 and "Anyone:" in helped.stdout
    unknown = _console(["no-such-command"], tmp_path)
    assert unknown.returncode == 2 and "No such command" in unknown.stderr


_TEARDOWN = (
    "import atexit, sys, threading, time\n"
    "class Last:\n"
    "    def __del__(self):\n"
    "        print('torn down', flush=True)\n"
    "keep = Last()\n"
    "atexit.register(lambda: print('exit handler ran', flush=True))\n"
    "if sys.argv.pop(1) == 'thread':\n"
    "    threading.Thread(target=lambda: (time.sleep(0.3), print('thread finished', flush=True))).start()\n"
    "from pbem.cli import main\n"
    "main()\n"
)


def test_a_reading_command_ends_without_the_teardown_but_after_the_exit_handlers(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    done = _console(["plain", "status", str(folders["symbiote"])], tmp_path, code=_TEARDOWN)
    assert done.returncode == 0, done.stderr
    assert "exit handler ran" in done.stdout
    assert "torn down" not in done.stdout  # the interpreter's tear-down was skipped


def test_main_called_with_arguments_lets_the_caller_go_on(folders: dict[str, Path], tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from pbem.cli import main\n"
        "try:\n"
        "    main(['status', sys.argv[1]])\n"
        "except SystemExit as stop:\n"
        "    print('caught', stop.code)\n"
    )
    done = _console([str(folders["symbiote"])], tmp_path, code=code)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("caught 0"), (done.stdout, done.stderr)


def test_a_writing_command_ends_as_python_does(tmp_path: Path) -> None:
    done = _console(["plain", "keygen", "dora"], tmp_path, code=_TEARDOWN)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "dora.key").is_file()
    assert "exit handler ran" in done.stdout and done.stdout.rstrip().endswith("torn down")


def test_no_quick_exit_while_another_thread_runs(folders: dict[str, Path], tmp_path: Path) -> None:
    done = _console(["thread", "status", str(folders["symbiote"])], tmp_path, code=_TEARDOWN)
    assert done.returncode == 0, done.stderr
    assert "thread finished" in done.stdout and "torn down" in done.stdout


def test_which_command_lines_end_quickly() -> None:
    quick = PbemGroup.QUICK
    assert quick_command(["status", "game"], quick)
    assert quick_command(["--help"], quick) and quick_command([], quick)
    assert quick_command(["-h", "read", "x"], quick)
    assert not quick_command(["advance", "game", "--key", "status"], quick)
    assert not quick_command(["keygen", "status"], quick)
    assert quick <= set(PbemGroup.list_commands(main, None))  # type: ignore[arg-type]


class _Holder:
    dumps = lazy("json:dumps", static=True)
    method = lazy("pbem.inputs:shorten")
    value = lazy(lambda: {"made": True})
    missing = lazy("json:no_such_name")


class _Child(_Holder):
    pass


def test_a_lazy_attribute_is_resolved_once_then_is_the_plain_value() -> None:
    import json

    from pbem.inputs import shorten

    assert isinstance(_Holder.__dict__["dumps"], Lazy)
    assert _Child().dumps is json.dumps  # asked through a subclass: stored where declared
    stored = _Holder.__dict__["dumps"]
    assert isinstance(stored, staticmethod) and stored.__func__ is json.dumps
    assert "dumps" not in _Child.__dict__
    bound = _Holder().method
    assert bound.__func__ is shorten  # an ordinary method: bound to the instance
    assert _Holder.__dict__["method"] is shorten
    first = _Holder.value
    assert first == {"made": True} and _Holder.value is first
    with pytest.raises(AttributeError):
        _ = _Holder().missing


@pytest.mark.parametrize("name", ["symbiote", "jovian-syzygy", "symbioz", "parasite"])
def test_a_games_parts_are_its_modules_functions_once_used(name: str) -> None:
    game = get_game(name)
    assert {"random", "greedy"} <= set(game.bots)
    for part in ("observe", "validate", "resolve"):
        getattr(game, part)
        held: Any = type(game).__dict__[part]
        assert not isinstance(held, Lazy), part
        if isinstance(held, staticmethod):  # no method in between: the engine calls it directly
            assert held.__func__.__module__.startswith("pbem_games."), part


def _copy_of(text: str, revision: int = 4) -> Any:
    data = {"turn": 3, "revision": revision, "game_id": "0123456789ABCDEF", "player": "alice"}
    return SimpleNamespace(data=data, text=text)


def test_reading_a_report_again_does_not_rewrite_its_copy(tmp_path: Path) -> None:
    copies = ReportCopies(tmp_path)
    copies.keep(_copy_of("the report\n"))
    (path,) = (tmp_path / "reports").rglob("*.txt")
    before = path.stat()
    copies.keep(_copy_of("the report\n"))
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    path.chmod(0o644)  # readable by others: written again, private
    copies.keep(_copy_of("the report\n"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "the report\n"
    path.write_text("the report, changed\n")
    path.chmod(0o600)
    copies.keep(_copy_of("the report\n"))
    assert path.read_text() == "the report\n"
    copies.keep(_copy_of("a newer revision\n", revision=5))
    assert [p.read_text() for p in (tmp_path / "reports").rglob("*.txt")] == ["a newer revision\n"]
