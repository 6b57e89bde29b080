"""Side channels: nothing public may depend on a hidden fact.

Two games that differ only in hidden facts (two players' Infection cards swapped, two hands
swapped, a hand with a pair against one without, the tokens carried under Unknown
Infections) are played with the same orders, chosen from public facts only.  Everything a
non-player can observe must be the same in both: who is awaited at every step (``to_act``,
what ``pbem status`` prints), the public view and report, the public events and their order,
the number of files and the size of every file and encrypted part.  With standing reactions
filed (they fire alike in both games: the hands are the same) and with reaction windows.

Then the plain-text leak test for Parasite: in a whole demo game, no Infection card that was
never revealed and no Test Result shows in anything but its owner's private part.
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem import canonical
from pbem.engine import GameFolder
from pbem.game import Event, OrderLine
from pbem.keys import Identity
from pbem.orders import OrderHeader, seal, sign
from pbem.reports import ReportContext, parse_report, private_plaintext
from pbem.rng import Rng
from pbem_games.parasite import GAME, forms, rules
from pbem_games.parasite.cards import load_cards

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # test_sizes, test_leaks
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

State = dict[str, Any]
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
TWIN_TURNS = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 20
"""Turns the twin folders are compared for (the whole game with PBEM_FUZZ_EXAMPLES set)."""
REACTIONS = sorted(c.id for c in load_cards().cards.values() if c.icon in ("reaction", "interrupt"))


# ---- orders from public facts only ------------------------------------------------------------
def public_orders(state: State, seat: int, step: int, standing: bool) -> list[str]:
    """Orders for ``seat`` chosen from the public view (and the seat's own question and hand
    where the rules need a card named): the same in two games whose public views agree."""
    view = GAME.observe(state, seat)
    pub = view.public
    pick = random.Random(canonical.dumps([pub["round"], step, seat, pub["loc"], pub["health"]]))
    lines = forms.default_orders(view)
    kind = pub["ask"]["question"]["kind"]
    cards = load_cards().cards
    hand = sorted(view.private.get("hand", []), key=lambda c: cards[c].deck)
    # Which deck a hand card comes from is public (its back): name hand cards by deck.
    if kind == "turn":
        lines = [f"discard {c}" for c in hand[: max(0, len(hand) - 3)]] + ["stay"]
    elif kind in ("give", "discard"):
        lines = [f"{kind} {', '.join(hand[: pub['ask']['question'].get('count', 1)])}"]
    if kind == "turn":
        here = [
            p
            for p in range(pub["players"])
            if p != seat and pub["loc"][p] is not None and pub["loc"][p] == pub["loc"][seat]
        ]
        if here and pick.random() < 0.35:
            lines.insert(-1, f"distress player {pick.choice(here) + 1}")
        places = ["office", "storehouse", "laboratory", "helipad"]
        if pub["mission"] and not pub["mission_done"]:
            places.append("mission")
        lines[-1] = f"move {pick.choice(places)}"
    elif kind == "window":
        q = pub["ask"]["question"]
        moment = "interrupt" if q["moment"] == "before" else "reaction"
        fits = [c for c in hand if cards[c].trigger == q["trigger"] and cards[c].icon == moment]
        if fits:
            lines = [f"play {fits[0]}"]
    if standing:
        lines += [f"react {card}" for card in REACTIONS]
    return lines


def _validated(state: State, seat: int, lines: list[str]) -> Any:
    view = GAME.observe(state, seat)
    return GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(lines, 1)])


Driver = Callable[[State, int, int, bool], list[str]]


def play(
    state: State, seed: int, standing: bool, driver: Driver = public_orders, limit: int = 400
) -> Iterator[tuple[State, list[Event]]]:
    """Yield each position with the events that led to it, under ``driver``'s orders."""
    events: list[Event] = []
    for step in range(limit):
        yield state, events
        if state["over"]:
            return
        orders = {
            seat: _validated(state, seat, driver(state, seat, step, standing)) for seat in GAME.to_act(state)
        }
        result = GAME.resolve(state, orders, Rng(f"side/{seed}/{step}".encode()))
        state, events = result.state, list(result.events)
    raise AssertionError("the game did not end")


