"""Side channels of an unattended Parasite game: ``pbem moderate`` with mail on.

``test_side_channels.py`` plays twin games (two players' Infection cards swapped) through
the engine and the game folder.  Here the twins run under the shared-folder moderator with
a timing policy, so its own writings are compared too: every file outside the inboxes (by
name and outsider byte count), the clear text of every notice and reminder, and every mail
(recipient, subject, attachment names, outsider byte counts of body and attachments).
Some seats answer with orders chosen from public facts, the others stay silent until the
deadline, so reminders go out and the stand-in plays (default orders) and says so in a
notice with its orders encrypted.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.moderator.core import Moderator
from pbem.orders import AGE_BEGIN, OrderHeader, seal, sign
from pbem.rng import Rng
from pbem.timing import FixedClock
from pbem_games.parasite import rules

for _folder in (Path(__file__).resolve().parent, Path(__file__).resolve().parents[1]):
    if str(_folder) not in sys.path:  # test_side_channels, test_sizes
        sys.path.insert(0, str(_folder))

from test_side_channels import NOW, public_orders, swap_infection  # noqa: E402

NAMES = ("alice", "bob", "carol", "dave", "erin")
T0 = 1_800_000_000
H = 3600
TOML = """
[timing]
deadline = "4h"
reminders = ["2h"]
grace = "0h"
on_missing = "default"
"""


def _clear(text: str) -> str:
    """``text`` with each age block replaced by a mark (its length is compared elsewhere)."""
    out, inside = [], False
    for line in text.splitlines():
        if line.strip() == AGE_BEGIN:
            inside = True
            out.append("(age block)")
        elif inside:
            inside = not line.strip().startswith("-----END AGE")
        else:
            out.append(line)
    return "\n".join(out)


def _named(path: Path) -> str:
    """A notice's file name without the key of the inbox file it answers (a hash of the
    sealed file's bytes, random in every encryption)."""
    return re.sub(r"^(notice-turn-\d+)-[0-9a-f]+", r"\1-KEY", path.name)


def _seen(game: Path, mails: list[Any]) -> dict[str, Any]:
    from test_sizes import outsider_size

    files: dict[str, list[Any]] = {}
    texts: dict[str, list[str]] = {}
    for path in sorted(game.rglob("*")):
        rel = path.relative_to(game)
        if not path.is_file() or rel.parts[0] == "inbox":
            continue
        text = path.read_text(encoding="utf-8")
        name = str(rel.parent / _named(path))  # two notices of a turn: compared as a set
        files.setdefault(name, []).append(outsider_size(text))
        if path.name.startswith(("notice-", "reminder-", "abandoned-")) or path.name in (
            "public.txt",
            "board.svg",
        ):
            texts.setdefault(name, []).append(_clear(text))
    files = {k: sorted(v) for k, v in files.items()}
    texts = {k: sorted(v) for k, v in texts.items()}
    shown = sorted(
        (
            m.to,
            m.subject,
            outsider_size(m.body),
            tuple((n, outsider_size(d.decode("utf-8"))) for n, d in m.attachments),
        )
        for m in mails
    )
    return {"files": files, "texts": texts, "mails": shown}


def test_twin_games_under_the_moderator_look_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("os.fsync", lambda fd: None)
    monkeypatch.setattr("pbem.moderator.durable._syncfs", [lambda fd: None])
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    moderator = Identity.generate("moderator")
    people = [Identity.generate(n) for n in NAMES]
    real_setup = rules.setup
    games, mods = [], []
    clock = FixedClock(T0)
    for twin in (0, 1):

        def setup(players: int, options: Any, rng: Rng, twin: int = twin) -> Any:
            state = real_setup(players, options, rng)
            return swap_infection(state, 0, 2) if twin else state

        monkeypatch.setattr(rules, "setup", setup)
        root = tmp_path / f"root{twin}"
        root.mkdir()
        (root / "moderator.toml").write_text("[moderator]\nsettle = 0\n")
        folder = GameFolder.create(
            root / "game",
            "parasite",
            moderator,
            [p.public() for p in people],
            {},
            now=NOW,
            entropy=lambda n: b"\x23" * n,
            home=tmp_path / f"home{twin}",
        )
        emails = "\n".join(f'[players.{n}]\nemail = "{n}@example.org"\n' for n in NAMES)
        (folder.path / "moderator.toml").write_text(TOML + emails)
        games.append(folder)
        mods.append(Moderator(root, moderator, clock=clock, state_dir=root / "state", mail=True, settle=0))
    monkeypatch.setattr(rules, "setup", real_setup)
    states = [g.load(moderator).secret.state for g in games]
    assert states[0]["infection"] != states[1]["infection"], "the twins differ in a hidden fact"
    stand_ins = reminders = 0
    for step in range(14):
        seen = []
        for folder, mod in zip(games, mods, strict=True):
            mod.run_pass(force=True)
            outbox = mod.outbox
            assert outbox is not None
            pending = outbox.pending()
            for path, _ in pending:
                outbox.mark_sent(path)
            seen.append(_seen(folder.path, [m for _, m in pending]))
        assert seen[0]["files"].keys() == seen[1]["files"].keys(), (
            step,
            sorted(set(seen[0]["files"]) ^ set(seen[1]["files"])),
        )
        for key in ("files", "texts", "mails"):
            assert seen[0][key] == seen[1][key], (step, key)
        stand_ins = sum("stand-in played" in m[1] for m in seen[0]["mails"]) + stand_ins
        reminders = sum("reminder" in m[1].lower() for m in seen[0]["mails"]) + reminders
        if games[0].read().body["outcome"] is not None:
            break
        for folder in games:
            loaded = folder.load(moderator)
            state = loaded.secret.state
            for seat in loaded.save.awaiting:
                if (seat + step) % 3 == 0:
                    continue  # silent: reminded, then played for by the stand-in
                lines = public_orders(state, seat, step, False)
                header = OrderHeader(loaded.save.game_id, loaded.save.turn, NAMES[seat], step + 1)
                text = seal(sign(people[seat], header, lines), [moderator.public()])
                inbox = folder.path / "inbox" / NAMES[seat]
                inbox.mkdir(parents=True, exist_ok=True)
                (inbox / f"orders-{step}.txt").write_text(text)
        clock.advance(3 * H)  # past the reminder: the answered seats resolve at once
        for mod in mods:
            mod.run_pass(force=True)
        clock.advance(2 * H)  # past the deadline: the stand-in plays for the silent seats
    assert stand_ins > 0 and reminders > 0, (stand_ins, reminders)
