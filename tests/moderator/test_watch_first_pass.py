"""``pbem moderate --watch`` and ``pbem judge --watch`` keep watching when their first pass
fails (twelfth session; left by the file-system faults review).

A pass that fails with a domain error (the local index on a full disk, a mail server that is
down) was reported and retried at the next poll, except the first: it ended the watcher
(exit 2), so a moderator started while its state disk was full, or its mail server down,
was not running when the disk or the server came back."""

from __future__ import annotations

import os
import signal

import pytest

from pbem.cli_moderator import _loop
from pbem.errors import PbemError, UsageError


def test_a_failed_first_pass_is_reported_and_the_watch_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[int] = []

    def run() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise UsageError("cannot write the moderator's index: No space left on device")
        os.kill(os.getpid(), signal.SIGTERM)  # what a service manager sends: the loop ends

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        _loop(run, 0, True, None)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    out = capsys.readouterr()
    assert calls == [0, 1], "the pass after the failed first one ran"
    assert "pbem: cannot write the moderator's index: No space left on device" in out.err
    assert "stopped" in out.out


def test_without_watch_a_failed_pass_is_the_commands_error() -> None:
    def run() -> None:
        raise UsageError("cannot write the moderator's index")

    with pytest.raises(PbemError, match="index"):
        _loop(run, 0, False, None)
