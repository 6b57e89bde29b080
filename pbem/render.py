"""Jinja2 rendering of report text from the templates shipped in ``templates/``.

Jinja2 is imported here, lazily, so that commands which render nothing start fast.
"""

from __future__ import annotations

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
    """Render ``templates/<template>`` with ``context``.

    Raises jinja2.TemplateNotFound / UndefinedError for a missing template or variable:
    those are bugs, never user errors.
    """
    text: str = _template(template).render(**context)
    return text


@cache
def _template(name: str) -> Any:
    """The compiled template ``name``, looked up once a process (templates ship with pbem)."""
    return _environment().get_template(name)