# ---- twins ------------------------------------------------------------------------------------
def _both(state: State, change: Callable[[State], None]) -> State:
    """Change a position and the start of the procedure under way (answers replay from it)."""
    state = canonical.loads(canonical.dumps(state))
    change(state)
    if state["pending"] is not None:
        change(state["pending"]["base"])
    return state


def swap_infection(state: State, a: int, b: int) -> State:
    def change(s: State) -> None:
        s["infection"][a], s["infection"][b] = s["infection"][b], s["infection"][a]
        s["notes"][a], s["notes"][b] = s["notes"][b], s["notes"][a]

    return _both(state, change)


def swap_hands(state: State, a: int, b: int) -> State:
    def change(s: State) -> None:
        s["hands"][a], s["hands"][b] = s["hands"][b], s["hands"][a]

    return _both(state, change)


def _padded_private(state: State, events: list[Event], names: tuple[str, ...]) -> list[int]:
    """The padded size of each player's private report part (what an outsider measures)."""
    ctx = ReportContext("F" * 16, 1, 1, names, names, Identity.generate("m").public(), "", None, None, {})
    size = GAME.info.padding.report
    out = []
    for seat in range(state["n"]):
        plain = len(private_plaintext(GAME, GAME.observe(state, seat), events, ctx))
        assert plain <= size, f"a private part of {plain} bytes outgrows the padding of {size}"
        out.append(size)
    return out


def _public_record(state: State, events: list[Event]) -> tuple[Any, ...]:
    """Everything a non-player sees of a step (before the end)."""
    view = GAME.observe(state, None)
    return (
        GAME.to_act(state),
        canonical.dumps(view.public),
        GAME.describe(view)[0],
        GAME.pictures(view),
        [e.text for e in events if e.to is None],
    )


def assert_twins_look_alike(
    a: State, b: State, seed: int, standing: bool, sizes: bool = False, driver: Driver = public_orders
) -> int:
    """Play both games with public-only orders; every public fact agrees at every step until
    the end (where the reveal differs by design).  Returns the number of steps compared."""
    names = tuple(f"{n}{'x' * 32}"[:32] for n in NAMES[: a["n"]])
    steps = 0
    for (sa, ea), (sb, eb) in zip(
        play(a, seed, standing, driver), play(b, seed, standing, driver), strict=True
    ):
        if sa["over"] or sb["over"]:
            assert sa["over"] and sb["over"], f"step {steps}: one game ended, not the other"
            assert sa["why"] == sb["why"] and sa["round"] == sb["round"]
            over = [e.text for e in ea if e.to is None]
            cut = next(i for i, t in enumerate(over) if t.startswith("The game is over"))
            assert over[:cut] == [e.text for e in eb if e.to is None][:cut]
            break
        assert _public_record(sa, ea) == _public_record(sb, eb), f"step {steps}: public facts differ"
        if sizes:
            assert _padded_private(sa, ea, names) == _padded_private(sb, eb, names)
        steps += 1
    return steps


def _hidden_differs(a: State, b: State) -> bool:
    return a["infection"] != b["infection"] or a["hands"] != b["hands"] or a["tokens"] != b["tokens"]


CASES = [
    (4, {}, True),
    (5, {"dog": True}, True),
    (6, {"reactions": "windows"}, False),
    (7, {"untidy": True, "reactions": "windows"}, False),
    (8, {"arctic-pot-luck": True}, True),
    (6, {"leader": "random", "activation-events": "kept"}, True),
]


@pytest.mark.parametrize(("players", "options", "standing"), CASES)
def test_swapped_infection_cards_change_nothing_public(
    players: int, options: dict[str, Any], standing: bool
) -> None:
    """Two players' Infection cards swapped at set-up (one Human, one Parasite where the
    deal allows): with standing reactions filed by everyone, or with reaction windows that
    every living player answers, the two games look the same to everyone else."""
    seed = players * 7 + len(options)
    state = rules.setup(players, options, Rng(f"side-setup/{seed}".encode()))
    cards = load_cards()
    sides = [cards.infections[i[0]].side for i in state["infection"][:players]]
    a = sides.index("parasite") if "parasite" in sides else 0
    b = next((s for s in range(players) if sides[s] != sides[a]), (a + 1) % players)
    twin = swap_infection(state, a, b)
    assert _hidden_differs(state, twin)
    steps = assert_twins_look_alike(state, twin, seed, standing, sizes=players in (4, 8))
    assert steps > 10


