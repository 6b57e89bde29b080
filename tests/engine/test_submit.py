"""Submitting, advancing, rolling back and replacing players in a real Symbiote game."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import GameFolder, parse_options, verify_replay
from pbem.errors import (
    DuplicateError,
    ForeignError,
    FormatError,
    NotAwaitedError,
    OrdersRejected,
    PbemError,
    ReplayError,
    RollbackError,
    SignatureError,
    TamperedError,
    UsageError,
)
from pbem.game import Game, GameInfo, OrderLine, Variant
from pbem.keys import Identity
from pbem.orders import parse, seal, sign, unseal
from pbem.player import check_orders, fill_orders
from pbem.reports import parse_report
from pbem.save import Save
from pbem_games.symbiote.cards import DECK

from .conftest import Table, new_table


def snapshot(folder: GameFolder) -> dict[str, bytes]:
    """Every file of the game folder and its bytes."""
    return {str(p.relative_to(folder.path)): p.read_bytes() for p in folder.path.rglob("*") if p.is_file()}


@dataclass
class Midgame:
    """Turn 2 of a game, with the awaited seat's orders already accepted."""

    table: Table
    name: str
    lines: list[str]
    text: str
    old_turn_file: str


@pytest.fixture
def midgame(table: Table) -> Midgame:
    first = table.awaited()
    table.play_step()
    old = (table.folder.orders_dir(1) / f"{first}.seq1.txt").read_text()
    name = table.awaited()
    lines = table.full_turn(name)
    text = table.sealed(table.signed(name, lines))
    receipt = table.submit(text, f"{name}.txt")
    assert receipt.player == name and receipt.turn == 2 and not receipt.replaced
    return Midgame(table, name, lines, text, old)


def _pending(table: Table) -> dict[str, Any]:
    return table.folder.load(table.moderator).secret.pending


def test_accepted_orders_are_recorded(table: Table) -> None:
    name = table.awaited()
    lines = table.bot_lines(name)
    text = table.sealed(table.signed(name, lines))
    receipt = table.submit(text, f"mail/{name}.txt")
    assert (receipt.player, receipt.turn, receipt.seq, receipt.replaced) == (name, 1, 1, False)
    loaded = table.folder.load(table.moderator)
    seat = loaded.save.names.index(name)
    entry = loaded.secret.pending[str(seat)]
    assert entry["seq"] == 1 and entry["source"] == f"{name}.txt"
    assert entry["orders"] == loaded.game.validate(
        loaded.view(seat), parse(unseal(text, table.moderator, "x")).lines
    )
    assert loaded.save.body["submitted"] == [seat]
    assert loaded.save.body["seq"][name] == 1
    archived = (table.folder.orders_dir(1) / f"{name}.seq1.txt").read_text()
    assert "BEGIN AGE ENCRYPTED FILE" in archived
    assert all(line not in archived for line in lines)
    # a plain (unsealed) block is sealed before it is archived
    assert receipt.awaiting == ()


@dataclass(frozen=True)
class Bad:
    """An order file that must be refused: the error class and words the message must hold."""

    make: Callable[[Midgame], str]
    error: type[PbemError]
    words: tuple[str, ...]


def _idle_name(m: Midgame) -> str:
    return m.table.idle()


def _other_game(m: Midgame) -> str:
    game_id = m.table.folder.read().game_id
    return m.table.signed(m.name, m.lines, game=game_id[::-1], seq=9)


def _stranger(m: Midgame) -> str:
    return sign(m.table.keys["mallory"], m.table.header(m.name, player="mallory", seq=9), m.lines)


def _forged(m: Midgame) -> str:
    return m.table.sealed(m.table.signed(m.name, m.lines, signer="mallory", seq=9))


def _changed_line(m: Midgame) -> str:
    block = m.table.signed(m.name, m.lines, seq=9)
    line = next(line for line in m.lines if line.startswith("discard"))
    card = line.split()[1]
    hand = m.table.report(m.name).private["hand"]
    other = next(c for c in [*hand, *DECK] if c != card)
    return block.replace(f"\n{line}\n", f"\ndiscard {other}\n")


