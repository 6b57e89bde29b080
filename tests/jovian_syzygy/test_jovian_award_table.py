"""The award table (issue 13: speed) answers exactly what the line search answers, for every board
position and rider, and a table that is missing, damaged or made for another board is not used."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem_games.jovian_syzygy import award_table, board, rules
from pbem_games.jovian_syzygy.lines import line_value


@pytest.fixture
def fresh_table() -> Iterator[None]:
    award_table._loaded.cache_clear()
    yield
    award_table._loaded.cache_clear()


def test_the_shipped_table_is_the_search_for_every_position_and_rider() -> None:
    shipped = json.loads(award_table._FILE.read_text(encoding="utf-8"))
    again = award_table.build(rules.search_award_line)
    # On failure: python -c "from pbem_games.jovian_syzygy import award_table; award_table.main()"
    assert shipped == json.loads(json.dumps(again)), "award_table.json is stale: write it again"
    assert len(shipped["table"]) == award_table.SIZE == 3 * 6 * 12 * 28 * 4


def test_award_line_and_gain_agree_with_the_search_and_award_for() -> None:
    found = 0
    for sats, moon in award_table.positions()[::7]:
        line = rules.best_line_at(list(sats), moon)
        got = rules.award_line(list(sats), moon)
        assert got == (None if line is None else (line.moons, line.eclipse))
        found += got is not None
        for last in (None, moon, "io"):
            assert rules.award_gain(list(sats), moon, last) == rules.award_for(list(sats), moon, last)[0]
            if got is not None and last != moon:
                assert rules.award_gain(list(sats), moon, last) == line_value(len(got[0]), got[1])
    assert found > 1000  # lines are found, not only "no line"


@pytest.mark.parametrize(
    "sats, moon",
    [
        ([0, 0, 0, 28], "io"),
        ([3, 0, 0, 0], "io"),
        ([-1, 0, 0, 0], "io"),
        ([0, 0, 0], "io"),
        ([0, 0, 0, 0], "x"),
    ],
)
def test_not_a_board_position_is_unknown(sats: list[int], moon: str) -> None:
    assert award_table.lookup(sats, moon) == award_table.UNKNOWN


def test_a_segment_given_as_true_is_not_read_as_1() -> None:
    assert award_table.lookup([True, 0, 0, 0], "io") == award_table.UNKNOWN
    assert award_table.index([1, 0, 0, 0], "io") == 12 * 28 * 6 * 4


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: None,  # missing file
        lambda d: "{not json",
        lambda d: json.dumps({**d, "board": "0" * 64}),  # another board
        lambda d: json.dumps({**d, "format": 99}),
        lambda d: json.dumps({**d, "table": d["table"][:-1]}),  # too short
        lambda d: json.dumps({**d, "table": "?" + d["table"][1:]}),  # a character no line has
        lambda d: json.dumps({**d, "lines": d["lines"][:2]}),  # characters for lines it lacks
        lambda d: json.dumps([1, 2]),
    ],
)
def test_a_damaged_or_foreign_table_is_not_used(
    damage: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_table: None
) -> None:
    data = json.loads(award_table._FILE.read_text(encoding="utf-8"))
    text = damage(data)  # type: ignore[operator]
    path = tmp_path / "award_table.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(award_table, "_FILE", path)
    assert award_table.lookup([0, 0, 0, 0], "io") == award_table.UNKNOWN
    # The rules search instead: the same answer as with the table.
    sats = [1, 2, 3, 4]
    line = rules.best_line_at(sats, "callisto")
    assert rules.award_line(sats, "callisto") == (None if line is None else (line.moons, line.eclipse))


def test_the_table_covers_the_board_as_it_is() -> None:
    assert len(board.MOONS) * 3 * 6 * 12 * 28 == award_table.SIZE
    assert len(award_table.positions()) == award_table.SIZE
    assert [award_table.index(s, m) for s, m in award_table.positions()[:9]] == list(range(9))
