"""Parasite's card set as data: TOML files read by games/parasite/cards.py.

A package only so that the wheel ships the ``*.toml`` files beside it (pyproject's
package-data); the schema and vocabulary are in games/parasite/EFFECTS.md.
"""