def _old_turn(m: Midgame) -> str:
    return m.old_turn_file


def _future_turn(m: Midgame) -> str:
    return m.table.signed(m.name, m.lines, turn=3, seq=9)


def _same_seq_other_content(m: Midgame) -> str:
    return m.table.sealed(m.table.signed(m.name, [*m.lines, "# on second thoughts"]))


def _same_file(m: Midgame) -> str:
    return m.text


def _same_orders_quoted(m: Midgame) -> str:
    block = unseal(m.text, m.table.moderator, "x")
    return "You wrote:\n" + "".join(f"> {line}\r\n" for line in block.splitlines())


def _not_awaited(m: Midgame) -> str:
    name = _idle_name(m)
    return m.table.signed(name, m.table.full_turn(m.name))


def _not_signed(m: Midgame) -> str:
    return "\n".join(m.lines) + "\n"


def _sealed_elsewhere(m: Midgame) -> str:
    return seal(m.table.signed(m.name, m.lines, seq=9), [m.table.keys["moderator2"].public()])


BAD: dict[str, Bad] = {
    "other-game": Bad(_other_game, ForeignError, ("orders are for game", "this folder holds game")),
    "not-a-player": Bad(
        _stranger, ForeignError, ("no player called 'mallory'", "players: alice, bob, carol")
    ),
    "forged": Bad(_forged, SignatureError, ("the signature does not match", "changed after signing")),
    "changed-line": Bad(_changed_line, SignatureError, ("the signature does not match",)),
    "old-turn": Bad(_old_turn, ReplayError, ("for turn 1, but the game is at turn 2", "an old order file")),
    "future-turn": Bad(_future_turn, ReplayError, ("for turn 3, but the game is only at turn 2",)),
    "reused-seq": Bad(
        _same_seq_other_content, ReplayError, ("was already used", "a replayed or out-of-date")
    ),
    "same-file": Bad(_same_file, DuplicateError, ("were already accepted",)),
    "same-orders-quoted": Bad(_same_orders_quoted, DuplicateError, ("were already accepted",)),
    "not-awaited": Bad(_not_awaited, NotAwaitedError, ("owes no orders at turn 2; awaited:",)),
    "not-signed": Bad(_not_signed, FormatError, ("no signed order block found",)),
    "sealed-elsewhere": Bad(_sealed_elsewhere, FormatError, ("cannot be opened with the moderator's key",)),
}


@pytest.mark.parametrize("bad", BAD.values(), ids=list(BAD))
def test_refused_orders_change_nothing(midgame: Midgame, bad: Bad) -> None:
    table = midgame.table
    before = snapshot(table.folder)
    pending = _pending(table)
    text = bad.make(midgame)
    with pytest.raises(bad.error) as info:
        table.submit(text, "mail/incoming.txt")
    assert type(info.value) is bad.error
    message = info.value.message
    assert message.startswith("mail/incoming.txt"), message
    for words in bad.words:
        assert words in message, message
    if bad.error is not DuplicateError:
        assert info.value.hint, f"no advice for {message!r}"
    assert snapshot(table.folder) == before
    assert _pending(table) == pending
    # and the accepted orders are the ones played
    table.folder.advance(table.moderator, now=table.tick())
    log = table.folder.load(table.moderator).secret.log
    assert list(log[-1]["orders"].values()) == [e["orders"] for e in pending.values()]


def test_refusals_name_the_seat(midgame: Midgame) -> None:
    m = midgame
    with pytest.raises(SignatureError) as info:
        m.table.submit(_forged(m))
    card = m.table.keys[m.name].public()
    assert f"{m.name}'s key {card.key_id}" in info.value.message
    assert info.value.hint and f"--key {m.name}.key" in info.value.hint
    with pytest.raises(NotAwaitedError) as waiting:
        m.table.submit(_not_awaited(m))
    assert waiting.value.message.endswith(f"awaited: {m.name}")


def _expect_line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line == needle)


