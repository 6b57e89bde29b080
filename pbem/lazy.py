"""Parts of a game plug-in loaded on first use, at no cost per call after that.

A plug-in's ``GAME`` object is imported by every command that touches a game (``pbem
status`` among them), but most commands need only a few of its parts: the bots, the order
parser or the board picture each pull in modules of their own.  A :class:`Lazy` class
attribute names where a part lives; the first lookup imports it and puts the part itself in
the class in place of the descriptor, so every later lookup is an ordinary class attribute
(the engine calls ``observe``, ``validate`` and ``resolve`` for every step: no frame is
added to those calls).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


class Lazy:
    """A class attribute resolved on first lookup: ``"module:attr"`` (a module name relative
    to the package of the class's module when it starts with a dot) or a function of no
    arguments that returns the value.

    ``static=True`` stores a function as a ``staticmethod`` (it takes no ``self``);
    otherwise a function becomes an ordinary method, and any other value (a mapping of bots,
    say) a plain class attribute.  Raises ImportError or AttributeError, on that first
    lookup, when the target is missing."""

    __slots__ = ("_name", "_static", "_target")

    def __init__(self, target: str | Callable[[], Any], *, static: bool = False) -> None:
        self._target = target
        self._static = static
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def resolve(self, owner: type) -> Any:
        """The value named by the target (importing its module), without storing it."""
        if callable(self._target):
            return self._target()
        module, _, attr = self._target.partition(":")
        package = owner.__module__ if module.startswith(".") else None
        if package is not None and not hasattr(import_module(package), "__path__"):
            package = package.rpartition(".")[0]  # the owner is a module: its own package
        return getattr(import_module(module, package), attr)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        owner = type(instance) if owner is None else owner
        value = self.resolve(owner)
        stored = staticmethod(value) if self._static else value
        for holder in owner.__mro__:  # the class that declared it (a subclass may ask first)
            if holder.__dict__.get(self._name) is self:
                setattr(holder, self._name, stored)
                break
        getter = getattr(type(stored), "__get__", None)
        return getter(stored, instance, owner) if getter is not None else stored

    def __repr__(self) -> str:
        target = self._target if isinstance(self._target, str) else getattr(self._target, "__name__", "?")
        return f"<Lazy {self._name or '?'}: {target}>"


def lazy(target: str | Callable[[], Any], *, static: bool = False) -> Any:
    """A :class:`Lazy` class attribute, typed ``Any`` so that a plug-in class using it still
    satisfies :class:`pbem.game.Game` for a type checker."""
    return Lazy(target, static=static)
