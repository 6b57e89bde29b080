"""Parasite's card set as data (games/parasite/data/): the component counts the rulebook gives,
unique ids and priorities, every word in the EFFECTS.md vocabulary, each deck's theme, card
texts that say what the effects do, the named cards, the infection deck composition, the Dog,
and the generated reference in the README and ``pbem rules parasite --cards``."""

from __future__ import annotations

import importlib
import os
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.registry import game_names
from pbem_games.parasite import reference

ROOT = Path(__file__).resolve().parents[2]
EFFECTS = (ROOT / "games" / "parasite" / "EFFECTS.md").read_text("utf-8")
README = ROOT / "games" / "parasite" / "README.md"
DATA = reference.load_data()
LOCATIONS = ("office", "storehouse", "laboratory", "helipad")
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "30"))


def _table(heading: str) -> dict[str, str]:
    """The first-column words of the markdown table under ``heading`` in EFFECTS.md, with
    the rest of their row."""
    section = EFFECTS.split(heading, 1)[1]
    rows: dict[str, str] = {}
    started = False
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            started = True
            match = re.match(r"\|\s*`([a-z-]+)`\s*\|(.*)", line)
            if match:
                rows[match.group(1)] = match.group(2)
        elif started:
            break
    assert rows, f"no table under {heading!r} in EFFECTS.md"
    return rows


VERBS = _table("## Verbs")
TARGETS = _table("## Targets")
TRIGGERS = _table("## Triggers")
CONDITIONS = _table("### Conditions")
SEEKS = _table("**Moving.**")
HELIPAD_ONLY = {"on-mission", "off-mission", "leader-picks"}


def location_cards() -> list[Mapping[str, Any]]:
    return [card for deck in ("office", "storehouse", "laboratory") for card in DATA[deck]["card"]]


def all_cards() -> list[Mapping[str, Any]]:
    return [*location_cards(), *DATA["helipad"]["card"]]


def step_lists(card: Mapping[str, Any]) -> Iterator[list[Mapping[str, Any]]]:
    """Every list of steps a card, ability or Dog side holds."""
    for key in ("effects", "use", "pass", "fail", "activate", "action", "punish"):
        if key in card:
            yield card[key]
    for side in ("healthy", "distressed"):
        if isinstance(card.get(side), Mapping):
            yield from step_lists(card[side])
            if "ability" in card[side]:
                yield card[side]["ability"]["effects"]
    if isinstance(card.get("ability"), Mapping):
        yield card["ability"]["effects"]


