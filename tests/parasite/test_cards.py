"""games/parasite/cards.py: the shipped set loads, and a card that breaks the schema of
EFFECTS.md is refused with the file, line, card and word."""

from __future__ import annotations

import pytest

from pbem.errors import FormatError
from pbem_games.parasite import cards
from pbem_games.parasite.cards import CardDataError, data_texts, load_cards, parse_set


def test_the_shipped_set_loads_once_and_has_every_component() -> None:
    loaded = load_cards()
    assert load_cards() is loaded
    assert {deck: len(ids) for deck, ids in loaded.decks.items()} == {
        "office": 24,
        "storehouse": 24,
        "laboratory": 24,
        "helipad": 22,
    }
    assert len(loaded.characters) == 9
    assert len([i for i in loaded.infections.values() if not i.dog_only]) == 20
    assert loaded.card("scalpel").trigger == "distressed-by"
    assert loaded.card("scalpel").effects[0] == cards.Step(do="distress", who="source")


def _broken(file: str, old: str, new: str) -> str:
    texts = data_texts()
    assert old in texts[file], old
    texts[file] = texts[file].replace(old, new, 1)
    with pytest.raises(CardDataError) as info:
        parse_set(texts)
    assert isinstance(info.value, FormatError)
    return str(info.value)


def test_an_unknown_verb_is_refused_with_file_line_and_card() -> None:
    message = _broken("office", '{ do = "heal", who = "other-here" }', '{ do = "heall", who = "other-here" }')
    assert "data/office.toml, line " in message and "(pep-talk)" in message
    assert "unknown verb 'heall'" in message and "distress" in message
    line = int(message.split("line ")[1].split(" ")[0])
    assert 'id = "pep-talk"' in data_texts()["office"].splitlines()[line - 1]


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("office", 'who = "other-here" }', 'who = "nobody" }', "unknown target 'nobody'"),
        ("storehouse", 'trigger = "distressed-by"', 'trigger = "sneezed"', "unknown trigger 'sneezed'"),
        ("infection", '{ if = "escaped" }', '{ if = "happy" }', "unknown condition 'happy'"),
        ("dog", 'seeks = ["distressed", "alone"]', 'seeks = ["bones"]', "unknown criterion 'bones'"),
        ("office", 'icon = "action"', 'icon = "reaction"', "needs a 'trigger'"),
        ("office", "copies = 3", "copies = 3\nflavour = 1", "unknown field 'flavour'"),
        (
            "storehouse",
            'do = "steal", who = "other-here", count = 1',
            'do = "steal", who = "other-here"',
            "needs 'count'",
        ),
        ("infection", "priority = 3\n", "priority = 8\n", "priority 8 is also"),
        (
            "helipad",
            "required = { 4 = 2, 5 = 2, 6 = 3, 7 = 3, 8 = 4 }",
            "required = { 4 = 2 }",
            "no entry for 5",
        ),
        ("office", 'who = "other-here" }', 'who = "on-mission" }', "Helipad cards only"),
        (
            "office",
            '[ { do = "heal", who = "other-here" } ]',
            '[ { do = "heal", who = "source" } ]',
            "needs a trigger",
        ),
        (
            "infection",
            "4 = { human = 4, parasite = 2 }",
            "4 = { human = 1, parasite = 2 }",
            "from only 3 cards",
        ),
        ("characters", 'starting = ["office"]', 'starting = ["kitchen"]', "unknown starting deck 'kitchen'"),
        ("office", 'id = "pep-talk"', 'id = "buddy-system"', "used twice"),
        ("office", "[[card]]", "[[card]", "is not TOML"),
    ],
)
def test_a_broken_entry_is_refused_clearly(file: str, old: str, new: str, expected: str) -> None:
    message = _broken(file, old, new)
    assert expected in message
    assert f"data/{file}.toml" in message


def test_a_missing_file_is_named() -> None:
    texts = data_texts()
    del texts["dog"]
    with pytest.raises(CardDataError, match=r"data/dog\.toml is missing"):
        parse_set(texts)