@pytest.mark.parametrize(
    ("spoil", "expected"),
    [
        (lambda card: ("discrad", card), lambda card: f"discard {card}"),
        (lambda card: ("discard", card + card[-1]), lambda card: f"discard {card}"),
    ],
    ids=["misspelled-word", "misspelled-card"],
)
def test_illegal_order_names_file_line_text_and_suggests(
    midgame: Midgame,
    spoil: Callable[[str], tuple[str, str]],
    expected: Callable[[str], str],
) -> None:
    m = midgame
    at = next(i for i, line in enumerate(m.lines) if line.startswith("discard "))
    card = m.lines[at].split()[1]
    bad_word, bad_card = spoil(card)
    bad_line = f"{bad_word} {bad_card}"
    block = m.table.signed(m.name, [*m.lines[:at], bad_line, *m.lines[at + 1 :]], seq=9)
    text = f"Dear moderator,\n\nmy orders:\n\n{block}"
    before = snapshot(m.table.folder)
    with pytest.raises(OrdersRejected) as info:
        m.table.submit(text, "mail/alice-reply.txt")
    number = _expect_line(text, bad_line)
    message = info.value.message
    assert f"mail/alice-reply.txt, line {number}:" in message
    assert repr(bad_line) in message
    assert f"(did you mean {expected(card)!r}?)" in message
    assert info.value.hint and "sign again" in info.value.hint
    assert snapshot(m.table.folder) == before


def test_every_bad_line_is_named(midgame: Midgame) -> None:
    m = midgame
    lines = ["jump", *m.lines, "fly away"]
    block = m.table.signed(m.name, lines, seq=9)
    with pytest.raises(OrdersRejected) as info:
        m.table.submit(block, "o.txt")
    for bad in ("jump", "fly away"):
        assert f"o.txt, line {_expect_line(block, bad)}: invalid order {bad!r}" in info.value.message


def test_higher_seq_replaces_before_advance(midgame: Midgame) -> None:
    m = midgame
    table = m.table
    seq = table.folder.read().body["seq"][m.name]
    # another legal turn: the game's default orders, or a bot's
    alternatives = [table.bot_lines(m.name, bot, s) for bot in ("random", "greedy") for s in range(8)]
    alternatives.append(table.symbiote_default(m.name))
    lines = next(a for a in alternatives if a != m.lines)
    receipt = table.submit(table.signed(m.name, lines, seq=seq + 1))
    assert receipt.replaced and receipt.seq == seq + 1
    with pytest.raises(ReplayError, match=f"sequence number {seq} of {m.name} was already used"):
        table.submit(table.signed(m.name, m.lines, seq=seq))
    loaded = table.folder.load(table.moderator)
    seat = loaded.save.names.index(m.name)
    expected = loaded.game.validate(
        loaded.view(seat), [OrderLine(i, t) for i, t in enumerate(lines, 1) if not t.startswith("#")]
    )
    assert loaded.secret.pending[str(seat)]["orders"] == expected
    table.folder.advance(table.moderator, now=table.tick())
    assert table.folder.load(table.moderator).secret.log[-1]["orders"] == {str(seat): expected}
    assert (table.folder.orders_dir(2) / f"{m.name}.seq{seq + 1}.txt").exists()


def test_advance_without_orders_names_who_is_missing(table: Table) -> None:
    before = snapshot(table.folder)
    name = table.awaited()
    with pytest.raises(NotAwaitedError) as info:
        table.folder.advance(table.moderator, now=table.tick())
    assert info.value.message == f"turn 1 still awaits orders from {name}"
    assert info.value.hint and "default orders or bots" in info.value.hint
    assert snapshot(table.folder) == before


@pytest.mark.parametrize("how", ["default", "greedy", "random"])
def test_advance_fill(table: Table, how: str) -> None:
    name = table.awaited()
    loaded = table.folder.load(table.moderator)
    fill = fill_orders(loaded, how)
    seat = loaded.save.names.index(name)
    assert list(fill) == [seat]
    if how == "default":
        assert fill[seat] == loaded.game.default_orders(loaded.view(seat))
    result = table.folder.advance(table.moderator, now=table.tick(), fill=fill)
    assert result.filled == (name,)
    assert result.turn == 2 and table.folder.read().turn == 2
    lines = [OrderLine(i, t) for i, t in enumerate(fill[seat], 1)]
    played = table.folder.load(table.moderator).secret.log[-1]["orders"][str(seat)]
    assert played == loaded.game.validate(loaded.view(seat), lines)
    assert result.reports and all(p.exists() for p in result.reports)