@pytest.mark.parametrize(("players", "options", "standing"), CASES[:4])
def test_swapped_hands_change_nothing_public(players: int, options: dict[str, Any], standing: bool) -> None:
    """Two hands swapped at set-up, of the same size and from the same decks (which deck a
    card comes from is public, as its back is at the table: a discard lands on that deck's
    pile); nobody plays a card from the hand (windows are passed, no standing reaction is
    filed): who is asked, the events and the reports stay the same."""
    cards = load_cards().cards
    for seed in range(players * 11, players * 11 + 50):
        state = rules.setup(players, options, Rng(f"side-setup/{seed}".encode()))
        decks = [sorted(cards[c].deck for c in h) for h in state["hands"][:players]]
        pairs = [
            (a, b)
            for a in range(players)
            for b in range(a + 1, players)
            if decks[a] == decks[b] and sorted(state["hands"][a]) != sorted(state["hands"][b])
        ]
        if pairs:
            break
    assert pairs, "no set-up with two hands of the same decks"
    twin = swap_hands(state, *pairs[0])

    def passing(s: State, seat: int, step: int, _standing: bool) -> list[str]:
        view = GAME.observe(s, seat)
        if view.public["ask"]["question"]["kind"] == "window":
            return ["pass"]
        return public_orders(s, seat, step, False)

    steps = assert_twins_look_alike(state, twin, seed, False, driver=passing)
    assert steps > 10


def test_a_pair_in_hand_is_not_shown_by_who_is_asked() -> None:
    """Everyone at the Storehouse discards a card of their choice (the Event Power Cut):
    a player holding two copies of one card is asked exactly as one holding two different
    cards, so waiting for them does not tell the table the hand holds a pair."""
    base = rules.setup(4, {"characters": "seat-order"}, Rng(b"pair"))

    def position(hand: list[str]) -> State:
        def change(s: State) -> None:
            for seat in range(4):
                s["loc"][seat] = "storehouse"
                s["hands"][seat] = ["crowbar", "scavenge"]
            s["hands"][1] = list(hand)
            deck = s["decks"]["storehouse"]
            for card in ("power-cut", "shotgun"):
                deck.remove(card)
                deck.append(card)

        return _both(base, change)

    twins = [position(["crowbar", "crowbar"]), position(["crowbar", "scavenge"])]
    asked = []
    for state in twins:
        seen: list[tuple[tuple[int, ...], str]] = []
        orders = {0: ["stay"]}
        for _ in range(8):
            result = GAME.resolve(state, {s: _validated(state, s, o) for s, o in orders.items()}, Rng(b"x"))
            state = result.state
            if state["over"] or state["proc"].get("seat") != 0:
                break
            seen.append((GAME.to_act(state), state["pending"]["ask"]["question"]["kind"]))
            orders = {s: forms.default_orders(GAME.observe(state, s)) for s in GAME.to_act(state)}
        asked.append(seen)
    assert asked[0] == asked[1]
    assert ((1,), "discard") in asked[0], "the player with two cards chooses which to discard"


def _carrying(base: State, carried: dict[int, list[int]]) -> State:
    """``base`` with the tokens of some seats replaced (the supply kept whole)."""

    def change(s: State) -> None:
        for seat, tokens in carried.items():
            for colour in s["tokens"][seat]:
                s["supply"][colour] += 1
            s["tokens"][seat] = list(tokens)
            for colour in tokens:
                s["supply"][colour] -= 1

    return _both(base, change)


def _staying(state: State, seat: int, step: int, standing: bool) -> list[str]:
    """Everyone stays where they are and answers with the form's defaults."""
    return forms.default_orders(GAME.observe(state, seat))


