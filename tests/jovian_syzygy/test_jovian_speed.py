"""The line search's memoised candidates (issue 13) are exactly what the search built anew
for every call before."""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import combinations, product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_games.jovian_syzygy.lines import Body, _candidates, _shape, line_value

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "80"))


def _reference(start: Body, others: Sequence[Body], jupiter: float) -> list[Any]:
    """The candidates as the search built them before they were memoised."""
    out = []
    for size in (3, 2):
        for chosen in combinations(others, size):
            group = (start, *chosen)
            r_min = min(b.radius for b in group)
            for signs in product((1, -1), repeat=len(group)):
                t = [sg * b.radius for sg, b in zip(signs, group, strict=True)]
                mine = t[0]
                if not (mine == max(t) or mine == min(t)):
                    continue
                order = sorted(range(len(group)), key=lambda i: abs(t[i] - mine))
                bodies = tuple(group[i] for i in order)
                sgn = tuple(signs[i] for i in order)
                if len(set(signs)) == 1:
                    if start.radius == max(b.radius for b in group):
                        out.append((line_value(len(group), True), bodies, sgn, 0.0, jupiter, True))
                        out.append((line_value(len(group), False), bodies, sgn, jupiter, r_min, False))
                    else:
                        out.append((line_value(len(group), False), bodies, sgn, 0.0, r_min, False))
                else:
                    out.append((line_value(len(group), False), bodies, sgn, jupiter, r_min, False))
    out.sort(key=lambda c: -c[0])
    return out


radii = st.sampled_from([100.0, 159.0, 254.0, 447.0, 200.0, 159.0])
arcs = st.floats(min_value=-7, max_value=7, allow_nan=False)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.tuples(radii, arcs, arcs), min_size=3, max_size=4), st.sampled_from([50.0, 71.0]))
def test_memoised_candidates_equal_the_rebuilt_ones(
    specs: list[tuple[float, float, float]], jupiter: float
) -> None:
    bodies = [Body(f"m{i}", r, min(a, b), max(a, b)) for i, (r, a, b) in enumerate(specs)]
    for start in bodies:
        others = [b for b in bodies if b is not start]
        assert _candidates(start, others, jupiter) == _reference(start, others, jupiter)


def test_the_shapes_are_worked_out_once_per_board() -> None:
    bodies = [Body(n, r, 0.0, 0.5) for n, r in (("io", 100.0), ("europa", 159.0), ("ganymede", 254.0))]
    _shape.cache_clear()
    for turn in range(5):
        moved = [Body(b.name, b.radius, b.lo + turn, b.hi + turn) for b in bodies]
        _candidates(moved[0], moved[1:], 71.0)
    info = _shape.cache_info()
    assert (info.misses, info.hits) == (1, 4)
