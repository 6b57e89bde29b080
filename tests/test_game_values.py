"""pbem.game's Event, View, OrderLine and Resolution, made with their own faster __init__ (issue 13), behave
as the dataclasses they were: same fields, defaults, equality, hash, repr, frozenness, replace,
pickle and JSON round-trips."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from pbem.game import Event, OrderLine, Resolution, View


def test_event_is_the_frozen_dataclass_it_was() -> None:
    e = Event("Player 1 moves.", (0, 2))
    assert e == Event(text="Player 1 moves.", to=(0, 2)) and hash(e) == hash(Event("Player 1 moves.", (0, 2)))
    assert Event("x").to is None and Event("x") != Event("x", (1,))
    assert repr(e) == "Event(text='Player 1 moves.', to=(0, 2))"
    assert dataclasses.asdict(e) == {"text": "Player 1 moves.", "to": (0, 2)}
    assert [f.name for f in dataclasses.fields(Event)] == ["text", "to"]
    assert Event.from_json(e.to_json()) == e and Event.from_json(Event("y").to_json()) == Event("y")
    assert pickle.loads(pickle.dumps(e)) == e and copy.deepcopy(e) == e
    assert dataclasses.replace(e, to=None) == Event("Player 1 moves.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.text = "changed"  # type: ignore[misc]


def test_view_private_defaults_to_a_new_dict_each_time() -> None:
    a, b = View("g", 0, {"round": 1}), View(game="g", seat=0, public={"round": 1})
    assert a == b and a.private == {} and a.private is not b.private
    a.private["note"] = 1
    assert b.private == {} and View("g", 1, {}).private == {}
    assert View("g", None, {}, None).private is None  # an explicit value is kept, even None
    assert View("g", 0, {}, {"hand": [1]}).private == {"hand": [1]}
    assert repr(b) == "View(game='g', seat=0, public={'round': 1}, private={})"
    assert [f.name for f in dataclasses.fields(View)] == ["game", "seat", "public", "private"]
    assert dataclasses.replace(b, seat=3) == View("g", 3, {"round": 1}, {})
    assert pickle.loads(pickle.dumps(b)) == b and copy.deepcopy(b) == b
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.seat = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(b)  # a dict inside: unhashable, as before


def test_order_line_is_the_frozen_dataclass_it_was() -> None:
    line = OrderLine(3, "move D-3")
    assert line == OrderLine(number=3, text="move D-3") and hash(line) == hash(OrderLine(3, "move D-3"))
    assert repr(line) == "OrderLine(number=3, text='move D-3')" and line != OrderLine(4, "move D-3")
    assert pickle.loads(pickle.dumps(line)) == line
    with pytest.raises(dataclasses.FrozenInstanceError):
        line.text = "pass"  # type: ignore[misc]
    with pytest.raises(TypeError):
        OrderLine(1)  # type: ignore[call-arg]


def test_resolution_is_the_frozen_dataclass_it_was() -> None:
    state = {"turn": 2}
    events = (Event("x"), Event("y", (1,)))
    r = Resolution(state, events)
    assert r == Resolution(state=state, events=events) and r.state is state and r.events is events
    assert Resolution({"turn": 2}).events == () and Resolution({}) != Resolution({}, (Event("x"),))
    assert repr(r) == f"Resolution(state={{'turn': 2}}, events={events!r})"
    assert [f.name for f in dataclasses.fields(Resolution)] == ["state", "events"]
    assert dataclasses.replace(r, events=()) == Resolution({"turn": 2})
    assert pickle.loads(pickle.dumps(r)) == r and copy.deepcopy(r) == r
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.state = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(r)  # a dict inside: unhashable, as before
