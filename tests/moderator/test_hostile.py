"""Hostile input in a shared folder cannot stop a moderated game (issue 8).

One test per trigger found by the red-team pass, each through a real moderator pass over a
root with two real games: the bad input gets one notice (or a journal line where nobody
can be told), is moved into the quarantine, and never blocks other inputs, the other game
or later passes.  Then damaged journals and settings, and bounded hypothesis fuzzing of
journal records, configs, the local index and outbox through their real entry points.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine import GameFolder
from pbem.errors import UsageError
from pbem.game import OrderErrors, OrderLine
from pbem.keys import Identity
from pbem.mail.smtp import Outgoing
from pbem.moderator.config import GameConfig, RootConfig
from pbem.moderator.core import Moderator, PassResult
from pbem.moderator.post import Outbox
from pbem.moderator.record import load_record, read_record, record_path
from pbem.registry import get_game
from pbem.rng import Rng
from pbem.timing import FixedClock

from .modkit import T0, awaited, drop, entropy, new_game, order_block, read, snapshot

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0"))
PYTHON_ERRORS = ("Traceback", "Error:", "Exception", "errno", "Errno")
"""Words that betray a Python exception in a message meant for a person."""


def examples(default: int) -> int:
    return max(default, FUZZ)


def moderator(root: Path, keys: dict[str, Identity], clock: FixedClock) -> Moderator:
    return Moderator(root, keys["moderator"], clock=clock, settle=0)


@pytest.fixture
def two(root: Path, keys: dict[str, Identity], clock: FixedClock) -> tuple[Path, Path, Moderator]:
    """Two games under the root, first pass done (reports handed out, folders made)."""
    g1, g2 = new_game(root, keys, "g1"), new_game(root, keys, "g2")
    mod = moderator(root, keys, clock)
    assert all(g.error is None for g in mod.run_pass().games)
    return g1, g2, mod


def settled(path: Path | bytes) -> None:
    """Date ``path`` (itself, not what a link points to) a minute back: complete, not settling."""
    past = time.time() - 60
    os.utime(path, (past, past), follow_symlinks=False)


def errors(result: PassResult) -> dict[str, str | None]:
    return {g.game: g.error for g in result.games}


def quarantined(mod: Moderator, game: str) -> dict[str, dict[str, object]]:
    """Quarantined entries of ``game`` (private and shared): name -> its note."""
    out = {}
    for folder in (mod.state_dir / "quarantine" / game, mod.root / game / "moderator" / "quarantine"):
        if folder.is_dir():
            for note in folder.glob("*/note.json"):
                out[note.parent.name] = json.loads(note.read_text())
    return out


def notice_texts(game: Path, folder: str) -> list[str]:
    base = game / folder
    return [" ".join(p.read_text().split()) for p in sorted(base.glob("notice-*"))] if base.is_dir() else []


def file_and_resolve(game: Path, keys: dict[str, Identity], mod: Moderator) -> PassResult:
    """Drop the awaited player's real orders and run a pass: the game must still move."""
    [name] = awaited(game)
    drop(game, name, "good-orders.txt", order_block(game, keys, name))
    turn = read(game).turn
    result = mod.run_pass()
    assert read(game).turn == turn + 1, "valid orders after the junk must still resolve the turn"
    return result


# ---- junk files in an inbox -------------------------------------------------------------------


def test_file_name_that_is_not_utf8_gets_a_notice_and_the_quarantine(two, keys) -> None:
    g1, _g2, mod = two
    folder = os.fsencode(g1 / "inbox" / "alice")
    raw = folder + b"/orders-\xff\xfe\n.txt"
    with open(raw, "wb") as fh:
        fh.write(b"these are my orders\n")
    settled(raw)
    result = mod.run_pass()
    assert errors(result) == {"g1": None, "g2": None}
    assert result.games[0].notices == ("malformed",)
    assert not os.listdir(folder), "the file left the inbox"
    [notice] = notice_texts(g1, "players/alice")
    assert "orders-\\xff\\xfe\\x0a.txt" in notice, "the name is shown escaped, on one line"
    [(key, note)] = quarantined(mod, "g1").items()
    assert note["was"] == "inbox/alice/orders-\\xff\\xfe\\x0a.txt" and note["result"] == "malformed"
    [kept] = [p for p in (mod.state_dir / "quarantine" / "g1" / key).iterdir() if p.name != "note.json"]
    assert kept.name == "orders-_xff_xfe_x0a.txt" and kept.read_bytes() == b"these are my orders\n"
    file_and_resolve(g1, keys, mod)


