"""A whole game played by hand through the command line, as three people and their moderator
would: each on their own machine (their own PBEM_HOME), forms written by `pbem orders`,
filled in, checked, signed and sent; the moderator submits and advances.  Along the way each
player makes one mistake of each kind a person makes, and every message is checked: what went
wrong, where (the line of the player's own file), and that nothing was lost.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.keys import Identity
from pbem.orders import AGE_BEGIN, AGE_END
from pbem.player import bot_orders
from pbem.reports import parse_report
from pbem.rng import Rng

PLAYERS = ("alice", "bob", "carol")
SEAT_WORDS = re.compile(r"\b(player|seat) [0-9]\b", re.IGNORECASE)


class Table:
    """Three players and a moderator, each with their own local pbem folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.game = root / "game"
        for name in ("moderator", *PLAYERS):
            self.ok(name, "keygen", name, "--out", str(root / "keys"))

    def key(self, name: str) -> str:
        return str(self.root / "keys" / f"{name}.key")

    def run(self, who: str, *args: str) -> Result:
        home = self.root / "homes" / who
        return CliRunner().invoke(main, list(args), env={"PBEM_HOME": str(home)})

    def ok(self, who: str, *args: str) -> Result:
        result = self.run(who, *args)
        assert result.exit_code == 0, f"pbem {' '.join(args)}: exit {result.exit_code}\n{result.output}"
        assert not SEAT_WORDS.search(result.output), f"a seat number where a name belongs:\n{result.output}"
        return result

    def refused(self, who: str, code: int, *args: str) -> str:
        """Run a command that must be refused with ``code``, without a traceback or a change to
        the game; returns what it said."""
        before = self.snapshot()
        result = self.run(who, *args)
        assert result.exit_code == code, f"pbem {' '.join(args)}: exit {result.exit_code}\n{result.output}"
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in result.output
        assert self.snapshot() == before, "a refused command changed the game folder"
        return result.output

    def snapshot(self) -> dict[str, bytes]:
        if not self.game.exists():
            return {}
        return {
            str(p.relative_to(self.game)): p.read_bytes()
            for p in sorted(self.game.rglob("*"))
            if p.is_file() and not p.name.startswith(".")
        }

    def save(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads((self.game / "save.json").read_text())["body"]
        return body

    def awaited(self) -> list[str]:
        save = self.save()
        names = [p["card"]["name"] for p in save["players"]]
        submitted = set(save["submitted"])
        return [names[s] for s in save["awaiting"] if s not in submitted]

    def report(self, name: str) -> Path:
        return self.game / "reports" / f"turn-{self.save()['turn']:04d}" / f"{name}.txt"

    def form(self, name: str) -> Path:
        """``name`` reads their report and asks for a form, as a person does."""
        self.ok(name, "read", str(self.report(name)), "--key", self.key(name))
        path = self.root / f"{name}-form.txt"
        self.ok(name, "orders", str(self.report(name)), "--key", self.key(name), "-o", str(path))
        return path

    def bot_lines(self, name: str, bot: str = "greedy", seed: int = 0) -> list[str]:
        path = self.report(name)
        report = parse_report(path.read_text(encoding="utf-8"), str(path), Identity.load(self.key(name)))
        return bot_orders(report, bot, Rng(f"by-hand/{self.save()['revision']}/{name}/{seed}".encode()))

    def filled(self, name: str, lines: list[str], comment: str | None = None) -> Path:
        """The form with its suggested orders replaced by ``lines`` (and a comment of the player's)."""
        path = self.form(name)
        keep = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.strip() or line.startswith("#") or ":" in line.split()[0]
        ]
        extra = [f"# {comment}"] if comment else []
        path.write_text("\n".join([*keep, *extra, *lines]) + "\n", encoding="utf-8")
        return path

    def sign(self, name: str, form: Path, *extra: str) -> Path:
        out = self.root / f"{name}-signed.txt"
        self.ok(name, "sign", str(form), "--key", self.key(name), "-o", str(out), *extra)
        return out

    def submit(self, path: Path) -> str:
        return self.ok(
            "moderator", "submit", str(self.game), str(path), "--key", self.key("moderator")
        ).output

    def advance(self) -> str:
        return self.ok("moderator", "advance", str(self.game), "--key", self.key("moderator")).output


def rewrap(text: str, width: int) -> str:
    """The sealed block re-wrapped at ``width`` columns, as a mail client might."""
    lines = text.strip().splitlines()
    body = "".join(lines[1:-1])
    return "\n".join([lines[0], *(body[i : i + width] for i in range(0, len(body), width)), lines[-1]]) + "\n"