def steps(card: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every step of a card, ``choose`` options included."""
    pending = [step for lst in step_lists(card) for step in lst]
    while pending:
        step = pending.pop()
        yield step
        for option in step.get("options", []):
            pending.extend(option)


def verbs(card: Mapping[str, Any]) -> set[str]:
    return {str(step["do"]) for step in steps(card)}


# ---- components ------------------------------------------------------------------------------


def test_component_counts_are_the_rulebooks() -> None:
    assert len(DATA["characters"]["character"]) == 9
    for deck in ("office", "storehouse", "laboratory"):
        assert reference.copies(DATA[deck]["card"]) == 24, deck
    assert reference.copies(DATA["helipad"]["card"]) == 22
    infection = DATA["infection"]["infection"]
    assert len([c for c in infection if not c.get("dog_only")]) == 20
    assert [c["name"] for c in infection if c.get("dog_only")] == ["Dog Lover"]
    rows = dict(reference.component_rows(DATA))
    assert rows["Infection tokens"].startswith("72 (8 of each colour)")
    assert reference.TOKENS_PER_CHARACTER == 8


def test_characters_have_distinct_colours_and_one_to_three_starting_cards() -> None:
    people = DATA["characters"]["character"]
    assert len({p["colour"] for p in people}) == 9
    assert len({p["name"] for p in people}) == 9
    for person in people:
        assert 1 <= len(person["starting"]) <= 3, person["id"]
        assert set(person["starting"]) <= {"office", "storehouse", "laboratory"}, person["id"]


def strength(side: Mapping[str, Any]) -> tuple[int, int]:
    """(steps, the sum of their counts): a crude measure that grows with an ability."""
    ability = side.get("ability")
    if ability is None:
        return (0, 0)
    effects = ability["effects"]
    return (len(effects), sum(int(step.get("count", 1)) for step in effects))


def test_the_distressed_side_is_weaker_than_the_healthy_side() -> None:
    for person in DATA["characters"]["character"]:
        healthy, distressed = strength(person["healthy"]), strength(person["distressed"])
        if healthy == (0, 0):  # no ability: a third starting card instead
            assert distressed == (0, 0) and len(person["starting"]) == 3, person["id"]
        else:
            assert distressed < healthy, person["id"]
        if distressed != (0, 0):  # a smaller version of the same ability
            assert person["distressed"]["ability"]["when"] == person["healthy"]["ability"]["when"]


def test_ids_are_unique_kebab_case_and_short_enough_for_an_order_line() -> None:
    ids = [c["id"] for c in all_cards()]
    ids += [c["id"] for c in DATA["infection"]["infection"]]
    ids += [c["id"] for c in DATA["characters"]["character"]]
    ids.append(DATA["dog"]["dog"]["id"])
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    for card_id in ids:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", card_id) and len(card_id) <= 24, card_id
    names = [c["name"] for c in all_cards()]
    assert [n for n, k in Counter(names).items() if k > 1] == []


def test_every_text_is_plain_printable_ascii_for_mail() -> None:
    texts = [c["text"] for c in all_cards()] + [c["text"] for c in DATA["infection"]["infection"]]
    for person in DATA["characters"]["character"]:
        texts += [person["healthy"]["text"], person["distressed"]["text"]]
    for text in texts:
        assert re.fullmatch(r"[ -~]+", text), text
        assert 10 <= len(text) <= 400, text


# ---- the vocabulary --------------------------------------------------------------------------

PARAMETERS = {"do", "who", "options"}
DECK_WORDS = {"office", "storehouse", "laboratory", "helipad", "here"}
TO_WORDS = {"office", "storehouse", "laboratory", "helipad", "here", "any"}


def check_step(step: Mapping[str, Any], where: str, helipad: bool) -> None:
    verb = step["do"]
    if verb == "choose":
        assert len(step["options"]) >= 2, where
        for option in step["options"]:
            assert option, where
            for inner in option:
                check_step(inner, where, helipad)
        return
    assert verb in VERBS, f"{where}: the verb {verb!r} has no row in EFFECTS.md"
    allowed = set(re.findall(r"`([a-z]+)", VERBS[verb].split("|")[0])) | {"do"}
    assert set(step) <= allowed, f"{where}: {verb} takes {sorted(allowed)}, not {sorted(set(step) - allowed)}"
    if "who" in step:
        assert step["who"] in TARGETS, f"{where}: target {step['who']!r}"
        assert helipad or step["who"] not in HELIPAD_ONLY, f"{where}: {step['who']} is for Helipad cards"
        assert (step["who"] == "dead") == (verb == "revive"), where
    if "deck" in step:
        assert step["deck"] in DECK_WORDS, where
    if "to" in step:
        assert step["to"] in TO_WORDS, where
    if "count" in step:
        assert 1 <= step["count"] <= 3, where
    if "pick" in step:
        assert step["pick"] in {"owner", "random"}, where
    if "as" in step:
        assert step["as"] in {"healthy", "distressed"}, where
    if verb in {"cancel", "prevent", "end-game", "reveal", "extra-action"}:
        assert set(step) == {"do"}, where


@pytest.mark.parametrize("deck", ["office", "storehouse", "laboratory"])
def test_location_cards_use_only_the_vocabulary(deck: str) -> None:
    for card in DATA[deck]["card"]:
        where = f"{deck}.toml {card['id']}"
        assert card["deck"] == deck, where
        assert card["copies"] >= 1, where
        kind, icon = card["kind"], card["icon"]
        assert (kind, icon) in {
            ("basic", "action"),
            ("basic", "reaction"),
            ("basic", "interrupt"),
            ("item", "item"),
            ("event", "event"),
        }, where
        if icon in {"reaction", "interrupt"}:
            assert card["trigger"] in TRIGGERS and card["effects"], where
        if kind == "item":
            assert "use" in card or "trigger" in card, where
            if "trigger" in card:
                assert card["trigger"] in TRIGGERS, where
        if icon in {"action", "event"}:
            assert "trigger" not in card and card["effects"], where
        if "cancel" in verbs(card):
            assert icon == "interrupt", where
        if "prevent" in verbs(card):
            assert kind == "item" and "trigger" in card, where
        if "end-game" in verbs(card):
            pytest.fail(f"{where}: end-game belongs to Infection abilities")
        for lst in step_lists(card):
            for step in lst:
                check_step(step, where, helipad=False)


def test_helipad_cards_use_only_the_vocabulary_and_need_sensible_numbers() -> None:
    for card in DATA["helipad"]["card"]:
        where = f"helipad.toml {card['id']}"
        assert card["deck"] == "helipad" and card["copies"] == 1, where
        if card["kind"] == "mission":
            need = [card["required"][str(n)] for n in reference.PLAYER_COUNTS]
            assert need == sorted(need), where  # more players, never fewer needed
            assert all(1 <= k <= n - 1 for k, n in zip(need, reference.PLAYER_COUNTS, strict=True)), where
            assert "effects" not in card and card["fail"], where
        else:
            assert card["kind"] == "crisis" and card["effects"], where
            assert "required" not in card and "pass" not in card, where
        for lst in step_lists(card):
            for step in lst:
                assert step["do"] not in {"draw", "draw-keep", "give", "steal", "look-hand"}, (
                    f"{where}: {step['do']} needs a 'you'; on the Helipad nobody plays the card"
                )
                check_step(step, where, helipad=True)


def test_the_leader_decides_a_good_share_of_the_helipad() -> None:
    cards = DATA["helipad"]["card"]
    missions = [c for c in cards if c["kind"] == "mission"]
    assert 10 <= len(missions) <= 12 and len(cards) - len(missions) >= 10

    def leader_decides(card: Mapping[str, Any]) -> bool:
        return any(
            s["do"] == "choose" or s.get("who") in {"leader-picks", "dead"} or s.get("to") == "any"
            for s in steps(card)
        )

    decided = sum(leader_decides(c) for c in cards)
    assert decided >= len(cards) // 2, decided
    assert sum(any(s["do"] == "choose" for s in steps(c)) for c in cards) >= 5


def test_characters_infection_cards_and_the_dog_use_only_the_vocabulary() -> None:
    for person in DATA["characters"]["character"]:
        for side in ("healthy", "distressed"):
            ability = person[side].get("ability")
            if ability:
                assert ability["when"] == "action" or ability["when"] in TRIGGERS, person["id"]
                for step in ability["effects"]:
                    check_step(step, f"characters.toml {person['id']} {side}", helipad=False)
                assert "end-game" not in {s["do"] for s in ability["effects"]}
    for card in DATA["infection"]["infection"]:
        where = f"infection.toml {card['id']}"
        for condition in card["win"] + card["lose"]:
            assert condition["if"] in CONDITIONS, f"{where}: condition {condition['if']!r}"
            assert set(condition) <= {"if", "n"}, where
        if "ability" in card:
            assert card["ability"]["when"] == "action" or card["ability"]["when"] in TRIGGERS, where
            for step in card["ability"]["effects"]:
                check_step(step, where, helipad=False)
    dog = DATA["dog"]["dog"]
    for side in ("healthy", "distressed"):
        assert dog[side]["seeks"] and set(dog[side]["seeks"]) <= set(SEEKS), side
        for key in ("activate", "action", "punish"):
            for step in dog[side].get(key, []):
                check_step(step, f"dog.toml {side} {key}", helipad=False)


def test_every_word_the_vocabulary_offers_is_used_by_some_card() -> None:
    """A row nobody uses is code without a card: the data should exercise the whole contract."""
    used_verbs: set[str] = set()
    used_targets: set[str] = set()
    cards: list[Mapping[str, Any]] = [
        *all_cards(),
        *DATA["infection"]["infection"],
        *DATA["characters"]["character"],
        DATA["dog"]["dog"],
    ]
    for card in cards:
        for step in steps(card):
            used_verbs.add(step["do"])
            if "who" in step:
                used_targets.add(step["who"])
    used_verbs.discard("choose")
    assert set(VERBS) - used_verbs == set()
    assert set(TARGETS) - used_targets <= {"dog"}  # the Dog is named by the rules, not by cards
    triggers = {c["trigger"] for c in location_cards() if "trigger" in c}
    triggers |= {c["ability"]["when"] for c in DATA["infection"]["infection"] if "ability" in c}
    triggers |= {
        p[s]["ability"]["when"]
        for p in DATA["characters"]["character"]
        for s in ("healthy", "distressed")
        if "ability" in p[s]
    }
    assert set(TRIGGERS) - triggers <= {"escape-phase", "game-end"}
    conditions = {c["if"] for card in DATA["infection"]["infection"] for c in card["win"] + card["lose"]}
    assert set(CONDITIONS) - conditions == set()


# ---- the decks' themes -------------------------------------------------------------------------

THEME_VERBS = {
    # Office: teamwork and helping others
    "office": {"heal", "give", "take-token", "unreveal", "pass-leader", "move"},
    # Storehouse: equipment and weapons
    "storehouse": {"distress", "kill", "steal", "prevent", "discard"},
    # Laboratory: information and healing
    "laboratory": {"test", "look-hand", "look-deck", "heal", "revive", "drop-token"},
}


def theme_share(deck: str, theme: str) -> float:
    cards = DATA[deck]["card"]
    hits = sum(card["copies"] for card in cards if verbs(card) & THEME_VERBS[theme])
    return hits / reference.copies(cards)


@pytest.mark.parametrize("deck", ["office", "storehouse", "laboratory"])
def test_each_deck_leans_to_its_own_theme(deck: str) -> None:
    own = theme_share(deck, deck)
    assert own >= 0.5, (deck, own)
    for other in THEME_VERBS:
        if other != deck:
            assert own > theme_share(other, deck), (deck, other)


def test_every_deck_has_every_icon_and_the_readme_table_says_so() -> None:
    text = README.read_text("utf-8")
    for deck in ("office", "storehouse", "laboratory"):
        counts = reference.icon_counts(DATA[deck]["card"])
        assert all(counts[icon] >= 1 for icon in reference.ICONS), (deck, counts)
        assert sum(counts.values()) == 24
        row = " | ".join(str(counts[i]) for i in reference.ICONS)
        assert re.search(rf"^\| {deck.capitalize()} \| [^|]+ \| {re.escape(row)} \| 24 \|$", text, re.M), deck


def test_test_results_and_weapons_live_where_the_rulebook_says() -> None:
    tests = Counter(
        card["deck"] for card in location_cards() for _ in range(card["copies"]) if "test" in verbs(card)
    )
    assert tests["laboratory"] > tests["office"] + tests["storehouse"]
    strikes = Counter(
        card["deck"]
        for card in location_cards()
        for _ in range(card["copies"])
        if any(
            s["do"] in {"distress", "kill"} and s.get("who") not in {"self", "all-here"} for s in steps(card)
        )
    )
    assert strikes["storehouse"] > strikes["office"] + strikes["laboratory"]
    items = {
        deck: reference.icon_counts(DATA[deck]["card"])["item"]
        for deck in ("office", "storehouse", "laboratory")
    }
    assert max(items, key=lambda d: items[d]) == "storehouse"


# ---- texts say what the effects do ---------------------------------------------------------------

SAYS = {
    "distress": r"Distressed",
    "heal": r"Healthy",
    "kill": r"\bdies?\b",
    "revive": r"Revive",
    "draw": r"\bdraws?\b",
    "draw-keep": r"\bkeep\b",
    "discard": r"\bdiscards?\b",
    "steal": r"\btakes?\b",
    "give": r"\bgives?\b",
    "look-deck": r"\blook at the top\b",
    "look-hand": r"\blook at their hand\b",
    "test": r"Test Results",
    "reveal": r"\breveal\b",
    "unreveal": r"face down",
    "infect": r"top card of the Infection deck",
    "move": r"\bmoves?\b",
    "take-token": r"\btoken\b",
    "drop-token": r"\bgives? back\b.*\btoken",
    "pass-leader": r"Leader token",
    "extra-action": r"one more Action",
    "cancel": r"does not happen",
    "prevent": r"does not happen",
    "end-game": r"game ends",
    "choose": r"\bchooses?\b.*\bor\b",
}
CONDITION_SAYS = {
    "escaped": r"\bEscapes?\b",
    "stayed": r"Stay behind",
    "alive": r"\balive\b",
    "dead": r"\bdead\b",
    "healthy": r"Healthy",
    "no-parasite-escaped": r"no Parasite Escapes",
    "parasite-escaped": r"a Parasite Escapes",
    "carrying-parasite-token": r"carrying a token of a Parasite",
    "your-token-escaped": r"tokens? of your colour Escape",
    "humans-escaped": r"Humans? Escapes?",
    "escaped-at-most": r"at most \d+ players? Escape",
    "all-humans-dead": r"every Human is dead",
    "all-parasites-dead": r"every Parasite is dead",
    "dog-escaped": r"the Dog Escapes",
}


def says(text: str, verb: str) -> bool:
    return re.search(SAYS[verb], text, re.I | re.S) is not None


def test_every_card_text_mentions_what_its_effects_do() -> None:
    missing = []
    for card in all_cards():
        for verb in verbs(card):
            if not says(card["text"], verb):
                missing.append(f"{card['id']}: {verb}")
        if card.get("keep"):
            assert re.search(r"\bKeep the\b", card["text"]), card["id"]
        elif card["kind"] == "item":
            assert re.search(r"\bdiscard the\b", card["text"], re.I), card["id"]
        if card["kind"] in {"item", "event"}:
            assert card["text"].startswith(card["kind"].capitalize() + "."), card["id"]
        if card["kind"] == "mission":
            assert "PASS:" in card["text"] and "FAIL:" in card["text"], card["id"]
    for person in DATA["characters"]["character"]:
        for side in ("healthy", "distressed"):
            for verb in verbs(person[side]):
                if not says(person[side]["text"], verb):
                    missing.append(f"{person['id']} {side}: {verb}")
    assert missing == []


def test_every_infection_text_states_its_side_conditions_and_ability() -> None:
    missing = []
    for card in DATA["infection"]["infection"]:
        text = card["text"]
        if not text.startswith(card["side"].capitalize()):
            missing.append(f"{card['id']}: side")
        win, lose = text.split("Win:", 1)[1].split("Lose:", 1)
        for cond in card["win"]:
            if not re.search(CONDITION_SAYS[cond["if"]], win, re.I):
                missing.append(f"{card['id']}: win {cond['if']}")
        for cond in card["lose"]:
            if not re.search(CONDITION_SAYS[cond["if"]], lose, re.I):
                missing.append(f"{card['id']}: lose {cond['if']}")
        for cond in card["win"] + card["lose"]:
            if "n" in cond and str(cond["n"]) not in text:
                missing.append(f"{card['id']}: the number {cond['n']}")
        if "ability" in card:
            if "Ability:" not in text:
                missing.append(f"{card['id']}: ability")
            for verb in verbs(card):
                if not says(text, verb):
                    missing.append(f"{card['id']}: {verb}")
    assert missing == []


# ---- the named cards ---------------------------------------------------------------------------


def card(card_id: str) -> Mapping[str, Any]:
    found = [c for c in [*all_cards(), *DATA["infection"]["infection"]] if c["id"] == card_id]
    assert len(found) == 1, card_id
    return found[0]


def test_scalpel_answers_being_made_distressed_by_distressing_the_source() -> None:
    scalpel = card("scalpel")
    assert scalpel["icon"] == "interrupt" and scalpel["trigger"] == "distressed-by"
    assert scalpel["effects"] == [{"do": "distress", "who": "source"}]
    assert "Action never finishes" in scalpel["text"]


def test_ice_pick_is_an_interrupt_that_strikes_the_source_first() -> None:
    pick = card("ice-pick")
    assert pick["icon"] == "interrupt" and pick["trigger"] in TRIGGERS
    assert pick["effects"] == [{"do": "distress", "who": "source"}]
    assert "Action never finishes" in pick["text"]


def test_just_between_us_unreveals_an_infection_card() -> None:
    just = card("just-between-us")
    assert just["name"] == "Just Between Us" and just["deck"] == "office"
    assert [s["do"] for s in just["effects"]] == ["unreveal"]


def test_dog_lover_is_a_human_card_only_with_the_dog() -> None:
    lover = card("dog-lover")
    assert lover["side"] == "human" and lover["dog_only"] is True
    assert {"if": "dog-escaped"} in lover["win"]
    assert sum(1 for c in DATA["infection"]["infection"] if c.get("dog_only")) == 1


# ---- the Infection cards and the deck ----------------------------------------------------------


def test_infection_cards_sides_priorities_and_abilities() -> None:
    cards = DATA["infection"]["infection"]
    regular = [c for c in cards if not c.get("dog_only")]
    assert Counter(c["side"] for c in regular) == {"human": 12, "parasite": 8}
    priorities = [c["priority"] for c in cards]
    assert len(set(priorities)) == len(priorities) and all(0 <= p <= 99 for p in priorities)
    for c in cards:
        assert c["win"] and c["lose"], c["id"]
        reveals = "reveal" in verbs(c)
        assert bool(c.get("revealable")) == reveals, c["id"]
        if "end-game" in verbs(c):  # the game can only end on a condition that can hold mid-game
            assert {x["if"] for x in c["win"]} <= {"all-humans-dead", "all-parasites-dead"}, c["id"]
    assert sum(1 for c in cards if c.get("revealable")) >= 4
    assert {c["side"] for c in cards if "end-game" in verbs(c)} == {"human", "parasite"}
    humans = sorted(c["priority"] for c in regular if c["side"] == "human")
    parasites = sorted(c["priority"] for c in regular if c["side"] == "parasite")
    assert sum(humans) / len(humans) < sum(parasites) / len(parasites)  # infection mostly turns Humans
    assert humans[-1] > parasites[-2]  # but some Humans resist it


@pytest.mark.parametrize("players", reference.PLAYER_COUNTS)
@pytest.mark.parametrize("difficulty", ["standard", "easier", "harder"])
@pytest.mark.parametrize("dog", [False, True])
def test_the_infection_deck_deals_everyone_and_keeps_parasites_a_minority(
    players: int, difficulty: str, dog: bool
) -> None:
    infection = DATA["infection"]
    entry, extra = infection["deck"][str(players)], infection["adjust"][difficulty]
    humans = entry["human"] + extra["human"]
    parasites = entry["parasite"] + extra["parasite"]
    regular = [c for c in infection["infection"] if not c.get("dog_only")]
    assert humans <= sum(1 for c in regular if c["side"] == "human")
    assert parasites <= sum(1 for c in regular if c["side"] == "parasite")
    dealt = players + dog
    total = humans + parasites + dog  # the Dog Lover joins the Humans
    assert total >= dealt + 2, "the Infection deck keeps cards for the cards that infect"
    share = parasites / total  # also the share of Parasites expected among those dealt
    assert share <= 1 / 3 + 1e-9 + (0.1 if difficulty == "harder" else 0), share
    assert parasites >= 2 and (difficulty != "standard" or share >= 0.2), share


def test_the_composition_repeats_the_rulebooks_groups() -> None:
    deck = DATA["infection"]["deck"]
    assert deck["5"] == deck["6"] and deck["7"] == deck["8"]
    assert deck["4"] != deck["5"] != deck["7"]
    assert set(DATA["infection"]["adjust"]) == {"standard", "easier", "harder"}
    assert DATA["infection"]["adjust"]["standard"] == {"human": 0, "parasite": 0}


# ---- the Dog -----------------------------------------------------------------------------------


def test_the_dog_helps_when_healthy_and_punishes_when_distressed() -> None:
    dog = DATA["dog"]["dog"]
    healthy, distressed = dog["healthy"], dog["distressed"]
    assert healthy["activate"] == [{"do": "draw", "deck": "here", "count": 1}]
    assert healthy["action"] == [{"do": "heal", "who": "self"}]
    assert "punish" not in healthy and "activate" not in distressed and "action" not in distressed
    assert distressed["punish"] and all(s.get("who") == "source" for s in distressed["punish"])
    assert healthy["seeks"] != distressed["seeks"] and "violent" in distressed["seeks"]
    ref = DATA["dog"]["reference"]["text"]
    for word in ("Game Phase", "Leader", "Healthy", "Distressed", "Infection Phase", "Dog Lover"):
        assert word in ref, word


# ---- the reference and the README --------------------------------------------------------------


def test_the_reference_fits_72_columns_and_lists_every_card_with_its_count() -> None:
    text = reference.reference_text(DATA)
    assert max(len(line) for line in text.splitlines()) <= 72
    for deck in ("office", "storehouse", "laboratory"):
        for c in DATA[deck]["card"]:
            assert f"{c['copies']}x {c['name']} - " in text and f"[{c['id']}]" in text, c["id"]
    for c in [*DATA["helipad"]["card"], *DATA["infection"]["infection"], *DATA["characters"]["character"]]:
        assert f"[{c['id']}]" in text, c["id"]
    assert "24 cards: 10 Action" in text and "22 cards: 12 Mission, 10 Crisis" in text
    four = DATA["infection"]["deck"]["4"]
    assert f"4 players:    {four['human']} Human + {four['parasite']} Parasite" in text


def test_the_readme_card_list_matches_the_data() -> None:
    """Fails when a card changed without `python -m pbem_games.parasite.reference
    --write-readme games/parasite/README.md`."""
    text = README.read_text("utf-8")
    assert reference.readme_section(DATA) in text
    assert text.count(reference.BEGIN) == 1 and text.count(reference.END) == 1
    assert reference.replace_section(text, reference.readme_section(DATA)) == text


def test_pbem_rules_cards_prints_the_reference_or_says_there_is_none() -> None:
    runner = CliRunner()
    none = runner.invoke(main, ["rules", "symbiote", "--cards"])
    assert none.exit_code == 2 and "has no card list" in none.output
    if "parasite" not in game_names():
        pytest.skip("the parasite game is not registered yet (games/parasite/__init__.py)")
    result = runner.invoke(main, ["rules", "parasite", "--cards"])
    assert result.exit_code == 0 and result.output == reference.reference_text()
    rules = runner.invoke(main, ["rules", "parasite"])
    assert rules.exit_code == 0 and reference.readme_section() in rules.output


def test_the_rules_code_loads_every_card() -> None:
    """games/parasite/cards.py (the rules code's loader) accepts the whole set."""
    try:
        cards = importlib.import_module("pbem_games.parasite.cards")
    except ModuleNotFoundError as error:
        if error.name != "pbem_games.parasite.cards":
            raise
        pytest.skip("games/parasite/cards.py is not written yet")
    loaded = cards.load_cards()
    assert len(loaded.characters) == 9
    assert {deck: len(ids) for deck, ids in loaded.decks.items()} == {
        "office": 24,
        "storehouse": 24,
        "laboratory": 24,
        "helipad": 22,
    }
    assert set(loaded.cards) == {c["id"] for c in all_cards()}
    assert set(loaded.infections) == {c["id"] for c in DATA["infection"]["infection"]}
    assert (len(loaded.humans()), len(loaded.parasites()), len(loaded.humans(dog=True))) == (12, 8, 13)
    deck = DATA["infection"]["deck"]
    assert dict(loaded.composition) == {int(n): (e["human"], e["parasite"]) for n, e in deck.items()}
    assert loaded.card("scalpel").trigger == "distressed-by"
    assert loaded.dog.healthy.seeks == tuple(DATA["dog"]["dog"]["healthy"]["seeks"])


lines = st.text(st.characters(blacklist_categories=["Cs"]), max_size=60)


@settings(max_examples=EXAMPLES, deadline=None)
@given(before=lines, after=lines, old=lines)
def test_rewriting_the_readme_keeps_everything_outside_the_markers(before: str, after: str, old: str) -> None:
    section = reference.readme_section(DATA)
    readme = f"{before}\n{reference.BEGIN}\n{old}\n{reference.END}\n\n{after}"
    if readme.count(reference.BEGIN) != 1 or readme.count(reference.END) != 1:
        return
    out = reference.replace_section(readme, section)
    assert out.startswith(f"{before}\n{section}")
    assert out.endswith(after)
    assert reference.replace_section(out, section) == out


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), min_size=1, max_size=600))
def test_any_card_text_stays_within_72_columns(text: str) -> None:
    data = dict(DATA)
    office = dict(data["office"])
    office["card"] = [{**office["card"][0], "text": text}, *office["card"][1:]]
    data["office"] = office
    assert max(len(line) for line in reference.reference_text(data).splitlines()) <= 72
