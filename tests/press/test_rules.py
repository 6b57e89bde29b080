"""Press rules: parsing ``pbem new --press``, the signed rules file, and every rule of
:func:`check_message`, each with the message that says what and what to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import FormatError, RejectedError, SignatureError, UsageError
from pbem.keys import Identity
from pbem.press.rules import (
    ALL,
    Message,
    PressRules,
    check_message,
    load_rules,
    parse_pairs,
    rules_path,
    write_rules,
)

from .conftest import FUZZ

NAMES = ("alice", "bob", "carol", "dave")
FULL = PressRules(mode="full", grey=True)


def msg(
    to: tuple[str, ...] = ("bob",), *, sender: str = "alice", grey: bool = False, chars: int = 10
) -> Message:
    return Message(sender, to, grey, chars)


def test_pairs_give_the_rules_and_default_to_full() -> None:
    assert parse_pairs([]) is None
    assert parse_pairs(["grey=yes"]) == PressRules(mode="full", grey=True)
    assert parse_pairs(["public"]) == PressRules(mode="public")
    rules = parse_pairs(
        ["mode=full", "max-chars=500", "per-turn=3", "phase.reaction=none", "out-may-send=yes"]
    )
    assert rules == PressRules(
        mode="full", max_chars=500, per_turn=3, phases=(("reaction", "none"),), out_may_send=True
    )


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (["colour=red"], "unknown press setting 'colour'"),
        (["mode=loud"], "is not one of none, public, full"),
        (["grey=maybe"], "grey takes yes or no"),
        (["max-chars=lots"], "max-chars takes a whole number"),
        (["max-chars=99999"], "max-chars must be from 1 to 3000"),
        (["archive-private=yes"], "needs moderator-reads=yes"),
        (["phase.reaction=shout"], "phase.reaction=shout"),
    ],
)
def test_bad_pairs_are_usage_errors_that_say_what(spec: list[str], words: str) -> None:
    with pytest.raises(UsageError, match=words.replace(".", r"\.")):
        parse_pairs(spec)


def test_the_rules_file_is_signed_and_bound_to_its_game(tmp_path: Path, keys: dict[str, Identity]) -> None:
    mod = keys["moderator"]
    rules = PressRules(mode="public", grey=True)
    write_rules(tmp_path, rules, "0123456789ABCDEF", mod)
    assert load_rules(tmp_path, "0123456789ABCDEF", mod.public()) == rules
    with pytest.raises(UsageError, match="fixed when it is created"):
        write_rules(tmp_path, FULL, "0123456789ABCDEF", mod)
    with pytest.raises(FormatError, match="for game"):
        load_rules(tmp_path, "FEDCBA9876543210", mod.public())
    with pytest.raises(SignatureError, match="not signed by this game's moderator"):
        load_rules(tmp_path, "0123456789ABCDEF", keys["mallory"].public())
    doc = json.loads(rules_path(tmp_path).read_text())
    doc["body"]["rules"]["mode"] = "full"  # a player widens the rules
    rules_path(tmp_path).write_text(json.dumps(doc))
    with pytest.raises(SignatureError):
        load_rules(tmp_path, "0123456789ABCDEF", mod.public())
    rules_path(tmp_path).write_text("{not json")
    with pytest.raises(FormatError, match=r"rules\.json is not valid JSON"):
        load_rules(tmp_path, "0123456789ABCDEF", mod.public())


def test_no_rules_file_means_no_press(tmp_path: Path, keys: dict[str, Identity]) -> None:
    rules = load_rules(tmp_path, "0123456789ABCDEF", keys["moderator"].public())
    assert not rules.enabled
    with pytest.raises(RejectedError, match="this game has no press"):
        check_message(rules, msg(), NAMES)


def test_full_press_allows_private_public_and_grey() -> None:
    check_message(FULL, msg(("bob", "carol")), NAMES)
    check_message(FULL, msg((ALL,)), NAMES)
    check_message(FULL, msg(("bob",), grey=True), NAMES)


@pytest.mark.parametrize(
    ("rules", "message", "words"),
    [
        (PressRules(mode="public"), msg(("bob",)), "only messages to all players"),
        (PressRules(mode="full"), msg(("bob",), grey=True), "does not allow grey press"),
        (FULL, msg(("zed",)), "'zed' is no player"),
        (FULL, msg(("alice",)), "addressed to its own sender"),
        (FULL, msg(("bob", "BOB")), "named twice"),
        (FULL, msg(()), "names no recipient"),
        (FULL, msg(sender="mallory"), "'mallory' is not a player"),
        (PressRules(mode="full", max_chars=100), msg(chars=101), "101 characters; this game allows 100"),
    ],
)
def test_each_rule_refuses_with_a_reason(rules: PressRules, message: Message, words: str) -> None:
    with pytest.raises(RejectedError, match=words):
        check_message(rules, message, NAMES)


def test_players_out_of_the_game() -> None:
    with pytest.raises(RejectedError, match="alice is out of the game"):
        check_message(FULL, msg(), NAMES, out={"alice"})
    check_message(PressRules(mode="full", out_may_send=True), msg(), NAMES, out={"alice"})
    check_message(FULL, msg(), NAMES, out={"bob"})  # may receive by default
    with pytest.raises(RejectedError, match="bob is out of the game"):
        check_message(PressRules(mode="full", out_may_receive=False), msg(), NAMES, out={"bob"})


def test_per_turn_limit() -> None:
    rules = PressRules(mode="full", per_turn=2)
    check_message(rules, msg(), NAMES, sent_this_turn=1)
    with pytest.raises(RejectedError, match="has sent 2 message"):
        check_message(rules, msg(), NAMES, sent_this_turn=2)


def test_a_game_phase_narrows_press() -> None:
    check_message(FULL, msg(), NAMES, phase=("movement", "full"))
    with pytest.raises(RejectedError, match="only messages to all players are allowed in the reaction phase"):
        check_message(FULL, msg(), NAMES, phase=("reaction", "public"))
    check_message(FULL, msg((ALL,)), NAMES, phase=("reaction", "public"))
    narrowed = PressRules(mode="full", phases=(("reaction", "none"),))
    with pytest.raises(RejectedError, match="no press is allowed in the reaction phase"):
        check_message(narrowed, msg((ALL,)), NAMES, phase=("reaction", "full"))


def test_the_rules_in_words_say_every_switch() -> None:
    text = "\n".join(PressRules(mode="full", moderator_reads=True, archive_private=True).describe())
    assert "messages to anyone" in text
    assert "Press the moderator can read: every message." in text
    assert "all of it (agreed at creation)" in text
    assert "none" in PressRules().describe()[0]


@FUZZ
@given(st.lists(st.text(max_size=30), max_size=6))
def test_any_press_argument_is_rules_or_a_usage_error(specs: list[str]) -> None:
    try:
        rules = parse_pairs(specs)
    except UsageError as exc:
        assert exc.message
    else:
        assert rules is None or PressRules.from_json(rules.to_json(), "x") == rules