@pytest.mark.parametrize(
    "carried",
    [
        {2: [0, 1, 3]},  # tokens one player carries
        {0: [1], 1: [0]},  # two players who already carry each other's colour exchange nothing
    ],
)
def test_tokens_under_unknown_infections_are_not_shown_by_exchanges(carried: dict[int, list[int]]) -> None:
    """Unknown Infections: the tokens carried are hidden.  Two games that differ only in
    tokens carried have the same public events (an exchange is announced whether or not a
    token changed hands) and the same players asked."""
    base = rules.setup(5, {"unknown-infections": True, "characters": "seat-order"}, Rng(b"tok"))
    twins = [_carrying(base, {}), _carrying(base, carried)]
    assert canonical.dumps(GAME.observe(twins[0], None).public) == canonical.dumps(
        GAME.observe(twins[1], None).public
    )
    assert assert_twins_look_alike(twins[0], twins[1], 5, True, driver=_staying) > 10


def test_tokens_under_unknown_infections_are_not_shown_by_giving_them_back() -> None:
    """Decontamination (everyone gives back a token of another colour) under Unknown
    Infections: a player alone in the Office with two tokens, or with none, is asked alike
    and the events say the same."""
    base = rules.setup(5, {"unknown-infections": True, "characters": "seat-order"}, Rng(b"decon"))

    def on_top(s: State) -> None:
        deck = s["decks"]["helipad"]
        if "decontamination" in deck:
            deck.remove("decontamination")
        else:
            s["boxed"].remove("decontamination")
            s["boxed"].append(deck.pop(0))
        deck.append("decontamination")

    base = _both(base, on_top)
    base = _both(base, lambda s: s["loc"].__setitem__(0, "office"))  # alone: no exchange
    twins = [_carrying(base, {0: [1, 2]}), _carrying(base, {})]
    assert assert_twins_look_alike(twins[0], twins[1], 6, False, driver=_staying) > 10


