"""Sizes: no hidden fact may be predictable from any public byte count.

An outsider cannot open an age block, but can count bytes: the length of every file, and
from the age format itself (header up to the ``---`` line, then a nonce and 64 KiB chunks
with 16-byte tags) the exact plaintext length inside every block, whatever random "grease"
stanzas the encryptor added.  These tests measure exactly that, for every registered game:

- the Symbiote leak of issue 8 (the private part's length gives the number of tens in the
  hand and whether it holds a playable set) as a predictor that must do no better than one
  that knows only the public facts;
- two games that differ only in hidden facts (same public view, other hands): every file of
  their folders has the same outsider byte count, before and after a sealed order file;
- every encrypted part of whole bot games has its declared size (never a larger one);
- engine-only bot games prove that no real game outgrows its declared sizes.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical, padding
from pbem.demo import run_demo
from pbem.engine import GameFolder, parse_options
from pbem.game import Event, Game, OrderLine
from pbem.keys import Identity
from pbem.orders import OrderHeader, seal, sign
from pbem.registry import game_names, get_game
from pbem.reports import ReportContext, parse_report
from pbem.rng import Rng
from pbem.save import Secret, read_save

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
AGE_BLOCK = re.compile(r"-----BEGIN AGE ENCRYPTED FILE-----(.*?)-----END AGE ENCRYPTED FILE-----", re.DOTALL)
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan")


# ---- what an outsider measures ----------------------------------------------------------------
def age_plaintext_length(armored_inside: str) -> int:
    """The plaintext length of one age block, from its armoured body alone (no key).

    Works on the text between the armour lines whether it sits in a text file or, with
    ``\\n`` escapes, in a JSON string.
    """
    raw = base64.b64decode(re.sub(r"[^A-Za-z0-9+/=]", "", armored_inside.replace("\\n", "\n")))
    header_end = raw.index(b"\n", raw.index(b"\n--- ") + 1) + 1
    payload = len(raw) - header_end - 16  # the 16-byte nonce
    chunks = max(1, -(-payload // (64 * 1024 + 16)))
    return payload - 16 * chunks


def outsider_size(text: str) -> tuple[int, tuple[int, ...]]:
    """The file's byte count as an outsider can know it (each age block counted as its
    plaintext length, so the random grease stanzas drop out) and every block's length."""
    lengths = tuple(age_plaintext_length(m.group(1)) for m in AGE_BLOCK.finditer(text))
    rest = AGE_BLOCK.sub("", text)
    return len(rest.encode("utf-8")) + sum(lengths), lengths


def accuracy(samples: Iterable[tuple[Hashable, Hashable]]) -> float:
    """How often the best guess of the hidden value from the key is right (in sample):
    each key guesses its most common hidden value."""
    groups: dict[Hashable, Counter[Hashable]] = defaultdict(Counter)
    total = 0
    for key, hidden in samples:
        groups[key][hidden] += 1
        total += 1
    return sum(c.most_common(1)[0][1] for c in groups.values()) / total


# ---- whole games ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Two whole bot games per registered game (different seeds: other hidden facts)."""
    out: dict[str, list[Path]] = {}
    for name in game_names():
        out[name] = []
        for seed in (1, 2):
            folder = tmp_path_factory.mktemp(f"sizes-{name}") / "demo"
            run_demo(name, None, seed, folder, ["greedy", "random"], {}, max_turns=400)
            out[name].append(folder)
    return out


