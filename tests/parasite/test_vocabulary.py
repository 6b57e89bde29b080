"""EFFECTS.md's tables and the rules code agree: every word of the contract is known to the
loader (games/parasite/cards.py) and handled by the executor, and nothing else is."""

from __future__ import annotations

import re
from pathlib import Path

from pbem_games.parasite import cards

ROOT = Path(__file__).resolve().parents[2]
EFFECTS = (ROOT / "games" / "parasite" / "EFFECTS.md").read_text("utf-8")
ENGINE = ("context.py", "effects.py", "targets.py", "verbs.py", "triggers.py", "winning.py", "rules.py")
CODE = "".join((ROOT / "games" / "parasite" / f).read_text("utf-8") for f in ENGINE)


def _table(heading: str) -> set[str]:
    section = EFFECTS.split(heading, 1)[1]
    rows: set[str] = set()
    started = False
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            started = True
            match = re.match(r"\|\s*`([a-z-]+)`\s*\|", line)
            if match:
                rows.add(match.group(1))
        elif started:
            break
    return rows


def test_the_loader_knows_exactly_the_words_of_effects_md() -> None:
    assert _table("## Verbs") | {"choose"} == set(cards.VERBS)
    assert _table("## Targets") == set(cards.TARGETS)
    assert _table("## Triggers") == set(cards.TRIGGERS)
    assert _table("### Conditions") == set(cards.CONDITIONS)
    assert _table("**Moving.**") == set(cards.SEEKS)


def test_the_executor_handles_every_word() -> None:
    for word in (*cards.VERBS, *cards.TARGETS, *cards.CONDITIONS, *cards.SEEKS):
        assert f'"{word}"' in CODE, f"{word!r} is in the vocabulary but no code handles it"
    for trigger in cards.TRIGGERS:
        assert f'"{trigger}"' in CODE or trigger in cards.INTERRUPT_TRIGGERS, trigger
