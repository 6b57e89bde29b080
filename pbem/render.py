"""Jinja2 rendering of report text from the templates shipped in ``templates/``.

Jinja2 is imported here, lazily, so that commands which render nothing start fast.
"""

from __future__ import annotations

from collections.abc import Callable
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