def test_advance_fill_with_illegal_orders_is_refused(table: Table) -> None:
    seat = table.folder.read().awaiting[0]
    before = snapshot(table.folder)
    with pytest.raises(OrdersRejected) as info:
        table.folder.advance(table.moderator, now=table.tick(), fill={seat: ["fly away"]})
    assert "'fly away'" in info.value.message
    assert table.awaited() in info.value.message
    assert snapshot(table.folder) == before


def test_preview_writes_nothing(midgame: Midgame) -> None:
    before = snapshot(midgame.table.folder)
    result = midgame.table.folder.advance(midgame.table.moderator, now=midgame.table.tick(), preview=True)
    assert result.turn == 3 and result.reports == ()
    assert result.events
    assert snapshot(midgame.table.folder) == before
    real = midgame.table.folder.advance(midgame.table.moderator, now=midgame.table.tick())
    assert real.events == result.events and real.awaiting == result.awaiting


def test_rollback_to_an_earlier_turn(table: Table) -> None:
    for _ in range(3):
        table.play_step()
    assert table.folder.read().turn == 4
    history = [json.loads(p.read_text())["body"] for p in sorted((table.folder.path / "history").glob("*"))]
    old = next(body for body in history if body["turn"] == 2)
    replayed_file = next(table.folder.orders_dir(2).glob("*.txt")).read_text()
    current = table.folder.read()
    save = table.folder.rollback(table.moderator, 2, now=table.tick())
    assert save.turn == 2 and save.revision == current.revision + 1
    assert save.body["prev"] == current.digest
    assert save.body["public"] == old["public"]
    assert save.awaiting == old["awaiting"]
    assert save.body["seq"] == current.body["seq"]
    loaded = table.folder.load(table.moderator)
    assert loaded.secret.pending == {}
    # the report of turn 2 is written again, for this revision
    name = table.awaited()
    assert table.report(name).data["revision"] == save.revision
    # the orders sent for turn 2 the first time are replays now; fresh ones are accepted
    with pytest.raises(ReplayError, match="already used"):
        table.submit(replayed_file)
    table.play_step()
    assert table.folder.read().turn == 3
    with pytest.raises(UsageError, match="has no turn 9 to go back to"):
        table.folder.rollback(table.moderator, 9, now=table.tick())


def test_rollback_keeps_replaced_player(table: Table, keys: dict[str, Identity]) -> None:
    table.play_step()
    table.play_step()
    new_alice = Identity.generate("alice")
    table.folder.replace_player(table.moderator, "alice", new_alice.public(), now=table.tick())
    table.folder.rollback(table.moderator, 2, now=table.tick())
    save = table.folder.read()
    assert save.players[save.names.index("alice")] == new_alice.public()


def test_replace_player(table: Table, keys: dict[str, Identity]) -> None:
    table.play_step()
    name = table.awaited()
    old_key = keys[name]
    before = table.folder.read()
    seat = before.names.index(name)
    new_key = Identity.generate(name)
    save = table.folder.replace_player(table.moderator, name, new_key.public(), now=table.tick())
    assert save.names == before.names and save.turn == before.turn
    assert save.players[seat] == new_key.public()
    assert save.body["seq"] == before.body["seq"]
    # the report is sealed to the new key now
    report_path = table.folder.reports_dir(save.turn) / f"{name}.txt"
    with pytest.raises(FormatError, match="cannot decrypt"):
        parse_report(report_path.read_text(), str(report_path), old_key)
    # the old key's orders now fail; the new key's are accepted
    table.keys = {**keys, name: new_key}
    lines = table.full_turn(name)
    forged = sign(old_key, table.header(name), lines)
    with pytest.raises(SignatureError, match=f"does not match {name}'s key {new_key.public().key_id}"):
        table.submit(forged)
    receipt = table.submit(table.sealed(table.signed(name, lines)))
    assert receipt.player == name


