"""Fault injection for the file-system tests: the Nth write-side system call of a command
fails with a chosen errno, as a full disk, a failing device or a read-only folder would.

Every call that changes a file system goes through ``os`` (pbem writes with plain system
calls) or through ``open`` in a writing mode (the few text files ``keygen`` and ``--out``
write): each is counted, in order, and the one numbered ``at`` raises ``OSError(code)``
naming its file as the real call would (the second name too, for a rename or a link).
Calls that only read are never failed: the faults here are the writer's.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_TMPFILE", 0)
_BY_FD = ("write", "fsync", "ftruncate")
_TWO_NAMES = ("replace", "rename", "link")
_BY_NAME = ("mkdir", "unlink", "rmdir", "symlink")


@dataclass
class Faults:
    """Fail the call numbered ``at`` (from 0; None: fail none, only count) with ``code``."""

    at: int | None
    code: int = 0
    calls: list[str] = field(default_factory=list)
    fired: str | None = None

    def hit(self, call: str, names: tuple[Any, ...] = ()) -> None:
        """Count one call; raise the fault when it is the chosen one."""
        self.calls.append(f"{call} {' '.join(map(str, names))}".strip())
        if self.at is not None and len(self.calls) - 1 == self.at:
            self.fired = self.calls[-1]
            exc = OSError(self.code, os.strerror(self.code), *(str(n) for n in names[:1]))
            if len(names) > 1:
                exc.filename2 = str(names[1])
            raise exc


def _wrap(faults: Faults, call: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def failing(*args: Any, **kwargs: Any) -> Any:
        if call == "open":
            flags = args[1] if len(args) > 1 else kwargs.get("flags", 0)
            if flags & _WRITING:
                faults.hit("open", (args[0],))
        elif call in _BY_FD:
            faults.hit(call)
        elif call in _TWO_NAMES:
            faults.hit(call, (args[0], args[1]))
        else:
            faults.hit(call, (args[0],))
        return real(*args, **kwargs)

    return failing


@contextlib.contextmanager
def injected(faults: Faults) -> Iterator[Faults]:
    """Count (and fail) the write-side calls made inside the block; everything is put back."""
    real = {name: getattr(os, name) for name in ("open", *_BY_FD, *_TWO_NAMES, *_BY_NAME)}
    real_open = builtins.open

    def open_file(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax+"):
            faults.hit("open", (file,))
        return real_open(file, mode, *args, **kwargs)

    for name, call in real.items():
        setattr(os, name, _wrap(faults, name, call))
    builtins.open = io.open = open_file
    try:
        yield faults
    finally:
        for name, call in real.items():
            setattr(os, name, call)
        builtins.open = io.open = real_open
