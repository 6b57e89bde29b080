"""Leak tests: no hidden fact appears in plain text in anything another player can read.

A whole demo game is played through the real pipeline; then every file in its folder is
read as an outsider would (age blocks stay closed, but base64 data blocks are decoded) and
as each player would (their own report decrypted), and checked against the hidden facts
of the state that file was written from.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.demo import run_demo
from pbem.keys import Identity
from pbem.orders import AGE_BEGIN, AGE_END
from pbem.registry import game_names
from pbem.reports import DATA_BEGIN, DATA_END, DATA_SIG, parse_report
from pbem.save import open_secret, read_save

CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")


def strip_age(text: str) -> str:
    """The text with every age block removed (what a reader without the key sees), and the
    base64 of the data block too (its decoded JSON is checked separately: random base64
    would otherwise look like card names)."""
    out, inside = [], False
    for line in text.splitlines():
        if line.strip() in (AGE_BEGIN, DATA_BEGIN):
            inside = True
        elif line.strip() in (AGE_END, DATA_END):
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def decode_data_blocks(text: str) -> str:
    """Decoded JSON of base64 report data blocks, so a leak cannot hide in base64."""
    lines = [line.strip() for line in text.splitlines()]
    if DATA_BEGIN not in lines:
        return ""
    start, sig = lines.index(DATA_BEGIN), lines.index(DATA_SIG)
    assert lines.index(DATA_END) > sig
    return base64.b64decode("".join(lines[start + 1 : sig])).decode()


def cards_in(text: str) -> set[str]:
    return {m.group(1) + m.group(2) for m in CARD.finditer(text)}


@pytest.fixture(scope="module")
def symbiote_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("leak") / "demo"
    run_demo("symbiote", 4, 3, out, ["greedy", "random"], {})
    return out


def test_symbiote_hidden_cards_never_leak(symbiote_game: Path) -> None:
    out = symbiote_game
    folder = out / "game"
    moderator = Identity.load(out / "keys" / "moderator.key")
    ever_public: set[str] = set()
    hidden_at_turn: dict[int, dict[int, set[str]]] = {}
    checked = 0
    for path in sorted((folder / "history").glob("rev-*.json")):
        text = path.read_text()
        save = read_save(text.encode(), str(path))
        outsider = json.dumps(dict(save.body, secret="(sealed)"))
        state = open_secret(save, moderator).state
        ever_public |= set(state["discard"]) | set(state["aside"])
        over = save.body["outcome"] is not None
        hidden = {}
        for seat, hand in enumerate(state["hands"]):
            set_cards = set() if over else {c for s in state["sets"][seat] for c in s}
            # A card that was ever face up (taken from the discard pile, say) is no secret.
            hidden[seat] = (set(hand) | set_cards) - ever_public
        everyone_hidden = set().union(*hidden.values())
        leaked = cards_in(outsider) & everyone_hidden
        assert not leaked, f"{path.name} shows hidden cards {leaked}"
        if not save.body["submitted"]:
            hidden_at_turn[save.turn] = hidden
        checked += 1
    assert checked > 10

    names = ["alice", "bob", "carol", "dave"]
    keys = {n: Identity.load(out / "keys" / f"{n}.key") for n in names}
    for turn_dir in sorted((folder / "reports").iterdir()):
        turn = int(turn_dir.name.split("-")[1])
        hidden = hidden_at_turn[turn]
        everyone_hidden = set().union(*hidden.values())
        for report_path in turn_dir.glob("*.txt"):
            text = report_path.read_text()
            outsider = strip_age(text) + "\n" + decode_data_blocks(text)
            leaked = cards_in(outsider) & everyone_hidden
            assert not leaked, f"{report_path} shows hidden cards {leaked} to everyone"
            name = report_path.stem
            if name in keys:
                seat = names.index(name)
                private = parse_report(text, str(report_path), keys[name]).private_text or ""
                others = set().union(*(h for s, h in hidden.items() if s != seat))
                assert not cards_in(private) & others, f"{report_path} shows {name} another player's cards"
    # Orders travel sealed: nothing readable outside the age block.
    for orders in list((folder / "orders").rglob("*.txt")) + list((out / "mail").rglob("*.txt")):
        assert not strip_age(orders.read_text()).strip(), f"{orders} carries plaintext"


@pytest.mark.parametrize("name", game_names())
def test_seed_stays_secret_until_the_end(name: str, tmp_path: Path) -> None:
    """The seed (and so every future draw, flip and shuffle) is in no file before the end."""
    out = tmp_path / "demo"
    result = run_demo(name, None, 5, out, ["random"], {}, max_turns=400)
    folder = out / "game"
    final = read_save((folder / "save.json").read_bytes(), "save.json")
    seed = final.body["seed"]
    assert seed is not None and result.outcome is not None
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        text = path.read_text(errors="replace")
        body = read_save(path.read_bytes(), str(path)).body if path.suffix == ".json" else None
        if body is not None and body["outcome"] is not None:
            continue  # the final save reveals the seed on purpose
        if path.parent.name == f"turn-{final.turn:04d}":
            continue  # so do the final reports
        assert seed not in text and seed not in decode_data_blocks(text), f"{path} reveals the seed early"


# ---- names that would clash with the engine's files -------------------------------------------
def _cli(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"PBEM_HOME": str(home)})


def _card(folder: Path, name: str) -> Path:
    """A real public key card called ``name`` (made without keygen, which refuses some)."""
    path = folder / f"{name}.pub"
    path.write_text(Identity.generate(name).public().to_text(), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "name", ["public", "Public", "PUBLIC", "board", "BOARD.svg", "con", "Nul", "lpt1.x", "bob."]
)
def test_keygen_refuses_a_name_that_clashes_with_an_engine_file(name: str, tmp_path: Path) -> None:
    result = _cli(tmp_path / "home", "keygen", name, "--out", str(tmp_path / "keys"))
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert repr(name) in result.output and "choose another name" in result.output
    assert not (tmp_path / "keys").exists() or not any((tmp_path / "keys").iterdir())


def test_keygen_still_makes_ordinary_names(tmp_path: Path) -> None:
    result = _cli(tmp_path / "home", "keygen", "publican", "--out", str(tmp_path / "keys"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "keys" / "publican.pub").exists()


def test_new_refuses_a_player_named_public(tmp_path: Path) -> None:
    """Issue 8: a player called ``public`` had their report overwritten by public.txt."""
    keys = tmp_path / "keys"
    keys.mkdir()
    Identity.generate("moderator").save(keys / "moderator.key")
    players = [f"{n}={_card(keys, n)}" for n in ("alice", "Public", "carol")]
    args = ["new", "symbiote", str(tmp_path / "game"), "--moderator-key", str(keys / "moderator.key")]
    for player in players:
        args += ["--player", player]
    result = _cli(tmp_path / "home", *args)
    assert result.exit_code == 2, result.output
    assert "'Public' is reserved" in result.output and "public.txt" in result.output
    assert not (tmp_path / "game" / "save.json").exists()


def test_new_refuses_a_player_named_after_a_picture(tmp_path: Path) -> None:
    """Jovian Syzygy draws board.svg beside the reports: a player may not be called board."""
    from pbem.engine import GameFolder
    from pbem.errors import KeyFileError

    cards = [Identity.generate(n).public() for n in ("alice", "Board", "carol")]
    with pytest.raises(KeyFileError, match=r"board\.svg"):
        GameFolder.create(
            tmp_path / "game",
            "jovian-syzygy",
            Identity.generate("moderator"),
            cards,
            {},
            now=datetime(2026, 3, 1, tzinfo=UTC),
            home=tmp_path / "home",
        )
    assert not (tmp_path / "game").exists()


def test_replace_refuses_a_player_named_public(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    moderator = Identity.generate("moderator")
    moderator.save(keys / "moderator.key")
    players = [f"{n}={_card(keys, n)}" for n in ("alice", "bob", "carol")]
    args = ["new", "symbiote", str(tmp_path / "game"), "--moderator-key", str(keys / "moderator.key")]
    for player in players:
        args += ["--player", player]
    assert _cli(tmp_path / "home", *args).exit_code == 0
    before = (tmp_path / "game" / "save.json").read_bytes()
    newcomer = _card(keys, "public")
    result = _cli(
        tmp_path / "home",
        "replace",
        str(tmp_path / "game"),
        "bob",
        str(newcomer),
        "--key",
        str(keys / "moderator.key"),
    )
    assert result.exit_code == 2, result.output
    assert "'public' is reserved" in result.output
    assert (tmp_path / "game" / "save.json").read_bytes() == before