def test_symbiote_private_length_predicts_no_tens_and_no_sets(demos: dict[str, list[Path]]) -> None:
    """Issue 8: in 84 of 91 Symbiote reports the private part's length alone gave the number
    of tens in the hand and whether it held a playable set.  A guess from any byte count an
    outsider sees must be no better than a guess from the public facts alone."""
    from pbem_games.symbiote.cards import legal_sets

    samples: list[tuple[tuple[Any, ...], tuple[int, bool], int, tuple[int, ...]]] = []
    for out in demos["symbiote"]:
        keys = {p.stem: Identity.load(p) for p in (out / "keys").glob("*.key")}
        for path in sorted((out / "game" / "reports").glob("turn-*/*.txt")):
            if path.stem not in keys or path.stem == "moderator":
                continue
            text = path.read_text(encoding="utf-8")
            report = parse_report(text, str(path), keys[path.stem])
            hand = report.private["hand"]
            hidden = (sum(card.startswith("10") for card in hand), bool(legal_sets(hand)))
            public = (report.data["public"]["hands"][report.data["seat"]],)
            size, blocks = outsider_size(text)
            samples.append((public, hidden, size, blocks))
    assert len(samples) > 150
    tens_vary = {h[0] for _, h, _, _ in samples}
    assert len(tens_vary) > 1, "the sample must hold hands with different numbers of tens"
    # From the byte counts alone ...
    by_nothing = accuracy(((), h) for _, h, _, _ in samples)
    by_length = accuracy((b, h) for _, h, _, b in samples)
    assert by_length == by_nothing, f"private length predicts tens/sets: {by_length:.2f} vs {by_nothing:.2f}"
    # ... and together with the public facts (the hand's size is public).
    by_public = accuracy((p, h) for p, h, _, _ in samples)
    by_public_and_sizes = accuracy(((p, b), h) for p, h, _, b in samples)
    assert by_public_and_sizes == by_public, (
        f"byte counts add to the public facts: {by_public_and_sizes:.2f} vs {by_public:.2f}"
    )


def _block_kind(folder: Path, path: Path) -> str:
    rel = path.relative_to(folder).parts
    if rel[0] in ("history",) or path.name == "save.json":
        return "secret"
    return rel[0]


@pytest.mark.parametrize("name", game_names())
def test_every_encrypted_part_has_its_declared_size(name: str, demos: dict[str, list[Path]]) -> None:
    """Across whole games with other hidden facts, each encrypted part has one size, fixed by
    public facts only (the game, the kind of part, the turn for the save's secret), and it is
    the first size declared: no real game needs the next one up."""
    game = get_game(name)
    sizes: dict[tuple[str, int], set[int]] = defaultdict(set)
    counted = Counter[str]()
    for out in demos[name]:
        folder = out / "game"
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            text = path.read_text(encoding="utf-8")
            kind = _block_kind(folder, path)
            turn = read_save(text.encode(), str(path)).turn if kind == "secret" else 0
            for length in outsider_size(text)[1]:
                sizes[(kind, turn)].add(length)
                counted[kind] += 1
        for path in (out / "mail").rglob("*.txt"):  # what the bots mailed: sealed orders
            for length in outsider_size(path.read_text(encoding="utf-8"))[1]:
                sizes[("mail", 0)].add(length)
                counted["mail"] += 1
    expected = {
        "reports": game.info.padding.report,
        "orders": padding.ORDERS_SIZE,
        "mail": padding.ORDERS_SIZE,
    }
    assert counted["secret"] > 4 and counted["orders"] > 4 and counted["reports"] > 4, counted
    for (kind, turn), found in sizes.items():
        want = game.info.padding.secret_size(turn) if kind == "secret" else expected[kind]
        assert found == {want}, f"{name}: {kind} blocks (turn {turn}) have sizes {sorted(found)}, want {want}"


# ---- two games that differ only in hidden facts -----------------------------------------------
def _twin_seeds(game: Game, players: int, options: dict[str, Any], budget: int = 300) -> tuple[bytes, bytes]:
    """Two seeds whose set-ups have the same public view: with other hidden facts (hands)
    when such a pair turns up, else with only the seed (every later draw) different."""
    seen: dict[bytes, tuple[bytes, bytes]] = {}
    same_but_seed = None
    for i in range(budget):
        seed = f"pbem-sizes/{i}".encode().ljust(32, b"\0")
        state = game.setup(players, options, Rng.for_turn(seed, 0, "setup"))
        public = canonical.dumps(game.observe(state, None).public)
        private = canonical.dumps([game.observe(state, s).private for s in range(players)])
        if public in seen:
            if seen[public][1] != private:
                return seen[public][0], seed
            same_but_seed = same_but_seed or (seen[public][0], seed)
        seen.setdefault(public, (seed, private))
    if same_but_seed is not None:
        return same_but_seed
    pytest.skip(
        f"{game.info.name}: no two of {budget} set-ups share a public view "
        "(something random is public at every set-up: dealt characters, corners; the whole-game "
        "size test still covers it, and Parasite's twins in tests/parasite/test_side_channels.py)"
    )


