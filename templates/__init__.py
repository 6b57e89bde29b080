"""Jinja2 report templates; installed as the ``pbem_templates`` package."""
