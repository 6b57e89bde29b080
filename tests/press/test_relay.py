"""Press end to end in one game folder: pbem say's code, the moderator's relay, the
recipient's reader; each mode and rule, and every kind of bad input refused with nothing
delivered and nothing lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.errors import FormatError, RejectedError, ReplayError, SignatureError
from pbem.keys import Identity
from pbem.press import ledger
from pbem.press import text as block
from pbem.press.listing import archived_press
from pbem.press.rules import ALL, PressRules
from pbem.press.say import compose
from pbem.press.sealed import open_block
from pbem.registry import get_game

from .conftest import NOW, PressTable, new_table


def _letter_armour(table: PressTable, relayed_text: str) -> str:
    """The letter inside a relayed copy, as the moderator (who can open the copy) sees it."""
    opened = open_block(relayed_text, table.moderator, "copy", "press")
    assert opened is not None
    [(_, armour)] = block.age_blocks(opened[0].split(block.end(block.RELAY), 1)[1])
    return armour


def _unchanged(table: PressTable, before: list[str]) -> None:
    assert table.press_files() == before, "a refused message wrote nothing"


def test_private_press_reaches_its_recipients_only(table: PressTable) -> None:
    said = table.say("alice", ("bob", "carol"), "Bob, Carol: an alliance?\n\nAgainst Dave.")
    relayed = table.relay(said.text)
    assert relayed.recipients == ("bob", "carol")
    for name in ("bob", "carol"):
        letter = table.read(relayed, name)
        assert letter is not None
        assert (letter.sender, letter.to, letter.number) == ("alice", ("bob", "carol"), 1)
        assert letter.sender_key == table.keys["alice"].public().key_id
        assert letter.text == ("Bob, Carol: an alliance?", "", "Against Dave.")
    assert table.read(relayed, "dave") is None, "dave cannot open it"
    kept = (table.folder.path / "press" / "000001.txt").read_text()
    assert kept == relayed.text, "the copy every recipient got is kept in the game folder"


def test_the_moderators_key_cannot_open_private_press(table: PressTable) -> None:
    relayed = table.relay(table.say("alice", ("bob",), "for Bob's eyes only").text)
    armour = _letter_armour(table, relayed.text)
    assert open_block(armour, table.moderator, "letter", "letter") is None
    with pytest.raises(FormatError, match=r"no matching keys|cannot decrypt"):
        table.moderator.decrypt(armour)
    entry = ledger.load(table.folder.path, table.folder.read().game_id, table.moderator)[0]
    assert not entry.readable
    assert "for Bob" not in (table.folder.path / "press" / "ledger.txt").read_text()


def test_the_moderator_reads_all_press_when_the_rules_say_so(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    table = new_table(tmp_path, keys, PressRules(mode="full", moderator_reads=True))
    relayed = table.relay(table.say("alice", ("bob",), "the moderator may read this").text)
    opened = open_block(_letter_armour(table, relayed.text), table.moderator, "letter", "letter")
    assert opened is not None and "the moderator may read this" in opened[0]


def test_press_to_all_is_readable_by_the_moderator_for_the_archive(table: PressTable) -> None:
    relayed = table.relay(table.say("alice", (ALL,), "Hello, everyone.").text)
    assert relayed.recipients == ("bob", "carol", "dave")
    assert open_block(_letter_armour(table, relayed.text), table.moderator, "l", "l") is not None
    for name in ("bob", "carol", "dave"):
        letter = table.read(relayed, name)
        assert letter is not None and letter.to == (ALL,)


def test_grey_press_says_someone(table: PressTable) -> None:
    relayed = table.relay(table.say("alice", ("bob",), "Watch Carol.", grey=True).text)
    letter = table.read(relayed, "bob")
    assert letter is not None
    assert (letter.sender, letter.sender_key, letter.grey) == ("someone", None, True)
    assert "someone" in letter.render()
    # the moderator knows who sent it
    assert ledger.load(table.folder.path, table.folder.read().game_id, table.moderator)[0].sender == "alice"


def _fake_press(data: dict[str, Any], rules: PressRules) -> None:
    data["press"]["rules"] = rules.to_json()


@pytest.mark.parametrize(
    ("rules", "to", "grey", "words"),
    [
        (PressRules(mode="public"), ("bob",), False, "only messages to all players are allowed in this game"),
        (PressRules(mode="full"), ("bob",), True, "does not allow grey press"),
        (PressRules(mode="full", max_chars=10), ("bob", "carol"), False, None),
    ],
)
def test_the_relay_enforces_the_rules_a_sender_skipped(
    tmp_path: Path,
    keys: dict[str, Identity],
    rules: PressRules,
    to: tuple[str, ...],
    grey: bool,
    words: str | None,
) -> None:
    table = new_table(tmp_path, keys, rules)
    with pytest.raises(RejectedError):  # pbem say refuses it first
        table.say("alice", to, "a message of some length", grey=grey)
    loose = PressRules(mode="full", grey=True)
    if rules.max_chars == 10:  # the moderator cannot count a private letter: it is refused for size only
        said = table.say("alice", (ALL,), "a message of some length", patch=lambda d: _fake_press(d, loose))
        with pytest.raises(RejectedError, match="24 characters; this game allows 10"):
            table.relay(said.text)
        return
    said = table.say("alice", to, "hello", grey=grey, patch=lambda d: _fake_press(d, loose))
    with pytest.raises(RejectedError, match=words):
        table.relay(said.text)
    assert not (table.folder.path / "press" / "ledger.txt").exists()


def test_a_game_without_press_refuses_it(tmp_path: Path, keys: dict[str, Identity]) -> None:
    table = new_table(tmp_path, keys, None)
    assert "press" not in table.data("alice"), "reports of a game without press are as before"
    assert "Press" not in table.report_text("alice")[0]
    with pytest.raises(RejectedError, match="this game has no press"):
        table.say("alice", ("bob",))
    # a sender's program that invents press rules: the relay refuses it
    cards = {
        n: {"sign": keys[n].public().verify_key.hex(), "age": keys[n].public().age_recipient}
        for n in ("alice", "bob", "carol", "dave")
    }
    data = table.data("alice")
    data["press"] = {"rules": PressRules(mode="full").to_json(), "cards": cards, "phase": None, "out": []}
    said = compose(keys["alice"], data, "report", ("bob",), "hello", "message")
    with pytest.raises(RejectedError, match="this game has no press"):
        table.relay(said.text)
    assert not (table.folder.path / "press").exists()


def test_forged_press_is_refused_and_names_the_key(table: PressTable, keys: dict[str, Identity]) -> None:
    impostor = Identity.generate("alice")  # calls itself alice, holds other keys
    said = table.say("alice", ("bob",), "from 'alice'", identity=impostor)
    with pytest.raises(SignatureError, match="does not match alice's key"):
        table.relay(said.text)
    carol_as_alice = Identity("alice", keys["carol"]._signing, keys["carol"]._age_text)
    said = table.say("alice", ("bob",), "from 'alice'", identity=carol_as_alice)
    with pytest.raises(SignatureError, match="signed with carol's key"):
        table.relay(said.text)
    assert not (table.folder.path / "press" / "ledger.txt").exists()


def test_replayed_press_is_refused_and_nothing_is_delivered_twice(table: PressTable) -> None:
    said = table.say("alice", ("bob",), "once")
    table.relay(said.text)
    before = table.press_files()
    with pytest.raises(ReplayError, match="relayed already, as message 1"):
        table.relay(said.text)
    _unchanged(table, before)
    assert len(ledger.load(table.folder.path, table.folder.read().game_id, table.moderator)) == 1


def test_over_long_press_is_refused_by_sender_and_by_relay(
    table: PressTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(RejectedError, match="2,001 characters; this game allows 2,000"):
        table.say("alice", ("bob",), "x" * 2001)
    # a sender whose program pads to another size: the relay sees it without reading it
    monkeypatch.setattr("pbem.press.say.LETTER_SIZE", 8192)
    said = table.say("alice", ("bob",), "y" * 1990)
    monkeypatch.undo()
    before = table.press_files()
    with pytest.raises(RejectedError, match="holds 8,192 bytes; every letter holds exactly 4,096"):
        table.relay(said.text)
    _unchanged(table, before)


def test_unknown_recipient_is_refused(table: PressTable) -> None:
    with pytest.raises(RejectedError, match="'zed' is no player"):
        table.say("alice", ("zed",))

    def add_zed(data: dict[str, Any]) -> None:
        data["names"] = [*data["names"], "zed"]
        data["press"]["cards"]["zed"] = data["press"]["cards"]["dave"]

    said = table.say("alice", ("zed",), patch=add_zed)
    with pytest.raises(RejectedError, match="'zed' is no player"):
        table.relay(said.text)


def test_resigned_players(tmp_path: Path, keys: dict[str, Identity]) -> None:
    table = new_table(tmp_path, keys, PressRules(mode="full", out_may_receive=False))
    table.folder.set_status(table.moderator, "dave", "resigned", now=NOW)
    said = table.say("alice", ("dave",))  # the report of the turn predates the resignation
    with pytest.raises(RejectedError, match="dave is out of the game"):
        table.relay(said.text)
    table.folder.republish(table.moderator)
    assert table.data("alice")["press"]["out"] == ["dave"]
    with pytest.raises(RejectedError, match="dave is out of the game"):
        table.say("alice", ("dave",))
    with pytest.raises(
        RejectedError, match="dave is out of the game, and this game's players out of it send no"
    ):
        table.say("dave", ("alice",))
    # a message to all goes to the others, and is not refused for dave's sake
    assert table.relay(table.say("alice", (ALL,)).text).recipients == ("bob", "carol", "dave")


def test_per_turn_limit_and_its_reset(tmp_path: Path, keys: dict[str, Identity]) -> None:
    table = new_table(tmp_path, keys, PressRules(mode="full", per_turn=1))
    table.relay(table.say("alice", ("bob",), "one").text)
    with pytest.raises(RejectedError, match="has sent 1 message"):
        table.relay(table.say("alice", ("bob",), "two").text)
    table.relay(table.say("bob", ("alice",), "bob's one").text)
    table.advance()
    table.relay(table.say("alice", ("bob",), "a new turn").text)


def test_a_game_phase_narrows_press(table: PressTable, monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("symbiote")
    monkeypatch.setattr(game, "press_phase", lambda view: ("reaction", "public"), raising=False)
    table.folder.republish(table.moderator)
    assert table.data("alice")["press"]["phase"] == ["reaction", "public"]
    text, _ = table.report_text("alice")
    assert "Press now (the reaction phase): public." in text
    with pytest.raises(RejectedError, match="in the reaction phase"):
        table.say("alice", ("bob",))
    said = table.say("alice", ("bob",), patch=lambda d: d["press"].update(phase=None))
    with pytest.raises(RejectedError, match="in the reaction phase"):
        table.relay(said.text)
    table.relay(table.say("alice", (ALL,)).text)


def test_press_not_sealed_to_this_moderator_is_not_press(table: PressTable) -> None:
    from pbem.press.relay import open_press

    said = table.say("alice", ("bob",))
    assert open_press(said.text, table.keys["mallory"], "x") is None
    assert open_press("no armour at all", table.moderator, "x") is None


def test_reports_list_the_press_received_in_the_turn_before(table: PressTable) -> None:
    table.relay(table.say("alice", ("bob",), "one").text)
    table.relay(table.say("carol", ("bob",), "two", grey=True).text)
    table.relay(table.say("dave", (ALL,), "three").text)
    table.advance()
    from pbem.player import read_report

    text, source = table.report_text("bob")
    report = read_report(text, source, table.keys["bob"], home=table.home)
    private = report.private_text or ""
    assert "Press relayed to you in turn 1: 3 (copies in press/):" in private
    assert "  #1 from alice to you\n" in private
    assert "  #2 from someone to you\n" in private
    assert "  #3 from dave to all" in private
    assert "carol" not in private.split("Press relayed", 1)[1].replace("#2 from someone", "")
    text, source = table.report_text("alice")
    alice = read_report(text, source, table.keys["alice"], home=table.home).private_text or ""
    assert "#3 from dave to all" in alice and "#1 " not in alice
    assert all(len(line) <= 72 for line in [*text.splitlines(), *private.splitlines()])
    public = (table.folder.reports_dir(2) / "public.txt").read_text()
    assert "Press: messages to anyone; grey (anonymous) press allowed." in public
    assert "Press relayed" not in public


def test_the_archive_gets_public_press_and_private_only_if_agreed(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    plain = new_table(tmp_path, keys, PressRules(mode="full", grey=True), "a")
    plain.relay(plain.say("alice", ("bob",), "private").text)
    plain.relay(plain.say("bob", (ALL,), "public", grey=True).text)
    shown = archived_press(plain.folder.path, plain.folder.read(), plain.moderator)
    assert [(m.sender, m.to, m.text) for m in shown] == [("someone", (ALL,), ("public",))]
    agreed = new_table(
        tmp_path, keys, PressRules(mode="full", moderator_reads=True, archive_private=True), "b"
    )
    agreed.relay(agreed.say("alice", ("bob",), "private").text)
    shown = archived_press(agreed.folder.path, agreed.folder.read(), agreed.moderator)
    assert [(m.sender, m.to, m.text, m.public) for m in shown] == [("alice", ("bob",), ("private",), False)]


def test_the_end_of_a_game_puts_public_press_into_its_archive(
    tmp_path: Path, keys: dict[str, Identity]
) -> None:
    from pbem.archive.build import build_archive
    from pbem.archive.text import render_text

    options = {"max-rounds": 2, "corners": "dealt", "at-cap": "highest"}
    table = new_table(tmp_path, keys, PressRules(mode="full", grey=True), "j", "jovian-syzygy", options)
    table.relay(table.say("alice", (ALL,), "Good luck, all.").text)
    table.relay(table.say("bob", ("carol",), "A secret between us.").text)
    table.relay(table.say("carol", (ALL,), "Beware of Io.", grey=True).text)
    first = table.folder.read().turn
    while table.folder.read().body["outcome"] is None:
        table.advance()
    kept = table.folder.path / "press" / "archive.json"
    assert kept.exists(), "the end of the game published the archived press"
    archive = build_archive(table.folder.path)  # the public archive: no key
    page = next(p for p in archive.turns if p.turn == first)
    [section] = page.extra
    text = "\n".join(section.lines)
    assert "from alice to all" in text and "Good luck, all." in text
    assert "from someone to all" in text and "Beware of Io." in text
    assert "secret" not in text, "private press stays private"
    assert "Good luck, all." in render_text(archive)
    kept.write_text(kept.read_text().replace("Good luck", "Bad luck"))
    with pytest.raises(SignatureError):
        build_archive(table.folder.path)


def test_a_report_lists_eight_messages_and_counts_the_rest(table: PressTable) -> None:
    from pbem.press.ledger import Entry
    from pbem.press.listing import inbox_lines

    entries = [
        Entry(n, 1, "alice", ("bob",), False, n % 2 == 0, f"{n:032X}", f"{n:064x}", False, "t")
        for n in range(1, 13)
    ]
    lines = inbox_lines(entries, "bob", 2)
    assert len(lines) == 10
    assert lines[-1] == "  and 4 more, #9 to #12: pbem press read"
    assert "from someone" in lines[2] and "from alice" in lines[1]
    assert inbox_lines(entries, "carol", 2) == ("Press relayed to you in turn 1: none.",)
    assert inbox_lines(entries, "bob", 1) == ()