def _entropy(seed: bytes) -> Callable[[int], bytes]:
    chunks = [seed, b"\x5a" * 8]
    return lambda n: chunks.pop(0)[:n]


def _folder_sizes(folder: Path) -> dict[str, tuple[int, tuple[int, ...]]]:
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        out[str(path.relative_to(folder))] = outsider_size(path.read_text(encoding="utf-8"))
    return out


@pytest.mark.parametrize("name", game_names())
def test_games_that_differ_only_in_hidden_facts_look_the_same(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same players, options, moderator, game id and clock; set-ups with the same public
    view but other hidden facts (other hands).  Every file, save and history included, has
    the same outsider byte count, and so does every encrypted part; again after each awaited
    player has sent a sealed order file (the game's default orders for their own hand)."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    game = get_game(name)
    players = game.info.max_players
    options = parse_options(game, {})
    seeds = _twin_seeds(game, players, options)
    moderator = Identity.generate("moderator")
    people = [Identity.generate(n) for n in NAMES[:players]]
    folders = []
    for i, seed in enumerate(seeds):
        folder = GameFolder.create(
            tmp_path / f"game{i}",
            name,
            moderator,
            [p.public() for p in people],
            {},
            now=NOW,
            entropy=_entropy(seed),
            home=tmp_path / f"home{i}",  # one game id, two games: one record each
        )
        folders.append(folder)
    sizes = [_folder_sizes(f.path) for f in folders]
    assert sizes[0] == sizes[1]
    assert any(blocks for _, blocks in sizes[0].values())
    for folder in folders:
        loaded = folder.load(moderator)
        for seat in loaded.save.awaiting:
            view = loaded.view(seat)
            lines = game.default_orders(view)
            header = OrderHeader(loaded.save.game_id, loaded.save.turn, people[seat].name, 1)
            text = seal(sign(people[seat], header, lines), [moderator.public()])
            folder.submit(text, moderator, source="orders.txt", now=NOW + timedelta(minutes=1))
    after = [_folder_sizes(f.path) for f in folders]
    assert set(after[0]) - set(sizes[0]), "the order files were filed"
    assert after[0] == after[1]


# ---- no real game outgrows its sizes ------------------------------------------------------------
def _engine_game(game: Game, seed: int) -> tuple[int, int, int]:
    """One engine-only bot game with random options and player count and 32-character names;
    returns the largest private report part, and the largest excess of the save's secret
    over its declared size (negative: room to spare) and the number of turns."""
    import random

    from pbem.reports import private_plaintext

    pick = random.Random(seed)
    players = pick.randint(game.info.min_players, game.info.max_players)
    raw = {}
    for variant in game.info.variants:
        if isinstance(variant.default, bool):
            raw[variant.name] = pick.choice(["true", "false"])
        elif variant.choices:
            raw[variant.name] = str(pick.choice(variant.choices))
    options = parse_options(game, raw)
    secret_seed = pick.randbytes(32)
    names = tuple(f"{n}{'x' * 32}"[:32] for n in NAMES[:players])
    state = game.setup(players, options, Rng.for_turn(secret_seed, 0, "setup"))
    log: list[Any] = []
    events: list[Any] = []
    turn = 1
    card = Identity.generate("moderator").public()
    largest_private = 0
    excess = -(1 << 60)
    while True:
        ctx = ReportContext(
            game_id="F" * 16,
            turn=turn,
            revision=999_999,
            names=names,
            awaiting=names,
            moderator=card,
            seed_commitment="",
            seed=None,
            outcome=None,
            seq={},
        )
        for seat in range(players):
            view = game.observe(state, seat)
            plain = private_plaintext(game, view, [Event.from_json(e) for e in events], ctx)
            largest_private = max(largest_private, len(plain))
        pending: dict[str, Any] = {}
        over = game.outcome(state) is not None
        for seat in () if over else game.to_act(state):
            view = game.observe(state, seat)
            bot = pick.choice(sorted(game.bots))
            lines = game.bots[bot](game, view, Rng(secret_seed + f"/{turn}/{seat}".encode()))
            order_lines = [OrderLine(i, t.split("#", 1)[0].strip()) for i, t in enumerate(lines, 1)]
            pending[str(seat)] = {
                "orders": game.validate(view, [line for line in order_lines if line.text]),
                "seq": 999_999_999,
                "digest": "0" * 64,
                "source": "x" * 64,
            }
        secret = Secret(state, secret_seed, pending, events, log)
        size = len(canonical.compact(secret.to_json("F" * 16, 999_999)))
        excess = max(excess, size - game.info.padding.secret_size(turn))
        if over or turn > 400:
            return largest_private, excess, turn
        orders = {int(k): v["orders"] for k, v in pending.items()}
        result = game.resolve(state, orders, Rng.for_turn(secret_seed, turn))
        state = result.state
        log = [*log, {"turn": turn, "orders": {str(k): v for k, v in sorted(orders.items())}}]
        events = [e.to_json() for e in result.events]
        turn += 1


GAMES_PER_KIND = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 6


@pytest.mark.parametrize("name", game_names())
def test_no_real_game_outgrows_its_declared_sizes(name: str) -> None:
    """Bot games with every option at random, the most players and the longest names: the
    private report part and the save's secret part always fit their first size."""
    game = get_game(name)
    for seed in range(GAMES_PER_KIND):
        private, excess, turns = _engine_game(game, seed)
        assert private <= game.info.padding.report, f"{name} game {seed}: private part of {private} bytes"
        assert excess <= 0, f"{name} game {seed}: the save's secret outgrew its size by {excess} bytes"
        assert turns > 1


# ---- the padding itself -----------------------------------------------------------------------
FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 200


@settings(max_examples=FUZZ, deadline=None)
@given(data=st.binary(max_size=5000), size=st.integers(min_value=1, max_value=4096))
def test_padding_reaches_the_size_or_the_next_one_up(data: bytes, size: int) -> None:
    padded = padding.pad(data, size)
    assert padded.startswith(data)
    assert padded[len(data) :].strip() == b""  # only white space is added
    assert len(padded) == padding.padded_size(len(data), size)
    assert len(padded) >= size and len(padded) % size == 0
    ratio = len(padded) // size
    assert ratio & (ratio - 1) == 0, "the next size up is the size doubled"
    if len(data) <= size:
        assert len(padded) == size
    else:
        assert len(padded) < 2 * len(data)


def test_declared_sizes_are_checked() -> None:
    with pytest.raises(ValueError, match="report"):
        padding.Padding(report=0)
    with pytest.raises(ValueError, match="secret_per_turn"):
        padding.Padding(secret_per_turn=-1)
    assert padding.Padding(secret=100, secret_per_turn=10).secret_size(1) == 100
    assert padding.Padding(secret=100, secret_per_turn=10).secret_size(5) == 140


def test_a_plaintext_larger_than_its_size_goes_to_the_next_size(tmp_path: Path) -> None:
    """Never a crash: 3,000 bytes with a size of 1,024 are padded to 4,096 and read back."""
    from pbem.keys import encrypt

    alice = Identity.generate("alice")
    text = ("x" * 2999 + "\n").encode()
    block = encrypt(text, [alice.public()], pad_to=1024)
    assert outsider_size(block)[1] == (4096,)
    assert alice.decrypt(block).rstrip() == text.rstrip()


def test_a_game_that_outgrows_its_sizes_still_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With sizes far too small, every part goes to a larger size and the game goes on:
    reports, sealed orders and saves are all read back."""
    import dataclasses

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    game = get_game("symbioz")
    tiny = dataclasses.replace(game.info, padding=padding.Padding(report=16, secret=16, secret_per_turn=0))
    monkeypatch.setattr(type(game), "info", tiny)
    out = tmp_path / "demo"
    run_demo("symbioz", None, 4, out, ["greedy"], {})
    folder = out / "game"
    moderator = Identity.load(out / "keys" / "moderator.key")
    for path in folder.glob("history/*.json"):
        from pbem.save import open_secret

        save = read_save(path.read_bytes(), str(path))
        assert open_secret(save, moderator).state
        (length,) = outsider_size(save.body["secret"])[1]
        assert length > 16 and length & (length - 1) == 0
    reports = list(folder.glob("reports/turn-*/alice.txt"))
    assert reports
    for path in reports:
        report = parse_report(
            path.read_text(encoding="utf-8"), str(path), Identity.load(out / "keys" / "alice.key")
        )
        assert report.private is not None


def test_notice_details_are_padded_and_shown_without_the_padding() -> None:
    """Two notices whose hidden details differ in length have blocks of one size, and
    ``pbem open`` shows the details exactly, without the padding."""
    from pbem.moderator.notices import Notice, open_text

    alice, moderator = Identity.generate("alice"), Identity.generate("moderator")
    short = "line 2: you do not hold 8H; your hand: AS 3H"
    long = "line 2: you do not hold 8H; your hand: AS 3H 7H 10C 10D JS QD KC"
    texts = []
    for secret in (short, long):
        notice = Notice(
            "orders", "ABCD", 3, "orders.txt", "now", "some orders cannot be carried out", secret=secret
        )
        texts.append(notice.render([alice.public(), moderator.public()]))
    assert outsider_size(texts[0]) == outsider_size(texts[1])
    assert outsider_size(texts[0])[1] == (padding.NOTICE_SIZE,)
    opened = open_text(texts[1], alice)
    assert long in opened
    assert not any(line.strip() == "" and len(line) > 2 for line in opened.splitlines()), "padding shown"
    assert opened.split(long, 1)[1].startswith("\n----- end of details -----")


def test_sealed_orders_have_one_size_whatever_they_hold() -> None:
    alice, moderator = Identity.generate("alice"), Identity.generate("moderator")
    header = OrderHeader("ABCDEF0123456789", 4, "alice", 2)
    few = seal(sign(alice, header, ["draw"]), [moderator.public()])
    many = seal(
        sign(alice, header, ["take", "pair 3H 7H", "royal JS QS KS", "pair 10H 10D", "discard 4C"]),
        [moderator.public()],
    )
    assert outsider_size(few) == outsider_size(many)
    assert outsider_size(few)[1] == (padding.ORDERS_SIZE,)


@pytest.mark.skipif(shutil.which("age") is None, reason="the age command line tool is not installed")
def test_age_reads_a_padded_report(demos: dict[str, list[Path]], tmp_path: Path) -> None:
    """``age -d`` opens a padded private part: the text, then only white space."""
    out = demos["symbiote"][0]
    alice = Identity.load(out / "keys" / "alice.key")
    identity = tmp_path / "alice.age"
    fd = os.open(identity, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(alice.age_identity_line() + "\n")
    path = out / "game" / "reports" / "turn-0001" / "alice.txt"
    block = AGE_BLOCK.search(path.read_text(encoding="utf-8"))
    assert block is not None
    done = subprocess.run(
        ["age", "-d", "-i", str(identity)],
        input=block.group(0).encode() + b"\n",
        capture_output=True,
        check=True,
    )
    plain = done.stdout
    assert len(plain) == get_game("symbiote").info.padding.report
    text = plain.decode("utf-8").rstrip()
    assert text.endswith("-----END PBEM PRIVATE DATA-----")
    assert plain[len(text) :].strip() == b""
    report = parse_report(path.read_text(encoding="utf-8"), str(path), alice)
    assert report.private_text is not None and report.private_text.strip() in text
