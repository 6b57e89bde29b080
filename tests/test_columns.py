"""Every line pbem writes for a person fits a mail body, names players, and survives folding.

For every registered game a demo is played (real keys, sealed orders, encrypted reports) by
players with the longest names pbem allows; every report (as written and decrypted), every
order form and every picture must then fit 72 columns and name people, never "player 3" or
"seat 0".  A moderated game with bad files and a deadline checks notices and reminders.
Reports folded by a mail client (quoted or not, at 72 columns or narrower) still verify; a
changed word after folding does not.
"""

from __future__ import annotations

import base64
import os
import re
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.demo import run_demo
from pbem.engine import GameFolder
from pbem.errors import SignatureError
from pbem.keys import REPORT_DOMAIN, Identity
from pbem.moderator.core import Moderator
from pbem.moderator.notices import open_text
from pbem.orders import sign
from pbem.player import form_header, order_form
from pbem.registry import game_names
from pbem.reports import DATA_BEGIN, DATA_END, DATA_SIG, parse_report
from pbem.timing import FixedClock

LIMIT = 72
SEAT_REF = re.compile(r"\b(?:[Pp]layer|[Ss]eat) \d+\b")
LONG_NAMES = (
    "Alexandra_Montgomery-Fitzgerald1",
    "Bartholomew.Featherstonehaugh-22",
    "Cornelia_Vanderbilt-Ashcombe_333",
    "Dmitri.Rimsky-Korsakov_Petrov_44",
)
"""Four names of 32 characters, the longest allowed: wrapping must happen after naming."""
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 25


def _long_lines(text: str, where: str) -> list[str]:
    return [
        f"{where}:{i}: {len(line)} columns: {line[:80]}"
        for i, line in enumerate(text.splitlines(), 1)
        if len(line) > LIMIT
    ]