def test_folder_name_that_is_not_utf8_gets_a_public_notice(two, keys) -> None:
    g1, _, mod = two
    folder = os.fsencode(g1 / "inbox") + b"/\xc3("
    os.mkdir(folder)
    with open(folder + b"/x.txt", "wb") as fh:
        fh.write(b"junk")
    settled(folder + b"/x.txt")
    result = mod.run_pass()
    assert errors(result) == {"g1": None, "g2": None} and result.games[0].notices == ("malformed",)
    [notice] = notice_texts(g1, "notices")
    assert "inbox/\\xc3(/x.txt" in notice
    file_and_resolve(g1, keys, mod)


def test_unsigned_file_with_a_5000_digit_header_is_refused_and_later_orders_resolve(two, keys) -> None:
    g1, _g2, mod = two
    for header in ("Turn", "Seq"):
        fields = {"Game": read(g1).game_id, "Turn": "1", "Player": "alice", "Seq": "1"}
        fields[header] = "9" * 5000
        text = "-----BEGIN PBEM ORDERS-----\n" + "".join(f"{k}: {v}\n" for k, v in fields.items())
        text += "\ntake\n-----BEGIN PBEM SIGNATURE-----\nAAAA\n-----END PBEM ORDERS-----\n"
        drop(g1, "alice", f"huge-{header}.txt", text)
    before = snapshot(g1)
    result = mod.run_pass()
    assert errors(result) == {"g1": None, "g2": None}
    assert result.games[0].notices == ("malformed", "malformed")
    assert snapshot(g1) == before, "nothing filed"
    assert len(notice_texts(g1, "players/alice")) == 2 and len(quarantined(mod, "g1")) == 2
    assert not list((g1 / "inbox" / "alice").iterdir())
    assert mod.run_pass().games[0].notices == (), "a later pass does not see them again"
    file_and_resolve(g1, keys, mod)


