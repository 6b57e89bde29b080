"""Ending the ``pbem`` process quickly after a command that only reads.

When a Python program ends, the interpreter tears down every module it imported, one
dictionary at a time, and collects what is left: about 10 ms for ``pbem status``, as long as
a fifth of its start-up, for nothing the user sees.  A command that only reads (its files are
written and closed before it returns) can end the process at once instead, once the exit
handlers have run and the output is flushed.  Only the console entry point does this
(:meth:`pbem.cli.PbemGroup.__call__`, when called without arguments); ``main([...])``,
``main.main(...)`` and click's test runner end as before.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from collections.abc import Collection, Sequence
from typing import NoReturn


def quick_command(argv: Sequence[str], quick: Collection[str]) -> bool:
    """True when the command line ``argv`` (without the program name) asks for one of the
    ``quick`` commands, or for no command at all (``--help``, ``--version``, a usage error:
    nothing is written then).  pbem's own options take no value, so the command is the first
    word that is not an option."""
    name = next((arg for arg in argv if not arg.startswith("-")), None)
    return name is None or name in quick


def can_end_now() -> bool:
    """False while another thread runs (the interpreter would wait for it at exit), or where
    the exit handlers cannot be run first (another Python than CPython)."""
    return threading.active_count() <= 1 and hasattr(atexit, "_run_exitfuncs")


def end_now(code: object) -> NoReturn:
    """End the process with the exit status that ``SystemExit(code)`` would give, after the
    exit handlers (:mod:`atexit`) and with standard output and error flushed, but without the
    interpreter's tear-down.

    A reader that went away (``pbem status | head -0``) ends it quietly with status 1, as
    :class:`pbem.cli.PbemGroup` does for a closed pipe; any other failure to write the output
    says so in one line and also gives status 1."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code & 0xFF
    else:  # as the interpreter does: the message on standard error, status 1
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()  # (checked by can_end_now)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:
            status = status or 1
        except (OSError, ValueError) as error:
            status = status or 1
            _say(f"pbem: could not write the output ({error})\n")
    os._exit(status)


def _say(text: str) -> None:
    """Write ``text`` to file descriptor 2 directly (standard error may be what failed)."""
    with contextlib.suppress(OSError):
        os.write(2, text.encode("utf-8", "replace"))