def _seat_refs(text: str, where: str) -> list[str]:
    return [
        f"{where}: {m.group(0)!r} in {text[max(0, m.start() - 30) : m.end() + 30]!r}"
        for m in SEAT_REF.finditer(text)
    ]


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One finished demo per registered game, four players with 32-character names."""
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("pbem.demo.NAMES", LONG_NAMES)
        for name in game_names():
            folder = tmp_path_factory.mktemp(f"demo-{name}")
            run_demo(name, 4, 11, folder / "demo", ["greedy", "random"], {})
            out[name] = folder / "demo"
    return out


@pytest.mark.parametrize("game_name", game_names())
def test_every_text_for_players_fits_72_columns_and_names_people(
    game_name: str, demos: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    demo = demos[game_name]
    moderator = Identity.load(demo / "keys" / "moderator.key")
    keys = {name: Identity.load(demo / "keys" / f"{name}.key") for name in LONG_NAMES}
    problems: list[str] = []
    checked = {"report": 0, "decrypted": 0, "form": 0, "picture": 0}
    turns = sorted((demo / "game" / "reports").iterdir())
    for turn_dir in turns:
        for path in sorted(turn_dir.iterdir()):
            text = path.read_text(encoding="utf-8")
            where = str(path.relative_to(demo))
            if path.suffix == ".svg":
                # Pictures are attachments (MIME-encoded), not mail lines; they must name people.
                problems += _seat_refs(text, where)
                checked["picture"] += 1
                continue
            problems += _long_lines(text, where) + _seat_refs(text, where)
            checked["report"] += 1
            if path.stem == "public":
                continue
            report = parse_report(text, where, keys[path.stem], moderator.public())
            readable = report.readable()
            problems += _long_lines(readable, where + " (decrypted)") + _seat_refs(
                readable, where + " (decrypted)"
            )
            checked["decrypted"] += 1
            if path.stem in report.data["awaiting"] or turn_dir == turns[-1]:
                monkeypatch.chdir(demo)  # the form names the report as typed: a relative path
                form = order_form(text, where, keys[path.stem], moderator.public())
                problems += _long_lines(form, where + " (form)") + _seat_refs(form, where + " (form)")
                checked["form"] += 1
    assert not problems, "\n".join(problems[:20])
    assert checked["report"] >= 5 * len(turns) - 1 and checked["form"] >= len(turns)
    if game_name != "symbiote":
        assert checked["picture"] >= len(turns)
        svg = (turns[-1] / "board.svg").read_text(encoding="utf-8")
        assert all(name in svg for name in LONG_NAMES), "the picture's legend names every player"


def test_symbioz_public_report_says_which_colour_is_whose_and_who_won(demos: dict[str, Path]) -> None:
    reports = demos["symbioz"] / "game" / "reports"
    last = sorted(reports.iterdir())[-1] / "public.txt"
    text = " ".join(last.read_text(encoding="utf-8").split())
    assert f"Players: Yellow = {LONG_NAMES[0]}, Red = {LONG_NAMES[1]}" in text
    assert re.search(r"(Yellow|Red|Blue|Purple) \([A-Za-z0-9_.-]{32}\) (wins|share the win)", text)


def test_moderator_notices_and_reminders_fit_and_name_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("os.fsync", lambda fd: None)
    t0 = 1_800_000_000
    keys = {name: Identity.generate(name) for name in ("moderator", *LONG_NAMES[:3])}
    root = tmp_path / "root"
    game = root / "g1"
    GameFolder.create(
        game,
        "symbiote",
        keys["moderator"],
        [keys[n].public() for n in LONG_NAMES[:3]],
        {"dealer": "last-seat"},
        now=datetime.fromtimestamp(t0, UTC),
        home=tmp_path / "create-home",
    )
    (game / "moderator.toml").write_text(
        '[timing]\ndeadline = "48h"\nreminders = ["24h"]\ngrace = "1h"\non_missing = "default"\n',
        encoding="utf-8",
    )
    clock = FixedClock(t0 + 60)
    moderator = Moderator(root, keys["moderator"], clock=clock, settle=0)
    moderator.run_pass()
    save = GameFolder(game).read()
    awaited = save.names[save.awaiting[0]]
    idle = next(n for n in save.names if n != awaited)
    report_path = game / "reports" / "turn-0001" / f"{awaited}.txt"
    report = parse_report(
        report_path.read_text(encoding="utf-8"), "r", keys[awaited], keys["moderator"].public()
    )
    idle_report_path = game / "reports" / "turn-0001" / f"{idle}.txt"
    idle_report = parse_report(
        idle_report_path.read_text(encoding="utf-8"), "r", keys[idle], keys["moderator"].public()
    )
    drops = {
        (awaited, "bad-orders.txt"): sign(keys[awaited], form_header(report), ["pair 10H 10S", "discard ZZ"]),
        (idle, "not-my-turn.txt"): sign(keys[idle], form_header(idle_report), ["draw"]),
        (awaited, "junk.txt"): "hello, these are my orders: " + "blah " * 40,
    }
    for (folder, filename), text in drops.items():
        path = game / "inbox" / folder / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        past = path.stat().st_mtime - 60  # settled, as the moderator tests drop files
        os.utime(path, (past, past))
    moderator.run_pass()
    clock.advance(25 * 3600)  # the reminder is due
    moderator.run_pass()
    files = sorted(p for p in (game / "players").rglob("*") if p.is_file() and p.suffix == ".txt")
    kinds = {p.name.split("-")[0] for p in files}
    assert {"notice", "reminder"} <= kinds, kinds
    problems: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(game))
        problems += _long_lines(text, where) + _seat_refs(text, where)
        if path.name.startswith("notice") and "BEGIN AGE ENCRYPTED FILE" in text:
            opened = open_text(text, keys[path.parent.name])
            problems += _long_lines(opened, where + " (opened)") + _seat_refs(opened, where + " (opened)")
    assert not problems, "\n".join(problems[:20])


# ---- folding ------------------------------------------------------------------------------
def fold(text: str, width: int, *, quote: str = "", requote: bool = False) -> str:
    """``text`` as a mail client shows it after quoting it with ``quote`` and folding every
    line longer than ``width`` at its last space (continuations quoted again or not)."""
    out = []
    for line in text.splitlines():
        line = quote + line
        if len(line) <= width:
            out.append(line)
            continue
        parts = textwrap.wrap(
            line, width, break_long_words=False, break_on_hyphens=False, drop_whitespace=True
        )
        out.append(parts[0])
        out += [(quote if requote else "") + part for part in parts[1:]]
    return "\n".join(out) + "\n"


def _prose_words(text: str) -> list[tuple[int, str]]:
    """(line number, word) of the report's signed text: alphabetic words before the data block."""
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if line.strip() == DATA_BEGIN)
    inside = False
    words = []
    for i, line in enumerate(lines[:end]):
        if "BEGIN AGE ENCRYPTED FILE" in line:
            inside = True
        if not inside:
            words += [(i, w) for w in line.split() if w.isalpha() and len(w) > 2]
        if "END AGE ENCRYPTED FILE" in line:
            inside = False
    return words