def test_a_file_that_trips_the_engine_is_set_aside_and_other_files_still_filed(
    two, keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever exception a file makes the engine raise (a bug), it costs only that file."""
    g1, _, mod = two
    real = GameFolder.submit

    def submit(self: GameFolder, text: str, *args: object, **kwargs: object) -> object:
        if "boom" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return real(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(GameFolder, "submit", submit)
    drop(g1, "bob", "boom.txt", "boom", age=120)
    [name] = awaited(g1)
    drop(g1, name, "good.txt", order_block(g1, keys, name), age=60)
    result = mod.run_pass()
    assert errors(result) == {"g1": None, "g2": None}
    assert result.games[0].notices == ("malformed", "accepted") and read(g1).turn == 2
    [note] = quarantined(mod, "g1").values()
    assert note["error"] == "RecursionError: maximum recursion depth exceeded"
    [notice] = notice_texts(g1, "players/bob")
    assert "RecursionError" not in notice and "set aside" in notice


def test_a_disk_error_while_filing_keeps_the_file_for_the_next_pass(
    two, keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OSError is the disk's fault, not the file's: nothing is refused or lost."""
    g1, _, mod = two
    [name] = awaited(g1)
    path = drop(g1, name, "good.txt", order_block(g1, keys, name))

    def broken(self: GameFolder, *args: object, **kwargs: object) -> object:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(GameFolder, "submit", broken)
        assert "No space left" in (errors(mod.run_pass())["g1"] or "")
    assert path.is_file() and not quarantined(mod, "g1")
    assert mod.run_pass().games[0].notices == ("accepted",) and read(g1).turn == 2


def test_fifo_dangling_link_link_to_a_secret_and_a_folder_are_set_aside_unread(two, keys, tmp_path) -> None:
    g1, _, mod = two
    inbox = g1 / "inbox" / "alice"
    secret = tmp_path / "secret.txt"
    secret.write_text("the moderator's secret\n")
    os.mkfifo(inbox / "pipe.txt")
    (inbox / "dangling.txt").symlink_to(tmp_path / "nowhere")
    (inbox / "secret.txt").symlink_to(secret)
    (inbox / "folder").mkdir()
    (inbox / "folder" / "orders.txt").write_text("take\n")
    for entry in inbox.iterdir():
        settled(entry)
    result = mod.run_pass()
    assert errors(result) == {"g1": None, "g2": None}
    assert result.games[0].notices == ("malformed",) * 4
    assert not list(inbox.iterdir())
    texts = "\n".join(notice_texts(g1, "players/alice"))
    for words in ("a FIFO (named pipe), not a file", "a symbolic link, not a file", "a folder, not a file"):
        assert words in texts
    assert "secret" not in texts.replace("secret.txt", ""), "a link is never followed"
    assert secret.read_text() == "the moderator's secret\n", "the link's target is untouched"
    assert len(quarantined(mod, "g1")) == 4
    file_and_resolve(g1, keys, mod)


def test_a_file_too_large_is_moved_aside_whole_not_truncated(two, keys) -> None:
    g1, _, mod = two
    big = b"x" * 1_000_001
    drop(g1, "carol", "big.txt", big)
    result = mod.run_pass()
    assert result.games[0].notices == ("malformed",)
    [(name, note)] = quarantined(mod, "g1").items()
    assert "1000001 bytes" in str(note["reason"])
    assert (mod.state_dir / "quarantine" / "g1" / name / "big.txt").read_bytes() == big


@pytest.mark.parametrize("where", ["inbox", "inbox/bob", "players/alice", "notices", "moderator"])
@pytest.mark.parametrize("what", ["file", "dangling link", "link to a folder outside"])
def test_a_folder_replaced_by_a_file_or_a_link_is_repaired(
    two, keys, tmp_path, where: str, what: str
) -> None:
    g1, _g2, mod = two
    path = g1 / where
    outside = tmp_path / "outside"
    (outside / "alice").mkdir(parents=True)
    (outside / "alice" / "precious.txt").write_text("not the moderator's to delete\n")
    if path.is_dir():
        shutil.rmtree(path)
    if what == "file":
        path.write_text("junk where a folder belongs\n")
    elif what == "dangling link":
        path.symlink_to(tmp_path / "nowhere")
    else:
        path.symlink_to(outside)
    result = mod.run_pass(force=True)
    assert errors(result) == {"g1": None, "g2": None}
    assert path.is_dir() and not path.is_symlink()
    assert (outside / "alice" / "precious.txt").read_text() == "not the moderator's to delete\n"
    moved = [n for n in quarantined(mod, "g1").values() if "where a folder belongs" in str(n["reason"])]
    assert len(moved) == 1
    assert any("moved aside" in line for line in load_record(g1).lines)
    file_and_resolve(g1, keys, mod)


# ---- an unreadable file, for real: the moderator as an unprivileged user -----------------------

RUN_PASS = """
import json, sys
from pathlib import Path
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.timing import FixedClock
root, key, at = sys.argv[1:4]
mod = Moderator(Path(root), Identity.load(key), clock=FixedClock(int(at)), settle=0)
result = mod.run_pass(force=True)
print(json.dumps([[g.game, g.error, list(g.notices)] for g in result.games]))
"""


@pytest.fixture
def unprivileged(keys: dict[str, Identity]) -> Iterator[tuple[Path, list[str], dict[str, str]]]:
    """A folder owned by ``nobody`` and the command line that runs a pass as ``nobody``."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run the moderator as an unprivileged user")
    base = Path(tempfile.mkdtemp(prefix="pbem-hostile-"))
    try:
        os.chmod(base, 0o755)
        keys["moderator"].save(base / "moderator.key")
        env = {**os.environ, "HOME": str(base), "TMPDIR": str(base), "XDG_RUNTIME_DIR": str(base / "run")}
        env.update(PBEM_STATE_DIR=str(base / "state"), PBEM_HOME=str(base / "home"))
        command = [
            setpriv,
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            sys.executable,
            "-c",
            RUN_PASS,
        ]
        yield base, command, env
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _chown_tree(base: Path) -> None:
    for folder, dirs, files in os.walk(base):
        for name in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            os.chown(name, 65534, 65534, follow_symlinks=False)


def _pass_as_nobody(base: Path, command: list[str], env: dict[str, str], at: int) -> list[list[object]]:
    done = subprocess.run(
        [*command, str(base / "root"), str(base / "moderator.key"), str(at)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_mode_000_file_read_by_an_unprivileged_moderator(keys, unprivileged) -> None:
    """Run as root, a mode-000 file would be readable: the pass runs as ``nobody``."""
    base, command, env = unprivileged
    g1 = new_game(base / "root", keys, "g1", home=base / "create-home")
    new_game(base / "root", keys, "g2", home=base / "create-home")
    _chown_tree(base)
    assert [g[1] for g in _pass_as_nobody(base, command, env, T0 + 60)] == [None, None]
    locked = drop(g1, "alice", "locked.txt", "take\n")
    [name] = awaited(g1)
    drop(g1, name, "good.txt", order_block(g1, keys, name))
    _chown_tree(base)
    locked.chmod(0o000)
    games = _pass_as_nobody(base, command, env, T0 + 70)
    assert games == [["g1", None, ["malformed", "accepted"]], ["g2", None, []]]
    assert read(g1).turn == 2
    notices = "\n".join(notice_texts(g1, "players/alice"))
    assert "inbox/alice/locked.txt" in notices and "It cannot be opened (Permission denied)" in notices
    assert not locked.exists()
    [moved] = [p for p in (base / "state").rglob("locked.txt")]
    assert moved.stat().st_mode & 0o777 == 0, "moved whole, by a rename"

    # One the moderator can neither read nor move: reported once, then left alone.
    stuck = drop(g1, "bob", "stuck.txt", "take\n")
    _chown_tree(base)
    stuck.chmod(0o000)
    (g1 / "inbox" / "bob").chmod(0o555)
    try:
        first = _pass_as_nobody(base, command, env, T0 + 80)
        again = _pass_as_nobody(base, command, env, T0 + 90)
    finally:
        (g1 / "inbox" / "bob").chmod(0o755)
    assert first[0] == ["g1", None, ["malformed"]] and again[0] == ["g1", None, []]
    assert stuck.exists() and len(load_record(g1).ignored) == 1
    assert any("left in place and ignored" in line for line in load_record(g1).lines)


# ---- the games: numbers in orders are bounded -----------------------------------------------


def _view_after_first_turn(name: str, seat: int = 0) -> tuple[object, object]:
    game = get_game(name)
    options = {v.name: v.default for v in game.info.variants}
    state = game.setup(game.info.min_players, options, Rng(b"hostile"))
    for step in range(2):
        orders = {}
        for s in game.to_act(state):
            view = game.observe(state, s)
            texts = game.bots["random"](game, view, Rng(f"bot{step}/{s}".encode()))
            orders[s] = game.validate(view, [OrderLine(i + 1, t) for i, t in enumerate(texts)])
        state = game.resolve(state, orders, Rng(f"turn{step}".encode())).state
    acting = game.to_act(state)
    return game, game.observe(state, acting[0] if acting else seat)


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("symbioz", "buy " + "9" * 5000 + " zerbs B1", "more pawns than any supply holds"),
        ("symbioz", "buy " + "9" * 4000 + " zerbs B1", "more pawns than any supply holds"),
        ("symbioz", "buy \u00b2 zerbs B1", "unexpected 'b1'"),
        ("jovian-syzygy", "spend " + "9" * 5000, "more Psi than anyone has"),
    ],
)
def test_huge_numbers_in_orders_are_order_errors(name: str, line: str, words: str) -> None:
    game, view = _view_after_first_turn(name)
    with pytest.raises(OrderErrors) as caught:
        game.validate(view, [OrderLine(1, line)])  # type: ignore[attr-defined]
    assert words in str(caught.value) or any(words in str(e) for e in caught.value.errors)


def test_signed_symbioz_buy_with_huge_counts_gets_a_notice(
    root, keys, clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's trigger, signed (by a tool without pbem's line limit), through the
    moderator: a notice, not a stalled game.  900 digits reach the game's validation; 5000
    are refused by the order parser's line bound first."""
    home = root.parent / "create-home"
    cards = [keys[n].public() for n in ("alice", "bob", "carol")]
    now = datetime.fromtimestamp(T0, UTC)
    GameFolder.create(
        root / "sz", "symbioz", keys["moderator"], cards, {}, now=now, entropy=entropy("sz"), home=home
    )
    new_game(root, keys, "g2")
    mod = moderator(root, keys, clock)
    mod.run_pass()
    game = root / "sz"
    while read(game).turn < 2:
        for name in awaited(game):
            drop(game, name, f"t{read(game).turn}-{name}.txt", order_block(game, keys, name, bot="random"))
        assert errors(mod.run_pass())["sz"] is None
    name = awaited(game)[0]
    monkeypatch.setattr("pbem.orders.WIDTH", 10_000)
    for digits, age in ((900, 90), (5000, 60)):
        block = order_block(game, keys, name, lines=[f"buy {'9' * digits} zerbs B1"])
        drop(game, name, f"buy-{digits}.txt", block, age=age)
    before = snapshot(game)
    result = mod.run_pass()
    assert errors(result) == {"g2": None, "sz": None}
    assert dict((g.game, g.notices) for g in result.games)["sz"] == ("orders", "malformed")
    assert snapshot(game) == before
    assert name in awaited(game), "the seat still owes its orders"


# ---- the journal: a damaged record never stops a game ---------------------------------------

DAMAGED_RECORDS: dict[str, bytes] = {
    "truncated": b'{"version": 1, "clock": {"turn": 1, "sta',
    "not an object": b"[1, 2, 3]",
    "not UTF-8": b'{"log": ["\xff\xfe"]}',
    "5000-digit number": b'{"clock": {"turn": 1, "started": ' + b"9" * 5000 + b"}}",
    "huge time": b'{"clock": {"turn": 1, "started": 1' + b"0" * 30 + b"}}",
    "wrong types": b'{"clock": "soon", "seats": [1], "handled": {"a": 1}, "advancing": 7, "delivered": "x"}',
    "deep nesting": b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "negative times": b'{"clock": {"turn": -1, "started": -5}, "reminders_sent": [-1]}',
    "float where int belongs": b'{"clock": {"turn": 1.5, "started": 1e300}}',
}


@pytest.mark.parametrize("case", sorted(DAMAGED_RECORDS))
def test_a_damaged_journal_is_rebuilt_and_kept_aside(two, keys, case: str) -> None:
    g1, _g2, mod = two
    record_path(g1).write_bytes(DAMAGED_RECORDS[case])
    result = mod.run_pass(force=True)
    assert errors(result) == {"g1": None, "g2": None}
    record, problem = read_record(g1)
    assert problem is None, "the record written back is sound"
    assert any("record.json was damaged" in line for line in record.lines)
    assert record.clock is not None and record.clock.turn == 1
    kept = [n for n in quarantined(mod, "g1").values() if n["was"] == "moderator/record.json"]
    assert len(kept) == 1
    file_and_resolve(g1, keys, mod)


@pytest.mark.parametrize("what", ["folder", "fifo", "dangling link"])
def test_a_journal_that_is_not_a_file_is_moved_aside(two, keys, tmp_path, what: str) -> None:
    g1, _, mod = two
    path = record_path(g1)
    path.unlink()
    if what == "folder":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(tmp_path / "nowhere")
    assert errors(mod.run_pass(force=True)) == {"g1": None, "g2": None}
    assert path.is_file() and read_record(g1)[1] is None
    file_and_resolve(g1, keys, mod)


def test_sound_fields_of_a_damaged_journal_are_kept(two, keys, clock) -> None:
    """A paused turn stays paused when only the missed-turn counts are damaged."""
    g1, _, mod = two
    data = json.loads(record_path(g1).read_text())
    data["clock"]["paused_since"] = clock.now()
    data["seats"] = {"alice": {"missed_total": "many"}}
    record_path(g1).write_text(json.dumps(data))
    record, problem = read_record(g1)
    assert problem == "wrong type or value in: seats"
    assert record.clock is not None and record.clock.paused_since == clock.now()
    mod.run_pass(force=True)
    assert load_record(g1).clock.paused_since == clock.now()  # type: ignore[union-attr]


# ---- settings ---------------------------------------------------------------------------------

BAD_CONFIGS: dict[str, bytes] = {
    "not UTF-8": b'[timing]\ndeadline = "48h"\n# caf\xe9\n',
    "5000-digit number": b"[timing]\ndeadline = " + b"9" * 5000 + b"\n",
    "5000-digit duration": b'[timing]\ndeadline = "' + b"9" * 5000 + b'h"\n',
    "huge duration": b"[timing]\ndeadline = 1000000000000000000\n",
    "deep nesting": b"[timing]\nreminders = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "timing not a table": b'timing = "48h"\n',
    "players not a table": b"players = 5\n",
    "a player not a table": b'[players]\nalice = "alice@example.org"\n',
    "email not a string": b"[players.alice]\nemail = 42\n",
    "email with a header": b'[players.alice]\nemail = "a@b.org\\nBcc: all@x.org"\n',
    "unknown player setting": b'[players.alice]\nmail = "a@b.org"\n',
    "a list where a duration belongs": b'[timing]\ngrace = ["6h"]\n',
    "not TOML": b"[timing\n",
    "huge file": b"# " + b"x" * 1_100_000 + b"\n",
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_a_bad_game_config_refuses_that_game_clearly_and_only_that_game(two, case: str) -> None:
    g1, _g2, mod = two
    (g1 / "moderator.toml").write_bytes(BAD_CONFIGS[case])
    before = snapshot(g1)
    result = mod.run_pass(force=True)
    error = errors(result)["g1"]
    assert error is not None and str(g1 / "moderator.toml") in error
    assert not any(word in error for word in PYTHON_ERRORS), error
    assert len(error) < 400
    assert errors(result)["g2"] is None
    assert snapshot(g1) == before
    (g1 / "moderator.toml").unlink()
    assert errors(mod.run_pass()) == {"g1": None, "g2": None}, "fixed, the game runs again"


@pytest.mark.parametrize("case", sorted(c for c, text in BAD_CONFIGS.items() if b"players" not in text))
def test_a_bad_root_config_is_a_usage_error_naming_the_file(root, keys, clock, case: str) -> None:
    text = BAD_CONFIGS[case]
    (root / "moderator.toml").write_bytes(text)
    with pytest.raises(UsageError) as caught:
        moderator(root, keys, clock)
    assert str(root / "moderator.toml") in caught.value.message
    assert not any(word in str(caught.value) for word in PYTHON_ERRORS)


def test_a_config_that_is_a_fifo_or_a_folder_is_refused_without_blocking(root) -> None:
    os.mkfifo(root / "moderator.toml")
    with pytest.raises(UsageError, match="FIFO"):
        RootConfig.load(root)
    (root / "moderator.toml").unlink()
    (root / "moderator.toml").mkdir()
    with pytest.raises(UsageError, match="folder"):
        RootConfig.load(root)
    (root / "moderator.toml").rmdir()
    (root / "moderator.toml").symlink_to("/dev/zero")
    with pytest.raises(UsageError, match="device"):
        RootConfig.load(root)
    (root / "shared.toml").write_text('[moderator]\nsettle = "5s"\n')
    (root / "moderator.toml").unlink()
    (root / "moderator.toml").symlink_to(root / "shared.toml")
    assert RootConfig.load(root).settle == 5, "a moderator may link a settings file"


# ---- fuzzing: journal records, configs, the local index and outbox ---------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    ["clock", "reminders_sent", "seats", "delivered", "inflight", "handled", "advancing", "log", "ignored"]
)
RECORDS = st.dictionaries(FIELDS, JSON, max_size=6) | st.dictionaries(
    st.just("clock"),
    st.fixed_dictionaries(
        {},
        optional={
            k: JSON | st.integers(min_value=-(10**20), max_value=10**20)
            for k in ("turn", "started", "extended", "paused_since", "paused_total")
        },
    ),
)


@settings(max_examples=examples(150), deadline=None)
@given(data=RECORDS | JSON)
def test_fuzz_record_values_never_raise(tmp_path_factory: pytest.TempPathFactory, data: object) -> None:
    game = tmp_path_factory.mktemp("rec")
    record_path(game).parent.mkdir()
    record_path(game).write_text(json.dumps(data))
    record, _ = read_record(game)
    json.dumps(record.to_json())
    if record.clock is not None:
        datetime.fromtimestamp(record.clock.started + record.clock.extended + record.clock.paused_total, UTC)


@settings(max_examples=examples(100), deadline=None)
@given(raw=st.binary(max_size=300))
def test_fuzz_record_bytes_never_raise(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    game = tmp_path_factory.mktemp("rec")
    record_path(game).parent.mkdir()
    record_path(game).write_bytes(b'{"clock": ' + raw)
    read_record(game)


TOML_VALUES = st.sampled_from(
    [
        '"48h"',
        '"none"',
        "0",
        "-1",
        "1.5",
        "true",
        '["24h", "2h"]',
        '"24h"',
        "[1, [2]]",
        "{a = 1}",
        '"bot:greedy"',
        '"wait"',
        "9" * 30,
        '"' + "9" * 30 + 's"',
        '"\\u0000"',
        "1979-05-27",
        '"x@y.org"',
        '"\u00b2h"',
    ]
)
TOML_KEYS = st.sampled_from(
    [
        "deadline",
        "reminders",
        "grace",
        "on_missing",
        "abandon_after",
        "abandon_count",
        "on_abandoned",
        "email",
        "x",
    ]
)
TOML_TABLES = st.sampled_from(
    ["[timing]", "[players.alice]", "[players]", "[moderator]", "[mail]", "[other]", ""]
)
TOML = st.lists(
    st.tuples(TOML_TABLES, st.lists(st.tuples(TOML_KEYS, TOML_VALUES), max_size=4)), max_size=3
).map(lambda tables: "\n".join(t + "\n" + "".join(f"{k} = {v}\n" for k, v in kv) for t, kv in tables))


@settings(max_examples=examples(150), deadline=None)
@given(text=TOML | st.text(max_size=200))
def test_fuzz_configs_give_a_config_or_a_usage_error(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    base = tmp_path_factory.mktemp("cfg")
    (base / "g").mkdir()
    for path in (base / "moderator.toml", base / "g" / "moderator.toml"):
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
    try:
        root = RootConfig.load(base)
    except UsageError as exc:
        assert "moderator.toml" in exc.message and not any(w in str(exc) for w in PYTHON_ERRORS)
        root = RootConfig()
    try:
        config = GameConfig.load(base / "g", root)
    except UsageError as exc:
        assert "moderator.toml" in exc.message and not any(w in str(exc) for w in PYTHON_ERRORS)
    else:
        assert config.timing.deadline is None or 0 < config.timing.deadline <= 10 * 365 * 86400


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Identity]]:
    base = tmp_path_factory.mktemp("fuzz-root")
    keys = {n: Identity.generate(n) for n in ("moderator", "alice", "bob", "carol", "mallory")}
    root = base / "root"
    root.mkdir()
    new_game(root, keys, "g1", home=base / "create-home")
    new_game(root, keys, "g2", home=base / "create-home")
    return root, keys


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(record=RECORDS | JSON, config=TOML, index=JSON)
def test_fuzz_passes_with_damaged_journal_config_and_index(
    fuzz_root: tuple[Path, dict[str, Identity]], record: object, config: str, index: object
) -> None:
    """Through the real entry point: whatever the journal, the config and the local index
    hold, a pass ends with at most a clear error for that game, and the other game runs."""
    root, keys = fuzz_root
    g1 = root / "g1"
    record_path(g1).parent.mkdir(exist_ok=True)
    record_path(g1).write_text(json.dumps(record))
    (g1 / "moderator.toml").write_text(config)
    state = root.parent / "fuzz-state"
    (state / "moderator").mkdir(parents=True, exist_ok=True)
    mod = Moderator(root, keys["moderator"], clock=FixedClock(T0 + 60), settle=0, state_dir=state)
    mod.index.path.write_text(json.dumps({"games": {"g1": index, "g2": index}}))
    mod = Moderator(root, keys["moderator"], clock=FixedClock(T0 + 60), settle=0, state_dir=state)
    result = mod.run_pass()
    by_game = errors(result)
    assert by_game["g2"] is None
    if by_game["g1"] is not None:
        assert "moderator.toml" in by_game["g1"] and not any(w in by_game["g1"] for w in PYTHON_ERRORS)
    else:
        assert read_record(g1)[1] is None, "a damaged journal was rebuilt"


@settings(max_examples=examples(50), deadline=None)
@given(entries=st.lists(JSON | st.binary(max_size=50), min_size=1, max_size=4))
def test_fuzz_outbox_entries_never_stop_the_others(tmp_path_factory: pytest.TempPathFactory, entries) -> None:
    folder = tmp_path_factory.mktemp("outbox")
    outbox = Outbox(folder)
    outbox.enqueue(Outgoing("alice@example.org", "subject", "body", "good", ()))
    for i, entry in enumerate(entries):
        raw = entry if isinstance(entry, bytes) else json.dumps(entry).encode()
        (folder / f"bad-{i}.json").write_bytes(raw)
    pending = outbox.pending()
    assert [mail.key for _, mail in pending].count("good") == 1
    assert all(isinstance(mail.to, str) and isinstance(mail.body, str) for _, mail in pending)


def test_a_flood_of_junk_is_worked_off_over_passes_and_orders_still_count(
    two, keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.moderator import core

    g1, _g2, mod = two
    monkeypatch.setattr(core, "MAX_FILES_PER_PASS", 3)
    for i in range(5):
        drop(g1, "bob", f"junk-{i}.txt", f"junk {i}\n", age=100 - i)
    [name] = awaited(g1)
    drop(g1, name, "good.txt", order_block(g1, keys, name), age=10)
    first = mod.run_pass()
    assert first.games[0].files == 3 and first.games[0].next_due == 1, "the rest is looked at next pass"
    # a pass takes files in turn from each inbox folder: the orders are not held back by bob's junk
    assert first.games[0].notices == ("malformed", "malformed", "accepted") and read(g1).turn == 2
    second = mod.run_pass()
    assert second.games[0].notices == ("malformed",) * 3
    assert len(notice_texts(g1, "players/bob")) == 5


def test_a_folder_tree_deeper_than_python_recursion_is_set_aside(two, keys) -> None:
    """1,500 nested folders in an inbox once stalled every pass (a recursive sweep of the
    game folder hit Python's recursion limit); the sweep is now iterative and bounded."""
    g1, _g2, mod = two
    top = os.open(g1 / "inbox" / "alice", os.O_RDONLY)
    fd = top
    for _ in range(1500):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        if fd != top:
            os.close(fd)
        fd = inner
    os.close(fd)
    os.close(top)
    try:
        settled(g1 / "inbox" / "alice" / "d")
        stray = g1 / "reports" / "turn-0001" / ".pbem-tmp-public.txt.123"
        stray.write_text("half written")
        result = mod.run_pass()
        assert errors(result) == {"g1": None, "g2": None} and result.games[0].notices == ("malformed",)
        assert not stray.exists(), "the engine's own strays are still swept"
        file_and_resolve(g1, keys, mod)
    finally:  # shutil.rmtree (and pytest's clean-up) would recurse too deep
        for chain in [g1 / "inbox" / "alice" / "d", *(mod.state_dir / "quarantine" / "g1").glob("*/d")]:
            if chain.is_dir():
                _remove_chain(chain)


def _remove_chain(top: Path) -> None:
    """Remove a chain of nested folders ``top/d/d/...`` without recursion."""
    while (top / "d").is_dir():
        (top / "d").rename(top.parent / "next")
        top.rmdir()
        (top.parent / "next").rename(top)
    top.rmdir()


def test_files_dropped_straight_into_the_inbox_are_handled_not_ignored(two, keys) -> None:
    """Once ignored for ever; now junk there gets a public notice and the quarantine, and
    signed orders there count (the signature, not the folder, says whose they are)."""
    g1, _g2, mod = two
    [name] = awaited(g1)
    junk = g1 / "inbox" / "junk.txt"
    junk.write_text("junk\n")
    settled(junk)
    orders = g1 / "inbox" / "orders.txt"
    orders.write_text(order_block(g1, keys, name))
    settled(orders)
    result = mod.run_pass()
    assert errors(result) == {"g1": None, "g2": None}
    assert sorted(result.games[0].notices) == ["accepted", "malformed"] and read(g1).turn == 2
    assert not junk.exists() and not orders.exists()
    [public] = notice_texts(g1, "notices")
    assert "inbox/junk.txt" in public
    assert [n["was"] for n in quarantined(mod, "g1").values()] == ["inbox/junk.txt"]