def damage(text: str) -> str:
    """One base64 character of the sealed block's payload changed, as a bad relay might."""
    lines = text.splitlines()
    row = len(lines) // 2
    char = lines[row][10]
    lines[row] = lines[row][:10] + ("A" if char != "A" else "B") + lines[row][11:]
    return "\n".join(lines) + "\n"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_whole_game_by_hand_with_every_mistake(tmp_path: Path) -> None:
    t = Table(tmp_path)
    players = [f"--player={n}={tmp_path / 'keys' / f'{n}.pub'}" for n in PLAYERS]
    created = t.ok(
        "moderator", "new", "symbiote", str(t.game), "--moderator-key", t.key("moderator"), *players
    )
    first = t.awaited()[0]
    assert f"awaiting orders from: {first}" in created.output

    # 1. An order the rules refuse: sign refuses it (exit 1) with the line of the form, and
    #    writes nothing.
    form = t.filled(first, ["discard ZZ"])
    bad_line = form.read_text(encoding="utf-8").splitlines().index("discard ZZ") + 1
    said = t.refused(first, 1, "sign", str(form), "--key", t.key(first), "-o", str(tmp_path / "x.txt"))
    assert f"line {bad_line}: invalid order 'discard ZZ'" in said
    assert "did you mean" in said
    assert not (tmp_path / "x.txt").exists()

    # 2. Windows Notepad: a byte-order mark and CRLF line ends, and a comment too long for
    #    mail: accepted, the comment wrapped under 72 columns.
    form = t.filled(first, t.bot_lines(first), comment="a long note to myself " * 6)
    form.write_bytes(b"\xef\xbb\xbf" + form.read_text(encoding="utf-8").replace("\n", "\r\n").encode())
    signed = t.sign(first, form, "--no-seal")
    assert all(len(line) <= 72 for line in signed.read_text(encoding="utf-8").splitlines())
    sealed = t.sign(first, form)
    text = sealed.read_text(encoding="utf-8")
    assert text.startswith(AGE_BEGIN) and text.rstrip().endswith(AGE_END)

    # 3. The sealed file damaged in transit: refused as damage, saying what to do.
    damaged = tmp_path / "damaged.txt"
    damaged.write_text(damage(text), encoding="utf-8")
    said = t.refused("moderator", 1, "submit", str(t.game), str(damaged), "--key", t.key("moderator"))
    assert "transit" in said and "what to do" in said

    # 4. The same file re-wrapped at 50 columns by a mail client: accepted.
    rewrapped = tmp_path / "rewrapped.txt"
    rewrapped.write_text(rewrap(text, 50), encoding="utf-8")
    assert f"accepted: orders of {first}" in t.submit(rewrapped)

    # 5. Sent twice: a duplicate.  Then the player changes their mind: a fresh form asks for
    #    Seq: 2 (pbem remembers the Seq signed on this machine), the new orders replace the
    #    first ones, and the first file sent again is refused as a replay.
    said = t.refused("moderator", 1, "submit", str(t.game), str(rewrapped), "--key", t.key("moderator"))
    assert "already accepted" in said
    accepted = t.bot_lines(first)
    other = next(
        t.bot_lines(first, "random", k) for k in range(50) if t.bot_lines(first, "random", k) != accepted
    )
    form = t.filled(first, other, comment="changed my mind")
    assert "Seq: 2" in form.read_text(encoding="utf-8")
    assert f"replaced: orders of {first}" in t.submit(t.sign(first, form))
    said = t.refused("moderator", 1, "submit", str(t.game), str(rewrapped), "--key", t.key("moderator"))
    assert "sequence number 1" in said and "Seq: 3" in said
    assert t.awaited() == [], "the accepted orders must still stand"

    # 6. Orders from someone whose turn it is not (signed without the check): refused.
    idle = next(n for n in PLAYERS if n != first)
    form = t.filled(idle, ["draw"])
    said = t.refused(idle, 1, "sign", str(form), "--key", t.key(idle), "-o", str(tmp_path / "y.txt"))
    assert f"it is {first}'s turn" in said
    early = t.sign(idle, form, "--no-check")
    said = t.refused("moderator", 1, "submit", str(t.game), str(early), "--key", t.key("moderator"))
    assert f"{idle} owes no orders" in said

    # 7. A file that is not text: rejected input (exit 1), not a usage error.
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    said = t.refused("moderator", 1, "submit", str(t.game), str(junk), "--key", t.key("moderator"))
    assert "junk.txt" in said

    t.advance()

    # 8. A reply to the report with the orders in it: sealed orders above the quoted report.
    who = t.awaited()[0]
    reply_to = t.report(who).read_text(encoding="utf-8")
    sealed = t.sign(who, t.filled(who, t.bot_lines(who)))
    reply = tmp_path / "reply.txt"
    quoted = "\n".join("> " + line for line in reply_to.splitlines())
    reply.write_text(
        f"Here are my orders.\n\n{sealed.read_text(encoding='utf-8')}\nOn turn 2 you wrote:\n{quoted}\n"
    )
    assert f"accepted: orders of {who}" in t.submit(reply)
    t.advance()

    # The rest of the game, as people play it: form, fill, sign, send; the moderator files
    # and advances whenever every awaited order is in.
    for _ in range(400):
        if t.save()["outcome"] is not None:
            break
        for name in t.awaited():
            t.submit(t.sign(name, t.filled(name, t.bot_lines(name))))
        t.advance()
    outcome = t.save()["outcome"]
    assert outcome is not None, "the game did not end"
    status = t.ok("anyone", "status", str(t.game)).output
    assert "game over" in status
    assert any(name in status for name in PLAYERS)
    assert "verified" in t.ok("anyone", "verify", str(t.game)).output
    for name in PLAYERS:
        final = t.ok(name, "read", str(t.report(name)), "--key", t.key(name)).output
        assert all(len(line) <= 72 for line in final.splitlines()), "a final report line over 72 columns"