@pytest.fixture(scope="module")
def sample_reports(demos: dict[str, Path]) -> list[tuple[str, str, Identity, Identity]]:
    """A few real reports per game: (text, owner or "public", owner's key, moderator key)."""
    out = []
    for demo in demos.values():
        moderator = Identity.load(demo / "keys" / "moderator.key")
        turns = sorted((demo / "game" / "reports").iterdir())
        for turn_dir in (turns[0], turns[len(turns) // 2], turns[-1]):
            for owner in ("public", LONG_NAMES[0], LONG_NAMES[2]):
                key = Identity.load(demo / "keys" / f"{LONG_NAMES[0] if owner == 'public' else owner}.key")
                out.append(((turn_dir / f"{owner}.txt").read_text(encoding="utf-8"), owner, key, moderator))
    return out


@pytest.mark.parametrize("requote", [False, True])
def test_real_reports_folded_at_72_columns_after_quoting_still_verify(
    sample_reports: list[tuple[str, str, Identity, Identity]], requote: bool
) -> None:
    folds = 0
    for text, owner, key, moderator in sample_reports:
        for quote in ("> ", "> > ", ">> > "):
            folded = fold(text, 72, quote=quote, requote=requote)
            folds += len(folded.splitlines()) - len(text.splitlines())
            report = parse_report(folded, "mail", None if owner == "public" else key, moderator.public())
            if owner != "public":
                assert report.private is not None and report.data["player"] == owner
    assert folds > 20, "the samples must really be folded"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_folded_reports_verify_and_a_changed_word_never_does(
    sample_reports: list[tuple[str, str, Identity, Identity]], data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(sample_reports) - 1), label="report")
    text, _, _, moderator = sample_reports[index]
    # From 40 columns: the armour lines ("-----BEGIN AGE ENCRYPTED FILE-----") fit whole.
    width = data.draw(st.integers(min_value=40, max_value=72), label="width")
    quote = data.draw(st.sampled_from(["", "> ", "> > "]), label="quote")
    folded = fold(text, width, quote=quote, requote=data.draw(st.booleans()))
    parse_report(folded, "mail", None, moderator.public())  # folding alone changes nothing signed
    words = _prose_words(text)
    number, word = data.draw(st.sampled_from(words), label="word")
    new = data.draw(
        st.sampled_from(
            [word[:-1], word + "s", word.upper() if word != word.upper() else word.lower(), "not " + word]
        )
    )
    lines = text.splitlines()
    lines[number] = re.sub(rf"\b{re.escape(word)}\b", new, lines[number], count=1)
    with pytest.raises(SignatureError):
        parse_report(fold("\n".join(lines) + "\n", width, quote=quote), "mail", None, moderator.public())


def test_a_word_split_by_folding_is_refused(
    sample_reports: list[tuple[str, str, Identity, Identity]],
) -> None:
    text, _, _, moderator = sample_reports[0]
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith(("SYMBIOTE", "SYMBIOZ", "Jovian")))
    word = next(w for w in lines[number].split() if len(w) > 4 and w.isalpha())
    at = lines[number].index(word) + 2
    lines[number] = lines[number][:at] + "\n" + lines[number][at:]  # a client that breaks inside a word
    with pytest.raises(SignatureError, match="text was changed"):
        parse_report("\n".join(lines) + "\n", "mail", None, moderator.public())


def test_reports_signed_line_by_line_before_still_verify(
    sample_reports: list[tuple[str, str, Identity, Identity]],
) -> None:
    """A report from before word-by-word signing (text_sha256 over trimmed lines) verifies;
    folding it is refused, as it was then."""
    from pbem.reports import _line_digest

    text, _, _, moderator = sample_reports[0]
    lines = [line.strip() for line in text.splitlines()]
    start, sig_at, stop = lines.index(DATA_BEGIN), lines.index(DATA_SIG), lines.index(DATA_END)
    data = canonical.loads(base64.b64decode("".join(lines[start + 1 : sig_at])), "test")
    data["text_sha256"] = _line_digest(lines[:start])
    raw = canonical.dumps(data)
    signature = base64.b64encode(moderator.sign(REPORT_DOMAIN, raw)).decode()
    b64 = base64.b64encode(raw).decode()
    block = [DATA_BEGIN, *textwrap.wrap(b64, 64), DATA_SIG, *textwrap.wrap(signature, 64), DATA_END]
    old = "\n".join([*text.splitlines()[:start], *block, *text.splitlines()[stop + 1 :]]) + "\n"
    assert parse_report(old, "old", None, moderator.public()).data["text_sha256"] == data["text_sha256"]
    assert parse_report(fold(old, 72, quote="> "), "old", None, moderator.public())
    with pytest.raises(SignatureError):
        parse_report(fold(old, 50), "old", None, moderator.public())