def test_replace_player_under_a_new_name(table: Table, keys: dict[str, Identity]) -> None:
    name = table.awaited()
    seat = table.folder.read().names.index(name)
    dave = Identity.generate("dave")
    save = table.folder.replace_player(table.moderator, name, dave.public(), now=table.tick())
    assert save.names[seat] == "dave" and name not in save.names
    with pytest.raises(ForeignError, match=f"no player called '{name}'"):
        table.submit(table.signed(name))
    with pytest.raises(UsageError, match="already called"):
        table.folder.replace_player(table.moderator, "dave", keys["bob"].public(), now=table.tick())
    with pytest.raises(UsageError, match="no player called 'zed'"):
        table.folder.replace_player(table.moderator, "zed", dave.public(), now=table.tick())


def test_finished_game_verifies(finished: Table) -> None:
    save = finished.folder.read()
    assert save.body["outcome"] is not None and save.body["seed"] is not None
    turns = verify_replay(save)
    assert turns == save.turn - 1 == len(save.body["replay"])
    with pytest.raises(UsageError, match="is over"):
        finished.folder.advance(finished.moderator, now=finished.tick())
    name = save.names[0]
    with pytest.raises(NotAwaitedError, match="awaited: nobody"):
        finished.submit(finished.signed(name, ["draw"]))


def test_verify_replay_catches_a_wrong_seed_or_end(finished: Table, tmp_path: Path) -> None:
    save = finished.folder.read()
    seed = bytes.fromhex(save.body["seed"])
    other_seed = bytes([seed[0] ^ 1]) + seed[1:]
    with pytest.raises(RollbackError, match="does not match the commitment"):
        verify_replay(Save(dict(save.body, seed=other_seed.hex()), save.source))
    replay = [dict(entry) for entry in save.body["replay"]]
    replay.pop()
    with pytest.raises(RollbackError, match="does not reach the final position"):
        verify_replay(Save(dict(save.body, replay=replay), save.source))
    # on disk, any such change breaks the moderator's signature first
    copy = finished.copy_to(tmp_path / "copy", tmp_path / "home")
    copy.save_path.write_text(copy.save_path.read_text().replace(save.body["seed"], other_seed.hex()))
    with pytest.raises(TamperedError):
        verify_replay(copy.read())


def test_verify_replay_of_a_running_game(table: Table) -> None:
    with pytest.raises(UsageError, match="is not over"):
        verify_replay(table.folder.read())


def _broken_variants(lines: list[str], hand: list[str], top: str | None) -> list[list[str]]:
    """Hand-broken versions of legal orders, as people break them."""
    foreign = next(c for c in DECK if c not in hand and c != top)
    out = [
        [line.replace("discard", "discrad") for line in lines],
        [line for line in lines if not line.startswith("discard")],
        [*lines, f"discard {foreign}"],
        [f"discard {foreign}" if line.startswith("discard") else line for line in lines],
        ["take", "draw", *lines[1:]],
        [*lines, f"pair {foreign} {foreign}"],
        ["draw", "draw"],
        [],
    ]
    return [variant for variant in out if variant != lines]


def test_offline_check_agrees_with_submit(table: Table) -> None:
    """pbem check accepts exactly what the moderator accepts, with the same messages."""
    compared = {"accepted": 0, "rejected": 0}
    for step in range(4):
        name = table.awaited()
        report = table.report(name)
        report_text, report_source = table.report_text(name)
        samples = [table.bot_lines(name, bot, s) for bot in ("greedy", "random") for s in range(3)]
        samples.append(table.symbiote_default(name))
        samples += _broken_variants(samples[0], report.private["hand"], report.view().public["discard"][-1])
        seq = table.folder.read().body["seq"][name]
        for lines in samples:
            seq += 1
            block = table.signed(name, lines, seq=seq)
            try:
                check_orders(block, "o.txt", report_text, report_source, table.keys[name])
                checked = None
            except OrdersRejected as exc:
                checked = exc.message
            try:
                table.submit(table.sealed(block), "o.txt")
                submitted = None
            except OrdersRejected as exc:
                # the moderator read the same block inside the sealed file, and says so
                assert exc.message.startswith("o.txt, sealed block")
                submitted = exc.message.replace("o.txt, sealed block", "o.txt")
            assert checked == submitted, (step, lines)
            compared["accepted" if checked is None else "rejected"] += 1
        table.play_step("random")
    assert compared["accepted"] >= 8 and compared["rejected"] >= 8, compared


