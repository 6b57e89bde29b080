"""Mutation review (twelfth session): scenario tests that kill mutants of Parasite's rules
the suite let through.

- ``games/parasite/verbs.py`` ``distress`` without its second "is the subject still alive?"
  check (after the Interrupts): a player killed while their own Distress was being answered
  "becomes Distressed" again.
- ``games/parasite/rules.py`` ``options_of`` without its type check: ``dog="yes"`` set up a
  game with the Dog.
- ``games/parasite/winning.py`` ``holds("carrying-parasite-token")`` with ``or`` for ``and``:
  a Pacifist who stayed behind with a Parasite's token lost.
- ``games/parasite/targets.py`` ``legal`` without its "players only" filter for ``give``:
  Buddy System offered the Dog as the player to give a card to.
- ``games/parasite/targets.py`` ``legal`` with ``or`` for ``and`` in the ``unreveal`` filter:
  Just Between Us, played naming nobody, asked whose card to turn down among every player.
- ``games/parasite/rules.py`` ``hand_limit`` giving a card without taking it from the hand:
  the card was copied, and the random discard that followed happened to take the copy in
  tests/parasite/test_audit_hand_limit.py's position, so that test passed; and asking for
  the rest of the hand limit offering, among the cards to discard, one the file already
  discarded.
"""

from __future__ import annotations

from typing import Any

import pytest
from para_helpers import edit, file, new_game, texts

from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.cards import load_cards
from pbem_games.parasite.context import Ctx
from pbem_games.parasite.winning import wins_now


def test_a_player_killed_by_an_interrupt_to_their_own_scalpel_stays_dead() -> None:
    """Rulebook: "Dead players cannot become Distressed or Healthy without being Revived
    first."  Player 1 makes player 2 (already Distressed) Distressed; player 2 answers with
    Scalpel ("first they become Distressed"), and player 3's Ice Pick answers that ("first the
    attacker becomes Distressed"): player 2, the Scalpel's attacker, Dies.  Player 1's Action
    then finishes on a dead player: nothing happens to them."""
    s = new_game(4)

    def position(s: dict[str, Any]) -> None:
        s["health"][1] = "distressed"
        s["hands"][1] = ["scalpel"]
        s["hands"][2] = ["ice-pick"]
        s["reactions"][1] = [{"card": "scalpel"}]
        s["reactions"][2] = [{"card": "ice-pick"}]

    edit(s, position)
    result = file(s, {0: ["distress player 2", "stay"]})
    state = result.state
    said = texts(result)
    assert "player 2 is Distressed again and Dies." in said
    assert state["health"][1] == "dead" and state["loc"][1] is None
    assert state["health"][0] == "healthy", "the Scalpel never finished: its player died first"
    died = said.index("player 2 is Distressed again and Dies.")
    assert not any("player 2 becomes Distressed" in t for t in said[died:])


WRONG_TYPES = [("dog", "yes"), ("dog", 1), ("untidy", "no"), ("reactions", True)]


@pytest.mark.parametrize(("name", "value"), WRONG_TYPES)
def test_an_option_of_the_wrong_type_is_refused(name: str, value: object) -> None:
    """The Dog expansion is on or off (a bool): a text or a number is refused by name, not
    taken for "on" by its truth."""
    with pytest.raises(ValueError, match=f"option '{name}' takes a (bool|str)"):
        GAME.setup(4, {name: value}, Rng(b"options"))


def test_a_pacifist_who_stays_behind_with_a_parasites_token_still_wins() -> None:
    """Rulebook: "Any player who fulfills their Win Condition is considered a Winner.  A player
    cannot Win if their Lose Condition is also fulfilled."  The Pacifist's card: "Win: you are
    alive at the end and no Parasite Escapes. Lose: you Escape carrying a token of a
    Parasite."  Carrying the token without Escaping is no Lose Condition."""
    s = new_game(4)

    def position(s: dict[str, Any]) -> None:
        s["infection"][0] = ["pacifist"]
        s["infection"][1] = ["mimic"]
        s["infection"][2] = ["immune"]
        s["infection"][3] = ["evacuee"]
        s["tokens"][0] = [1]  # the Mimic's token
        s["escaped"] = [2]

    edit(s, position)
    ctx = Ctx(s, load_cards(), [], Rng(b"pacifist"))
    assert ctx.side(1) == "parasite" and ctx.side(2) == "human"
    assert wins_now(ctx, 0), "alive, stayed behind, no Parasite Escaped"
    s["escaped"] = [0, 2]
    assert not wins_now(ctx, 0), "Escaped carrying the Mimic's token"


