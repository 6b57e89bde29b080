"""Jinja2 rendering of report text from the templates shipped in ``templates/``.

Jinja2 is imported here, lazily, so that commands which render nothing start fast.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any


@cache
def _environment() -> Any:
    from importlib.resources import files

    import jinja2

    root = files("pbem_templates")
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        autoescape=False,
        auto_reload=False,  # templates ship with pbem: no stat of the file at every render
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **context: Any) -> str:
    """Render ``templates/<template>`` with ``context``: exactly ``Template.render(**context)``.

    Raises jinja2.TemplateNotFound / UndefinedError for a missing template or variable:
    those are bugs, never user errors.
    """
    return _renderer(template)(context)


@cache
def _renderer(name: str) -> Callable[[dict[str, Any]], str]:
    """A function rendering the compiled template ``name`` (looked up once a process:
    templates ship with pbem) with a context dictionary, as ``Template.render`` does.

    ``Template.render`` builds the template's variables as its globals (a ChainMap, read
    anew each call) updated by the context; here the globals are copied to a plain dict
    once, and the template's own ``new_context(..., shared=True)`` takes the merged dict
    as it is (Jinja2 documents ``shared``: the data is passed as is, without adding the
    globals, which are already in it).  The output is the same; a render costs about half.
    The context is made as ``new_context`` makes it (:func:`jinja2.runtime.new_context`
    with ``shared`` and no locals: the context class given the data, the template's name,
    blocks and globals), the globals given as their plain copy.
    """
    template = _environment().get_template(name)
    env = template.environment
    merged = dict(template.globals)
    root, concat, blocks, context_class = (
        template.root_render_func,
        env.concat,
        template.blocks,
        env.context_class,
    )

    def run(context: dict[str, Any]) -> str:
        # What ``template.new_context(data, shared=True)`` makes, with the globals' names
        # read from the plain copy (a set of a dict, in C) instead of their ChainMap.
        ctx = context_class(env, {**merged, **context}, name, blocks, globals=merged)
        try:
            text: str = concat(root(ctx))
        except Exception:
            env.handle_exception()  # re-raises with the template's lines in the traceback
        return text

    return run


def _template(name: str) -> Any:
    """The compiled template ``name`` (tests, and callers that want Jinja2's own API)."""
    return _environment().get_template(name)


_SECOND = "\x00pbem:second item\x00"


def _slot_mark(name: str) -> str:
    return f"\x00pbem:slot {name}\x00"


@dataclass(frozen=True)
class Shape:
    """A template rendered once with a mark in the place of each variable (a *slot*), kept as
    the literal text around the marks: a render with other values is the literals with each
    slot's text put in (:meth:`fill`), one join instead of Jinja2's run of the template."""

    literals: tuple[str, ...]
    """The text before the first slot, between slots, and after the last."""
    slots: tuple[str, ...]
    """The slots' names in the order they occur (each once)."""

    def fill(self, texts: Mapping[str, str]) -> str:
        """The render with ``texts[slot]`` in each slot's place (a list's items already joined
        by its separator: see :func:`shape`)."""
        parts = list(self.literals * 2)[: 2 * len(self.slots) + 1]
        parts[0::2] = self.literals
        parts[1::2] = map(texts.__getitem__, self.slots)  # in C: no loop in Python
        return "".join(parts)


def shape(
    template: str,
    fixed: Mapping[str, Any],
    scalars: Sequence[str],
    lists: Mapping[str, tuple[str, tuple[Callable[[list[str]], Any], ...]]],
    unread: Sequence[str] = (),
) -> Shape | None:
    """``template`` rendered with a mark for each of ``scalars`` (a string the template writes
    as it is) and of ``lists`` (a list written item by item: ``lists[name]`` is the text
    between two items and the ways the items may reach the template, ``list`` for a plain
    list, or nested), with ``fixed`` for the other variables (what decides the template's
    branches; the caller keeps a shape for each of their values) and a mark for each of
    ``unread``, a variable the template must not write.

    None unless the marks stand for the values: each slot's mark occurs exactly once, no
    mark of ``unread`` occurs, and for each list a render with two items, given each way, is
    the one-item render with the second item after the first and the separator between.
    What the check cannot see (a value the template changes before writing it, a branch on
    a slot's value) the caller states and a test compares against the template.  Raises
    what rendering raises (a missing template or variable: bugs)."""
    marks = {name: _slot_mark(name) for name in (*scalars, *lists, *unread)}

    def context(name: str = "", present: Callable[[list[str]], Any] = list) -> dict[str, Any]:
        values = dict(fixed)
        values.update((slot, marks[slot]) for slot in (*scalars, *unread))
        for slot, (_, ways) in lists.items():
            items = [marks[slot], _SECOND] if slot == name else [marks[slot]]
            values[slot] = (present if slot == name else ways[0])(items)
        return values

    raw = render(template, **context())
    pieces = re.split("(" + "|".join(map(re.escape, marks.values())) + ")", raw)
    named = {mark: name for name, mark in marks.items()}
    slots = tuple(named[mark] for mark in pieces[1::2])
    if len(slots) != len(set(slots)) or set(slots) != {*scalars, *lists} or _SECOND in raw:
        return None
    for name, (separator, ways) in lists.items():
        expected = raw.replace(marks[name], marks[name] + separator + _SECOND, 1)
        if any(render(template, **context(name, way)) != expected for way in ways):
            return None
    return Shape(tuple(pieces[0::2]), slots)
