"""Archive review (twelfth session): the text archive's chart tables with long names.

A table has a column per player, at most 72 columns in all, so with eight players a column
is eight characters wide.  Names were cut to fit: a club whose players are
``northclub-alice``, ``northclub-bob`` ... got eight columns all headed ``northcl`` (with
the 32-character names pbem allows, every table of an 8-player Parasite game).  Now a name
that does not fit goes on over the next header lines, whole.
"""

from __future__ import annotations

import pytest

from pbem.archive.charts import text_table
from pbem.archive.model import Chart
from pbem.archive.text import WIDTH

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def _columns(rows: list[str], count: int) -> list[str]:
    """Each column's header read back: its slice of every header line, joined."""
    heads = rows[1 : rows.index(next(row for row in rows[2:] if row[:5].strip().isdigit()))]
    column = (len(rows[-1]) - 5) // count
    return [
        "".join(line[5 + i * column : 5 + (i + 1) * column].strip() for line in heads) for i in range(count)
    ]


@pytest.mark.parametrize("players", [3, 4, 8])
@pytest.mark.parametrize("prefix", ["northclub-", "a-very-long-club-name-of-ours-"])
def test_every_column_shows_its_players_whole_name(players: int, prefix: str) -> None:
    names = [(prefix + name)[:32] for name in NAMES[:players]]
    series = tuple((name, tuple(range(seat, seat + 3))) for seat, name in enumerate(names))
    rows = text_table(Chart("Psi", (1, 2, 3), series), WIDTH)
    assert all(len(row) <= WIDTH for row in rows)
    assert _columns(rows, players) == names
    assert rows[-1].split() == ["3", *(str(seat + 2) for seat in range(players))]


def test_short_names_keep_their_one_header_line() -> None:
    rows = text_table(Chart("Score", (1, 2), (("alice", (0, 1)), ("bob", (2, None)))), WIDTH)
    assert rows == [
        "Score:",
        " turn       alice         bob",
        "    1           0           2",
        "    2           1           -",
    ]