def test_a_card_that_gives_to_another_player_never_offers_the_dog() -> None:
    """Buddy System: "Draw 1 Office card, then give 1 hand card to another player in your
    Location."  The Dog is not a player: beside player 1 stand player 2 and the Dog, so the
    card goes to player 2 and nobody is asked whom to give it to."""
    s = new_game(4, dog=True, **{"dog-first-move": "round-2"})

    def position(s: dict[str, Any]) -> None:
        s["hands"][0] = ["buddy-system", "pep-talk"]
        s["loc"][2] = s["loc"][3] = "office"

    edit(s, position)
    assert s["loc"][1] == s["loc"][4] == "helipad", "player 2 and the Dog are beside player 1"
    state = file(s, {0: ["play buddy-system", "stay"]}).state
    question = state["pending"]["ask"]["question"]
    assert question["kind"] == "give", f"asked {question}"
    given = file(state, {0: ["give pep-talk"]}).state
    assert "pep-talk" in given["hands"][1] and "pep-talk" not in given["hands"][4]


def test_a_card_given_for_the_hand_limit_leaves_the_givers_hand() -> None:
    """Rulebook: "The hand limit is three cards.  Discard or give cards to another player in
    your Location until you have three or fewer cards in your hand."  Player 1, on a Mission,
    keeps a fourth card from the Office, where player 2 stands, and gives the Crowbar: the
    card moves once, and nothing more is discarded."""

    def position(s: dict[str, Any]) -> None:
        s["hands"][0] = ["crowbar", "sled", "blood-test"]
        s["mission"] = "fuel-run"
        s["loc"][0] = "mission"
        s["loc"][1] = "office"
        s["decks"]["office"] = ["pep-talk", "stitches"]
        s["reactions"] = [[] for _ in range(4)]
        s["prefer"] = [["action"], None, None, None]

    s = edit(new_game(4), position)
    for seed in (b"t", b"u", b"v", b"w"):
        result = file(s, {0: ["give crowbar to player 2", "move office"]}, seed=seed)
        state = result.state
        assert sorted(state["hands"][0]) == ["blood-test", "sled", "stitches"]
        held = [c for hand in state["hands"] for c in hand] + [
            c for pile in state["discards"].values() for c in pile
        ]
        assert held.count("crowbar") == 1 and "crowbar" in state["hands"][1]
        assert not any("at random" in t for t in texts(result)), seed


def test_just_between_us_naming_nobody_turns_down_the_only_revealed_card() -> None:
    """Just Between Us: "Choose a player whose Infection card is revealed, you included: it
    is turned face down again."  Only player 3's card is revealed, so the card needs no
    choice: it is turned down, and nobody is asked to choose among players with none."""
    s = new_game(4)

    def position(s: dict[str, Any]) -> None:
        s["hands"][0] = ["just-between-us"]
        s["revealed"][2] = True

    edit(s, position)
    state = file(s, {0: ["play just-between-us", "stay"]}).state
    assert state["revealed"] == [False, False, False, False]
    assert state["pending"]["ask"]["question"]["kind"] != "target"


def test_the_hand_limit_question_offers_only_cards_not_already_named() -> None:
    """Rulebook: "Discard or give cards to another player in your Location until you have
    three or fewer cards in your hand."  Player 1 holds four cards, names the Crowbar to
    discard, and keeps a fifth from the Office: asked for one more, they choose among the
    four cards still held, never the Crowbar, which is already discarded."""

    def position(s: dict[str, Any]) -> None:
        s["hands"][0] = ["crowbar", "sled", "blood-test", "pep-talk"]
        s["mission"] = "fuel-run"
        s["loc"][0] = "mission"
        s["decks"]["office"] = ["pep-talk", "stitches"]
        s["reactions"] = [[] for _ in range(4)]

    s = edit(new_game(4), position)
    kept = file(s, {0: ["discard crowbar", "move office"]}).state
    at_end = file(kept, {0: ["keep stitches"]}).state
    question = at_end["pending"]["ask"]["question"]
    assert (question["kind"], question["count"]) == ("discard", 1)
    offered = GAME.observe(at_end, 0).private["ask"]["hand"]
    assert sorted(offered) == ["blood-test", "pep-talk", "sled", "stitches"]
    done = file(at_end, {0: ["discard sled"]}).state
    assert sorted(done["hands"][0]) == ["blood-test", "pep-talk", "stitches"]