def test_check_orders_refuses_a_form_for_another_turn(midgame: Midgame) -> None:
    m = midgame
    report_text, report_source = m.table.report_text(m.name)
    block = m.table.signed(m.name, m.lines, turn=1)
    with pytest.raises(ForeignError, match="turn 1"):
        check_orders(block, "o.txt", report_text, report_source, m.table.keys[m.name])
    forged = m.table.signed(m.name, m.lines, signer="mallory")
    with pytest.raises(SignatureError):
        check_orders(forged, "o.txt", report_text, report_source, m.table.keys[m.name])


def test_new_game_refuses_bad_players(tmp_path: Path, keys: dict[str, Identity]) -> None:
    from .conftest import NOW

    cards = [keys[n].public() for n in ("alice", "bob")]
    with pytest.raises(UsageError, match="takes 3 to 4 players, got 2"):
        GameFolder.create(tmp_path / "g", "symbiote", keys["moderator"], cards, {}, now=NOW, home=tmp_path)
    twice = [*cards, keys["alice"].public()]
    with pytest.raises(UsageError, match="same name"):
        GameFolder.create(tmp_path / "g", "symbiote", keys["moderator"], twice, {}, now=NOW, home=tmp_path)
    bent = replace(keys["carol"].public(), name="carl")
    with pytest.raises(SignatureError, match="not self-signed"):
        GameFolder.create(
            tmp_path / "g", "symbiote", keys["moderator"], [*cards, bent], {}, now=NOW, home=tmp_path
        )
    good = [*cards, keys["carol"].public()]
    with pytest.raises(UsageError, match="no option 'colour'"):
        GameFolder.create(
            tmp_path / "g", "symbiote", keys["moderator"], good, {"colour": "red"}, now=NOW, home=tmp_path
        )
    with pytest.raises(UsageError, match="takes one of keep, discard"):
        GameFolder.create(
            tmp_path / "g",
            "symbiote",
            keys["moderator"],
            good,
            {"last-taken-card": "burn"},
            now=NOW,
            home=tmp_path,
        )
    assert not (tmp_path / "g" / "save.json").exists()
    new_table(tmp_path, keys, "g")
    with pytest.raises(UsageError, match="already holds a game"):
        new_table(tmp_path, keys, "g")