# ---- through the real pipeline ----------------------------------------------------------------
def _outsider_sizes(
    folder: Path, seen: dict[tuple[str, int], tuple[int, tuple[int, ...]]]
) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Every file of the folder with its outsider byte count (``seen``: files already
    measured, by path and modification time, so each turn measures only what changed)."""
    from test_sizes import outsider_size

    out = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        key = (str(path), path.stat().st_mtime_ns)
        if key not in seen:
            seen[key] = outsider_size(path.read_text(encoding="utf-8"))
        out[str(path.relative_to(folder))] = seen[key]
    return out


def _status(folder: Path, home: Path) -> str:
    from pbem.cli import main

    result = CliRunner().invoke(main, ["status", str(folder)], env={"PBEM_HOME": str(home)})
    assert result.exit_code == 0, result.output
    return result.output


def test_twin_folders_look_the_same_to_an_outsider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two game folders, one with two players' Infection cards swapped: after every turn,
    the same players are awaited, ``pbem status`` prints the same, the same files exist with
    the same outsider byte counts (every age block's plaintext length), and the public
    report and board picture are byte for byte the same; until the final reveal."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("os.fsync", lambda fd: None)  # durability is not what this checks
    moderator = Identity.generate("moderator")
    people = [Identity.generate(n) for n in NAMES[:4]]
    real_setup = rules.setup
    folders = []
    for twin in (False, True):

        def setup(players: int, options: Any, rng: Rng, twin: bool = twin) -> State:
            state = real_setup(players, options, rng)
            return swap_infection(state, 0, 1) if twin else state

        monkeypatch.setattr(rules, "setup", setup)
        folders.append(
            GameFolder.create(
                tmp_path / f"game{int(twin)}",
                "parasite",
                moderator,
                [p.public() for p in people],
                {},
                now=NOW,
                entropy=lambda n: b"\x11" * n,
                home=tmp_path / f"home{int(twin)}",
            )
        )
    monkeypatch.setattr(rules, "setup", real_setup)
    secrets = [f.load(moderator).secret.state for f in folders]
    assert secrets[0]["infection"] != secrets[1]["infection"]
    clock = NOW
    turns = 0
    seen: dict[Any, Any] = {}
    for step in range(TWIN_TURNS):
        saves = [f.read() for f in folders]
        if saves[0].body["outcome"] is not None:
            assert saves[1].body["outcome"] is not None
            break
        assert saves[0].awaiting == saves[1].awaiting
        assert _status(folders[0].path, tmp_path / "h0") == _status(folders[1].path, tmp_path / "h1").replace(
            str(folders[1].path), str(folders[0].path)
        )
        sizes = [_outsider_sizes(f.path, seen) for f in folders]
        assert sizes[0] == sizes[1], f"turn {saves[0].turn}: file sizes differ"
        for name in ("public.txt", "board.svg"):
            texts = [
                (f.reports_dir(s.turn) / name).read_text(encoding="utf-8")
                for f, s in zip(folders, saves, strict=True)
            ]
            assert texts[0] == texts[1], f"turn {saves[0].turn}: {name} differs"
        clock += timedelta(hours=1)
        for folder in folders:
            loaded = folder.load(moderator)
            state = loaded.secret.state
            for seat in loaded.save.awaiting:
                lines = public_orders(state, seat, step, True)
                header = OrderHeader(loaded.save.game_id, loaded.save.turn, people[seat].name, step + 1)
                text = seal(sign(people[seat], header, lines), [moderator.public()])
                folder.submit(text, moderator, source="orders.txt", now=clock)
            folder.advance(moderator, now=clock)
        turns += 1
    assert turns == TWIN_TURNS or saves[0].body["outcome"] is not None


# ---- the plain-text leak test -----------------------------------------------------------------
@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pbem.demo import run_demo

    out = tmp_path_factory.mktemp("parasite-leak") / "demo"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("os.fsync", lambda fd: None)  # durability is not what this checks
        run_demo("parasite", 5, 11, out, ["greedy", "random"], {})
    return out


def test_hidden_cards_and_test_results_never_leak(demo: Path) -> None:
    """Every report of a whole demo game, read as an outsider (age blocks closed, data
    blocks decoded) and as each other player: no Infection card that has not been revealed
    is named, and a Test Result shows only in its tester's private part."""
    from test_leaks import decode_data_blocks, strip_age

    from pbem.save import open_secret, read_save

    cards = load_cards()
    folder = demo / "game"
    moderator = Identity.load(demo / "keys" / "moderator.key")
    keys = {p.stem: Identity.load(p) for p in (demo / "keys").glob("*.key") if p.stem != "moderator"}
    states: dict[int, State] = {}
    shown: dict[int, set[str]] = {}
    revealed = re.compile(r"reveals (?:their Infection card: )?([A-Z][A-Za-z ]+?)[.(]")
    for path in sorted((folder / "history").glob("rev-*.json")):
        save = read_save(path.read_bytes(), str(path))
        if not save.body["submitted"]:
            states[save.turn] = open_secret(save, moderator).state
            texts = " ".join(e["text"] for e in save.body["events"] if e.get("to") is None)
            shown[save.turn] = {m.group(1).strip() for m in revealed.finditer(texts)}
    ever_revealed: set[str] = set()
    checked = 0
    for turn_dir in sorted((folder / "reports").iterdir()):
        state = states[int(turn_dir.name.split("-")[1])]
        if state["over"]:
            continue
        turn = int(turn_dir.name.split("-")[1])
        ever_revealed |= {i for i, card in cards.infections.items() if card.name in shown[turn]}
        for seat, held in enumerate(state["infection"]):
            if state["revealed"][seat]:
                ever_revealed |= set(held)
        names = [n for n in NAMES[: state["n"]]]
        for path in sorted(turn_dir.glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            outsider = strip_age(text) + "\n" + decode_data_blocks(text)
            private = ""
            if path.stem in keys:
                private = parse_report(text, str(path), keys[path.stem]).private_text or ""
            me = names.index(path.stem) if path.stem in names else None
            for seat, held in enumerate(state["infection"]):
                for card in set(held) - ever_revealed:
                    name = cards.infections[card].name
                    pattern = re.compile(rf"\b{re.escape(name)}\b")
                    assert not pattern.search(outsider), f"{path} names {name} to everyone"
                    if me is not None and me != seat:
                        assert not pattern.search(private), f"{path} names {name} of seat {seat}"
            assert "Test Results:" not in outsider and "is Parasite" not in outsider
            if me is not None and re.search(r"Test Results[^.]* is (Human|Parasite)", private):
                assert state["tests"][me], f"{path}: a Test Result its reader never saw"
            checked += 1
    assert checked > 50
    for orders in list((folder / "orders").rglob("*.txt")) + list((demo / "mail").rglob("*.txt")):
        assert not strip_age(orders.read_text(encoding="utf-8")).strip(), f"{orders} carries plaintext"