@dataclass(frozen=True)
class _StubGame:
    """Only what parse_options reads: the variants of a game."""

    info: GameInfo


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({}, {"rounds": 10, "fast": False, "mode": "a", "size": 3}),
        (
            {"rounds": "12", "fast": "yes", "mode": " b ", "size": "4"},
            {"rounds": 12, "fast": True, "mode": "b"},
        ),
        ({"rounds": "-3", "fast": "off"}, {"rounds": -3, "fast": False}),
    ],
)
def test_parse_options(raw: dict[str, str], expected: dict[str, object]) -> None:
    options = parse_options(_as_game(_STUB), raw)
    assert set(options) == {"rounds", "fast", "mode", "size"}
    for name, value in expected.items():
        assert options[name] == value and type(options[name]) is type(value)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"speed": "1"}, "stub has no option 'speed'; options: rounds, fast, mode, size"),
        ({"rounds": "²"}, "option rounds takes a whole number, got '²'"),
        ({"rounds": "--5"}, "option rounds takes a whole number, got '--5'"),
        ({"rounds": "1.5"}, "option rounds takes a whole number"),
        ({"fast": "maybe"}, "option fast takes true or false, got 'maybe'"),
        ({"mode": "c"}, "option mode takes one of a, b, got 'c'"),
        ({"size": "5"}, "option size takes one of 3, 4, got '5'"),
    ],
)
def test_parse_options_refusals(raw: dict[str, str], words: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_options(_as_game(_STUB), raw)
    assert words in info.value.message


def _as_game(stub: _StubGame) -> Game:
    return stub  # type: ignore[return-value]


_STUB = _StubGame(
    GameInfo(
        name="stub",
        title="Stub",
        min_players=2,
        max_players=4,
        summary="",
        hidden_information=False,
        variants=(
            Variant("rounds", "", 10),
            Variant("fast", "", False),
            Variant("mode", "", "a", ("a", "b")),
            Variant("size", "", 3, (3, 4)),
        ),
    )
)


def test_set_status(table: Table) -> None:
    save = table.folder.set_status(table.moderator, "bob", "resigned", now=table.tick())
    assert save.body["players"][save.names.index("bob")]["status"] == "resigned"
    assert save.turn == 1 and save.awaiting == table.folder.read().awaiting
    with pytest.raises(UsageError, match="unknown seat status 'asleep'"):
        table.folder.set_status(table.moderator, "bob", "asleep", now=table.tick())
    with pytest.raises(UsageError, match="no player called 'zed'"):
        table.folder.set_status(table.moderator, "zed", "active", now=table.tick())


def test_archived_orders_are_the_submitted_ones(midgame: Midgame) -> None:
    m = midgame
    seq = m.table.folder.read().body["seq"][m.name]
    plain = m.table.signed(m.name, m.lines, seq=seq + 1)
    m.table.submit("Hi,\n\n" + plain, "mail.txt")
    archived = (m.table.folder.orders_dir(2) / f"{m.name}.seq{seq + 1}.txt").read_text()
    assert plain not in archived
    opened = unseal(archived, m.table.moderator, "archive")
    assert parse(opened).digest == parse(plain).digest
    first = (m.table.folder.orders_dir(2) / f"{m.name}.seq{seq}.txt").read_text()
    assert first == m.text


def test_resigned_seat_sends_no_more_orders(table: Table) -> None:
    name = table.awaited()
    text = table.signed(name, table.full_turn(name))
    table.folder.set_status(table.moderator, name, "resigned", now=table.tick())
    before = snapshot(table.folder)
    with pytest.raises(NotAwaitedError, match=f"{name} has resigned") as info:
        table.submit(text)
    assert info.value.hint
    assert snapshot(table.folder) == before
    table.folder.set_status(table.moderator, name, "active", now=table.tick())
    assert table.submit(text).player == name


def test_orders_sealed_by_another_tool_are_filed_padded(table: Table) -> None:
    """Orders sealed with plain age (no padding) or sent in clear are filed in the public
    orders/ folder sealed again at the one padded size, so their length says nothing; a file
    sealed by pbem sign is filed as it came."""
    import pyrage

    from pbem.orders import _sealed_length
    from pbem.padding import ORDERS_SIZE

    name = table.awaited()
    block = table.signed(name, table.full_turn(name))
    recipient = pyrage.x25519.Recipient.from_str(table.moderator.public().age_recipient)
    plain_age = pyrage.encrypt(block.encode(), [recipient], armored=True).decode()
    assert _sealed_length(plain_age) == len(block.encode()) < ORDERS_SIZE
    table.submit(plain_age, "plain-age.txt")
    turn = table.folder.read().turn
    filed = next(table.folder.orders_dir(turn).glob(f"{name}.seq*.txt")).read_text(encoding="utf-8")
    assert _sealed_length(filed) == ORDERS_SIZE
    assert block.strip() in table.moderator.decrypt(filed).decode()

    other = table.folder.read().body["seq"][name] + 1
    by_pbem = table.sealed(table.signed(name, table.full_turn(name), seq=other))
    table.submit(by_pbem, "by-pbem.txt")
    filed_again = (table.folder.orders_dir(turn) / f"{name}.seq{other}.txt").read_text(encoding="utf-8")
    assert filed_again == by_pbem
